import Syringe
import Testing

private final class ScUser {
    let serial = FxSerial.next()
}
private enum ScFlow: Scope {}
private enum ScOtherFlow: Scope {}
private enum ScSession: Scope {
    static var retention: ScopeRetention { .strong }
}
private enum ScAdmin: Qualifier {}

private final class ScScreen {
    @Inject(ScFlow.self) var user: ScUser
}

/// Resolves in `scope` and lets the instance go; returns its serial and a weak reference.
private func resolveAndRelease<S: Scope>(_ r: Resolver, _ scope: S.Type) -> (serial: Int, weak: FxWeak<ScUser>) {
    let user: ScUser = r.resolve(scopedTo: scope)
    return (user.serial, FxWeak(user))
}

@Suite struct ScopeTests {
    @Test func sharedWhileHeld() {
        let r = Resolver()
        r.register(scopedTo: ScFlow.self) { ScUser() }
        let a: ScUser = r.resolve(scopedTo: ScFlow.self)
        let b: ScUser = r.resolve(scopedTo: ScFlow.self)
        #expect(a === b)
    }

    @Test func rebuiltAfterEveryHolderIsGone() {
        let r = Resolver()
        let built = FxCounter()
        r.register(scopedTo: ScFlow.self) { () -> ScUser in
            built.increment()
            return ScUser()
        }
        let first = resolveAndRelease(r, ScFlow.self)
        #expect(first.weak.object == nil)  // the scope holds its instance weakly
        let second = resolveAndRelease(r, ScFlow.self)
        #expect(second.serial != first.serial)
        #expect(built.value == 2)
    }

    @Test func sharedAcrossHoldersUntilTheLastIsGone() {
        let r = Resolver()
        r.register(scopedTo: ScFlow.self) { ScUser() }
        var first: ScUser? = r.resolve(scopedTo: ScFlow.self)
        let serial = first!.serial
        var second: ScUser? = r.resolve(scopedTo: ScFlow.self)
        first = nil
        let third: ScUser = r.resolve(scopedTo: ScFlow.self)
        #expect(third.serial == serial)  // `second` still held it
        second = nil
        _ = second
        #expect(third.serial == serial)
    }

    @Test func screensShareTheUserWhileTheFlowLives() {
        let r = Resolver()
        r.register(scopedTo: ScFlow.self) { ScUser() }
        let serials: (Int, Int, Int) = Resolver.withContainer(r) {
            let first = ScScreen()
            let second = ScScreen()
            #expect(first.user === second.user)
            return (first.user.serial, second.user.serial, first.user.serial)
        }
        #expect(serials.0 == serials.1)
        let later = Resolver.withContainer(r) { ScScreen() }
        #expect(later.user.serial != serials.0)
    }

    @Test func differentScopesAreIndependent() {
        let r = Resolver()
        r.register(scopedTo: ScFlow.self) { ScUser() }
        r.register(scopedTo: ScOtherFlow.self) { ScUser() }
        let a: ScUser = r.resolve(scopedTo: ScFlow.self)
        let b: ScUser = r.resolve(scopedTo: ScOtherFlow.self)
        #expect(a !== b)
        #expect(b === (r.resolve(scopedTo: ScOtherFlow.self) as ScUser))
    }

    @Test func scopedAndUnscopedAreDifferentKeys() {
        let r = Resolver()
        r.register { ScUser() }
        r.register(scopedTo: ScFlow.self) { ScUser() }
        let scoped: ScUser = r.resolve(scopedTo: ScFlow.self)
        let plain1: ScUser = r.resolve()
        let plain2: ScUser = r.resolve()
        #expect(plain1 !== plain2)
        #expect(plain1 !== scoped)
    }

    @Test func scopeWithQualifier() {
        let r = Resolver()
        r.register(ScUser.self, scopedTo: ScFlow.self, qualifiedBy: ScAdmin.self) { ScUser() }
        r.register(scopedTo: ScFlow.self) { ScUser() }
        let admin1: ScUser = r.resolve(scopedTo: ScFlow.self, qualifiedBy: ScAdmin.self)
        let admin2: ScUser = r.resolve(scopedTo: ScFlow.self, qualifiedBy: ScAdmin.self)
        let plain: ScUser = r.resolve(scopedTo: ScFlow.self)
        #expect(admin1 === admin2)
        #expect(admin1 !== plain)
    }

    @Test func strongScopeKeepsItsInstanceUntilDropped() {
        let r = Resolver()
        r.register(scopedTo: ScSession.self) { ScUser() }
        let first = resolveAndRelease(r, ScSession.self)
        #expect(first.weak.object != nil)
        #expect((r.resolve(scopedTo: ScSession.self) as ScUser).serial == first.serial)
        r.dropCached(scopedTo: ScSession.self)
        #expect(first.weak.object == nil)
        let second: ScUser = r.resolve(scopedTo: ScSession.self)
        #expect(second.serial != first.serial)
    }

    @Test func globalScopeIsBuiltInAndStrong() {
        let r = Resolver()
        r.register(scopedTo: Global.self) { ScUser() }
        let first = resolveAndRelease(r, Global.self)
        #expect(first.weak.object != nil)
        #expect((r.resolve(scopedTo: Global.self) as ScUser).serial == first.serial)
        r.dropCached(scopedTo: Global.self)
        #expect((r.resolve(scopedTo: Global.self) as ScUser).serial != first.serial)
    }

    @Test func dropCachedForOneScopeLeavesOthers() {
        let r = Resolver()
        r.register(scopedTo: ScSession.self) { ScUser() }
        r.register(scopedTo: Global.self) { ScUser() }
        let session: ScUser = r.resolve(scopedTo: ScSession.self)
        let global: ScUser = r.resolve(scopedTo: Global.self)
        r.dropCached(scopedTo: ScSession.self)
        #expect((r.resolve(scopedTo: ScSession.self) as ScUser) !== session)
        #expect((r.resolve(scopedTo: Global.self) as ScUser) === global)
    }

    @Test func retentionDefaultsToWeak() {
        #expect(ScFlow.retention != .strong)
        #expect(ScSession.retention == .strong)
        #expect(Global.retention == .strong)
    }

    @Test func beginScopeKeepsInstancesUntilEnd() {
        let r = Resolver()
        r.register(scopedTo: ScFlow.self) { ScUser() }
        let flow = r.beginScope(ScFlow.self)
        let first = resolveAndRelease(r, ScFlow.self)
        #expect(first.weak.object != nil)  // nobody holds it but the open flow
        #expect((r.resolve(scopedTo: ScFlow.self) as ScUser).serial == first.serial)
        flow.end()
        #expect(first.weak.object == nil)
        let after = resolveAndRelease(r, ScFlow.self)
        #expect(after.serial != first.serial)
    }

    @Test func beginScopeReleasesWhenTheHandleIsReleased() {
        let r = Resolver()
        r.register(scopedTo: ScFlow.self) { ScUser() }
        let first: (serial: Int, weak: FxWeak<ScUser>) = {
            let flow = r.beginScope(ScFlow.self)
            return withExtendedLifetime(flow) {
                let result = resolveAndRelease(r, ScFlow.self)
                #expect(result.weak.object != nil)
                return result
            }
        }()
        #expect(first.weak.object == nil)
        let after = resolveAndRelease(r, ScFlow.self)
        #expect(after.serial != first.serial)
    }

    @Test func beginScopeOnlyAffectsItsScope() {
        let r = Resolver()
        r.register(scopedTo: ScFlow.self) { ScUser() }
        r.register(scopedTo: ScOtherFlow.self) { ScUser() }
        let flow = r.beginScope(ScFlow.self)
        let kept = resolveAndRelease(r, ScFlow.self)
        let other = resolveAndRelease(r, ScOtherFlow.self)
        #expect(kept.weak.object != nil)
        #expect(other.weak.object == nil)
        flow.end()
    }

    @Test func staticBeginScopeUsesTheCurrentContainer() {
        let r = Resolver()
        r.register(scopedTo: ScFlow.self) { ScUser() }
        let flow = Resolver.withContainer(r) { Resolver.beginScope(ScFlow.self) }
        let first = resolveAndRelease(r, ScFlow.self)
        #expect(first.weak.object != nil)
        flow.end()
        #expect(first.weak.object == nil)
    }

    @Test func staticScopedResolveUsesTheCurrentContainer() {
        let r = Resolver()
        r.register(scopedTo: ScFlow.self) { ScUser() }
        let pair: (ScUser, ScUser) = Resolver.withContainer(r) {
            (Resolver.resolve(scopedTo: ScFlow.self), Resolver.resolve(scopedTo: ScFlow.self))
        }
        #expect(pair.0 === pair.1)
    }
}
