import Syringe
import Testing

private final class RmA { let serial = FxSerial.next() }
private final class RmB { let serial = FxSerial.next() }
private final class RmC { let serial = FxSerial.next() }
private enum RmQualifier: Qualifier {}
private enum RmOtherQualifier: Qualifier {}
private enum RmFlow: Scope {}
private enum RmSession: Scope {
    static var retention: ScopeRetention { .strong }
}

private func has<T>(_ r: Resolver, _ type: T.Type) -> Bool { (r.optional() as T?) != nil }
private func has<T, Q: Qualifier>(_ r: Resolver, _ type: T.Type, _ q: Q.Type) -> Bool {
    (r.optional(qualifiedBy: q) as T?) != nil
}

@Suite struct RemovalTests {
    @Test func clearRegistrationForAType() {
        let r = Resolver()
        r.register { RmA() }
        r.register { RmB() }
        #expect(has(r, RmA.self))
        r.clearRegistration(for: RmA.self)
        #expect(!has(r, RmA.self))
        #expect(has(r, RmB.self))
    }

    @Test func clearRegistrationForAQualifierOnly() {
        let r = Resolver()
        r.register { RmA() }
        r.register(qualifiedBy: RmQualifier.self) { RmA() }
        r.register(qualifiedBy: RmOtherQualifier.self) { RmA() }
        r.clearRegistration(for: RmA.self, qualifiedBy: RmQualifier.self)
        #expect(!has(r, RmA.self, RmQualifier.self))
        #expect(has(r, RmA.self, RmOtherQualifier.self))
        #expect(has(r, RmA.self))
    }

    @Test func clearRegistrationWithoutQualifierLeavesQualifiedOnes() {
        let r = Resolver()
        r.register { RmA() }
        r.register(qualifiedBy: RmQualifier.self) { RmA() }
        r.clearRegistration(for: RmA.self)
        #expect(!has(r, RmA.self))
        #expect(has(r, RmA.self, RmQualifier.self))
    }

    @Test func clearScopedRegistration() throws {
        let r = Resolver()
        r.register(scopedTo: RmFlow.self) { RmA() }
        r.register(RmA.self, scopedTo: RmFlow.self, qualifiedBy: RmQualifier.self) { RmA() }
        r.register { RmA() }
        r.clearRegistration(for: RmA.self, scopedTo: RmFlow.self, qualifiedBy: RmQualifier.self)
        #expect(throws: ResolutionError.self) {
            let _: RmA = try r.tryResolve(scopedTo: RmFlow.self, qualifiedBy: RmQualifier.self)
        }
        let stillScoped: RmA = try r.tryResolve(scopedTo: RmFlow.self)
        _ = stillScoped
        r.clearRegistration(for: RmA.self, scopedTo: RmFlow.self)
        #expect(throws: ResolutionError.self) { let _: RmA = try r.tryResolve(scopedTo: RmFlow.self) }
        #expect(has(r, RmA.self))
    }

    @Test func clearAllRegistrations() {
        let r = Resolver()
        r.register { RmA() }
        r.register(qualifiedBy: RmQualifier.self) { RmB() }
        r.register(name: "c") { RmC() }
        r.register(scopedTo: RmFlow.self) { RmA() }
        r.clearAllRegistrations()
        #expect(!has(r, RmA.self))
        #expect(!has(r, RmB.self, RmQualifier.self))
        #expect((r.optional(name: "c") as RmC?) == nil)
        #expect(throws: ResolutionError.self) { let _: RmA = try r.tryResolve(scopedTo: RmFlow.self) }
    }

    @Test func clearAllRegistrationsForAType() {
        let r = Resolver()
        r.register { RmA() }
        r.register(qualifiedBy: RmQualifier.self) { RmA() }
        r.register(name: "a") { RmA() }
        r.register(scopedTo: RmFlow.self) { RmA() }
        r.register { RmB() }
        r.register(qualifiedBy: RmQualifier.self) { RmB() }
        r.clearAllRegistrations(for: RmA.self)
        #expect(!has(r, RmA.self))
        #expect(!has(r, RmA.self, RmQualifier.self))
        #expect((r.optional(name: "a") as RmA?) == nil)
        #expect(throws: ResolutionError.self) { let _: RmA = try r.tryResolve(scopedTo: RmFlow.self) }
        #expect(has(r, RmB.self))
        #expect(has(r, RmB.self, RmQualifier.self))
    }

    @Test func clearAllRegistrationsScopedTo() throws {
        let r = Resolver()
        r.register(scopedTo: RmFlow.self) { RmA() }
        r.register(scopedTo: RmFlow.self) { RmB() }
        r.register(scopedTo: RmSession.self) { RmA() }
        r.register { RmA() }
        r.clearAllRegistrations(scopedTo: RmFlow.self)
        #expect(throws: ResolutionError.self) { let _: RmA = try r.tryResolve(scopedTo: RmFlow.self) }
        #expect(throws: ResolutionError.self) { let _: RmB = try r.tryResolve(scopedTo: RmFlow.self) }
        let session: RmA = try r.tryResolve(scopedTo: RmSession.self)
        _ = session
        #expect(has(r, RmA.self))
    }

    @Test func clearAllRegistrationsQualifiedBy() {
        let r = Resolver()
        r.register(qualifiedBy: RmQualifier.self) { RmA() }
        r.register(qualifiedBy: RmQualifier.self) { RmB() }
        r.register(qualifiedBy: RmOtherQualifier.self) { RmA() }
        r.register { RmA() }
        r.clearAllRegistrations(qualifiedBy: RmQualifier.self)
        #expect(!has(r, RmA.self, RmQualifier.self))
        #expect(!has(r, RmB.self, RmQualifier.self))
        #expect(has(r, RmA.self, RmOtherQualifier.self))
        #expect(has(r, RmA.self))
    }

    @Test func clearAllRegistrationsScopedToAndQualifiedBy() throws {
        let r = Resolver()
        r.register(RmA.self, scopedTo: RmFlow.self, qualifiedBy: RmQualifier.self) { RmA() }
        r.register(RmB.self, scopedTo: RmFlow.self, qualifiedBy: RmQualifier.self) { RmB() }
        r.register(scopedTo: RmFlow.self) { RmA() }
        r.register(qualifiedBy: RmQualifier.self) { RmA() }
        r.clearAllRegistrations(scopedTo: RmFlow.self, qualifiedBy: RmQualifier.self)
        #expect(throws: ResolutionError.self) {
            let _: RmA = try r.tryResolve(scopedTo: RmFlow.self, qualifiedBy: RmQualifier.self)
        }
        #expect(throws: ResolutionError.self) {
            let _: RmB = try r.tryResolve(scopedTo: RmFlow.self, qualifiedBy: RmQualifier.self)
        }
        let scoped: RmA = try r.tryResolve(scopedTo: RmFlow.self)
        _ = scoped
        #expect(has(r, RmA.self, RmQualifier.self))
    }

    @Test func clearAllRegistrationsExcept() {
        let r = Resolver()
        r.register { RmA() }
        r.register { RmB() }
        r.register(qualifiedBy: RmQualifier.self) { RmB() }
        r.register { RmC() }
        r.clearAllRegistrations(except: [RmB.self])
        #expect(!has(r, RmA.self))
        #expect(!has(r, RmC.self))
        #expect(has(r, RmB.self))
        #expect(has(r, RmB.self, RmQualifier.self))
    }

    @Test func reRegisteringAfterClearingWorks() {
        let r = Resolver()
        r.register { RmA() }
        r.clearAllRegistrations()
        r.register { RmA() }
        #expect(has(r, RmA.self))
    }

    @Test func clearingInAChildUncoversTheParent() {
        let parent = Resolver()
        let child = Resolver(parent: parent)
        let fromParent = RmA()
        parent.register { fromParent }
        child.register { RmA() }
        #expect((child.resolve() as RmA) !== fromParent)
        child.clearRegistration(for: RmA.self)
        #expect((child.resolve() as RmA) === fromParent)
        #expect(has(parent, RmA.self))
    }

    @Test func dropCachedRebuildsTheNamedSingletons() {
        let r = Resolver()
        r.register(lifetime: .singleton) { RmA() }
        r.register(lifetime: .singleton) { RmB() }
        let a1: RmA = r.resolve()
        let b1: RmB = r.resolve()
        #expect(a1 === (r.resolve() as RmA))
        r.dropCached([RmA.self])
        let a2: RmA = r.resolve()
        #expect(a2 !== a1)
        #expect(a2 === (r.resolve() as RmA))
        #expect((r.resolve() as RmB) === b1)
    }

    @Test func dropCachedOfSeveralTypes() {
        let r = Resolver()
        r.register(lifetime: .singleton) { RmA() }
        r.register(lifetime: .singleton) { RmB() }
        r.register(lifetime: .singleton) { RmC() }
        let a1: RmA = r.resolve()
        let b1: RmB = r.resolve()
        let c1: RmC = r.resolve()
        r.dropCached([RmA.self, RmB.self])
        #expect((r.resolve() as RmA) !== a1)
        #expect((r.resolve() as RmB) !== b1)
        #expect((r.resolve() as RmC) === c1)
    }

    @Test func dropCachedCoversQualifiedSingletonsOfTheType() {
        let r = Resolver()
        r.register(qualifiedBy: RmQualifier.self, lifetime: .singleton) { RmA() }
        let a1: RmA = r.resolve(qualifiedBy: RmQualifier.self)
        r.dropCached([RmA.self])
        #expect((r.resolve(qualifiedBy: RmQualifier.self) as RmA) !== a1)
    }

    @Test func dropCachedKeepsTheRegistration() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .singleton) { () -> RmA in
            built.increment()
            return RmA()
        }
        _ = r.resolve() as RmA
        r.dropCached([RmA.self])
        #expect(has(r, RmA.self))
        #expect(built.value == 2)
        _ = r.resolve() as RmA
        #expect(built.value == 2)
    }

    @Test func dropCachedReleasesTheInstance() {
        let r = Resolver()
        r.register(lifetime: .singleton) { RmA() }
        let weak = FxWeak<RmA>()
        do {
            let a: RmA = r.resolve()
            weak.object = a
        }
        #expect(weak.object != nil)
        r.dropCached([RmA.self])
        #expect(weak.object == nil)
    }

    @Test func dropAllCached() {
        let r = Resolver()
        r.register(lifetime: .singleton) { RmA() }
        r.register(lifetime: .singleton) { RmB() }
        let a1: RmA = r.resolve()
        let b1: RmB = r.resolve()
        r.dropAllCached()
        #expect((r.resolve() as RmA) !== a1)
        #expect((r.resolve() as RmB) !== b1)
    }

    @Test func dropAllCachedExcept() {
        let r = Resolver()
        r.register(lifetime: .singleton) { RmA() }
        r.register(lifetime: .singleton) { RmB() }
        let a1: RmA = r.resolve()
        let b1: RmB = r.resolve()
        r.dropAllCached(except: [RmB.self])
        #expect((r.resolve() as RmA) !== a1)
        #expect((r.resolve() as RmB) === b1)
    }

    @Test func dropAllCachedIncludesStrongScopes() {
        let r = Resolver()
        r.register(scopedTo: RmSession.self) { RmA() }
        let a1: RmA = r.resolve(scopedTo: RmSession.self)
        r.dropAllCached()
        #expect((r.resolve(scopedTo: RmSession.self) as RmA) !== a1)
    }

    @Test func dropCachedScopedTo() {
        let r = Resolver()
        r.register(scopedTo: RmSession.self) { RmA() }
        r.register(lifetime: .singleton) { RmB() }
        let a1: RmA = r.resolve(scopedTo: RmSession.self)
        let b1: RmB = r.resolve()
        r.dropCached(scopedTo: RmSession.self)
        #expect((r.resolve(scopedTo: RmSession.self) as RmA) !== a1)
        #expect((r.resolve() as RmB) === b1)
    }

    @Test func staticRemovalActsOnTheCurrentContainer() {
        let r = Resolver()
        r.register { RmA() }
        r.register(qualifiedBy: RmQualifier.self) { RmC() }
        r.register(lifetime: .singleton) { RmB() }
        r.register(scopedTo: RmSession.self) { RmC() }
        let b1: RmB = r.resolve()
        let c1: RmC = r.resolve(scopedTo: RmSession.self)
        Resolver.withContainer(r) {
            Resolver.clearRegistration(for: RmA.self)
            Resolver.clearAllRegistrations(qualifiedBy: RmQualifier.self)
            Resolver.dropCached([RmB.self])
            Resolver.dropCached(scopedTo: RmSession.self)
        }
        #expect(!has(r, RmA.self))
        #expect(!has(r, RmC.self, RmQualifier.self))
        #expect((r.resolve() as RmB) !== b1)
        #expect((r.resolve(scopedTo: RmSession.self) as RmC) !== c1)
    }
}
