import Foundation
import Syringe
import Testing

private final class LTService {
    let serial = FxSerial.next()
}
private final class LTPair {
    let first: LTService
    let second: LTService
    init(first: LTService, second: LTService) {
        self.first = first
        self.second = second
    }
}
private final class LTWrapped {
    @Inject var injected: LTService
    let direct: LTService
    init(direct: LTService) { self.direct = direct }
}
private final class LTDeep {
    let pair: LTPair
    let wrapped: LTWrapped
    let viaStatic: LTService
    init(pair: LTPair, wrapped: LTWrapped, viaStatic: LTService) {
        self.pair = pair
        self.wrapped = wrapped
        self.viaStatic = viaStatic
    }
}
private final class LTMarked: Singleton {
    let serial = FxSerial.next()
}
private enum LTQualifier: Qualifier {}

/// Resolves a weak-lifetime object and lets it go; returns its serial number and a weak reference.
private func resolveAndRelease(_ r: Resolver) -> (serial: Int, weak: FxWeak<LTService>) {
    let service: LTService = r.resolve()
    return (service.serial, FxWeak(service))
}

@Suite struct LifetimeTests {
    @Test func transientBuildsEveryTime() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .transient) { () -> LTService in
            built.increment()
            return LTService()
        }
        let a: LTService = r.resolve()
        let b: LTService = r.resolve()
        #expect(a !== b)
        #expect(built.value == 2)
    }

    @Test func singletonBuildsOnce() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .singleton) { () -> LTService in
            built.increment()
            return LTService()
        }
        #expect(built.value == 0)  // lazily built
        let a: LTService = r.resolve()
        let b: LTService = r.resolve()
        let c: LTService = Resolver.withContainer(r) { Resolver.resolve() }
        #expect(a === b)
        #expect(a === c)
        #expect(built.value == 1)
    }

    @Test func singletonSurvivesWhenNobodyHoldsIt() {
        let r = Resolver()
        r.register(lifetime: .singleton) { LTService() }
        let first = resolveAndRelease(r)
        #expect(first.weak.object != nil)
        let again: LTService = r.resolve()
        #expect(again.serial == first.serial)
    }

    @Test func singletonsArePerRegistration() {
        let r = Resolver()
        r.register(lifetime: .singleton) { LTService() }
        r.register(qualifiedBy: LTQualifier.self, lifetime: .singleton) { LTService() }
        let plain: LTService = r.resolve()
        let qualified: LTService = r.resolve(qualifiedBy: LTQualifier.self)
        #expect(plain !== qualified)
        #expect(qualified === (r.resolve(qualifiedBy: LTQualifier.self) as LTService))
    }

    @Test func singletonsArePerContainer() {
        let r1 = Resolver()
        let r2 = Resolver()
        r1.register(lifetime: .singleton) { LTService() }
        r2.register(lifetime: .singleton) { LTService() }
        #expect((r1.resolve() as LTService) !== (r2.resolve() as LTService))
    }

    @Test func graphSharesWithinOneResolution() {
        let r = Resolver()
        r.register(lifetime: .graph) { LTService() }
        r.register { LTPair(first: $0.resolve(), second: $0.resolve()) }
        let pair1: LTPair = r.resolve()
        let pair2: LTPair = r.resolve()
        #expect(pair1.first === pair1.second)
        #expect(pair2.first === pair2.second)
        #expect(pair1.first !== pair2.first)
    }

    // As in Resolver and Swinject, whose graph scopes keep class instances only: a value (a struct
    // with an id of its own) is built anew at each resolution inside one graph.
    @Test func graphSharesClassInstancesAndBuildsValuesAnew() {
        struct Stamp { let id = UUID() }
        struct Stamps {
            let first: Stamp
            let second: Stamp
        }
        let r = Resolver()
        r.defaultLifetime = .graph
        let builds = FxCounter()
        r.register { () -> Stamp in
            builds.increment()
            return Stamp()
        }
        r.register { (r: Resolver) -> Stamps in Stamps(first: r.resolve(), second: r.resolve()) }
        r.register(lifetime: .graph) { LTService() }
        r.register { LTPair(first: $0.resolve(), second: $0.resolve()) }
        let stamps: Stamps = r.resolve()
        #expect(stamps.first.id != stamps.second.id)
        #expect(builds.value == 2)
        let pair: LTPair = r.resolve()
        #expect(pair.first === pair.second)
    }

    @Test func graphIsNewForEachTopLevelResolve() {
        let r = Resolver()
        r.register(lifetime: .graph) { LTService() }
        let a: LTService = r.resolve()
        let b: LTService = r.resolve()
        #expect(a !== b)
    }

    @Test func graphIncludesPropertyWrappersAndStaticCalls() {
        let r = Resolver()
        r.register(lifetime: .graph) { LTService() }
        r.register { LTPair(first: $0.resolve(), second: $0.resolve()) }
        r.register { LTWrapped(direct: $0.resolve()) }
        r.register { LTDeep(pair: $0.resolve(), wrapped: $0.resolve(), viaStatic: Resolver.resolve()) }
        let deep: LTDeep = r.resolve()
        let shared = deep.pair.first
        #expect(deep.pair.second === shared)
        #expect(deep.wrapped.direct === shared)
        #expect(deep.wrapped.injected === shared)
        #expect(deep.viaStatic === shared)
        let next: LTDeep = r.resolve()
        #expect(next.pair.first !== shared)
        #expect(next.wrapped.injected === next.pair.first)
    }

    @Test func graphThroughAWrapperOwningObject() {
        let r = Resolver()
        r.register(lifetime: .graph) { LTService() }
        r.register { LTWrapped(direct: $0.resolve()) }
        let a: LTWrapped = r.resolve()
        let b: LTWrapped = r.resolve()
        #expect(a.injected === a.direct)
        #expect(b.injected === b.direct)
        #expect(a.direct !== b.direct)
    }

    @Test func weakIsSharedWhileHeld() {
        let r = Resolver()
        r.register(lifetime: .weak) { LTService() }
        let a: LTService = r.resolve()
        let b: LTService = r.resolve()
        #expect(a === b)
    }

    @Test func weakIsRebuiltAfterRelease() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .weak) { () -> LTService in
            built.increment()
            return LTService()
        }
        let first = resolveAndRelease(r)
        #expect(first.weak.object == nil)  // the container did not keep it
        let second: LTService = r.resolve()
        #expect(second.serial != first.serial)
        #expect(built.value == 2)
    }

    @Test func defaultLifetimeIsSettable() {
        let r = Resolver()
        r.defaultLifetime = .singleton
        #expect(r.defaultLifetime == .singleton)
        r.register { LTService() }
        #expect((r.resolve() as LTService) === (r.resolve() as LTService))
        r.defaultLifetime = .weak
        r.register(qualifiedBy: LTQualifier.self) { LTService() }
        let released = FxWeak<LTService>()
        do {
            let held: LTService = r.resolve(qualifiedBy: LTQualifier.self)
            released.object = held
            #expect(held === (r.resolve(qualifiedBy: LTQualifier.self) as LTService))
        }
        #expect(released.object == nil)
    }

    @Test func explicitLifetimeBeatsTheDefault() {
        let r = Resolver()
        r.defaultLifetime = .singleton
        r.register(lifetime: .transient) { LTService() }
        #expect((r.resolve() as LTService) !== (r.resolve() as LTService))
    }

    @Test func singletonMarkerProtocolOverridesTransient() {
        let r = Resolver()
        let built = FxCounter()
        r.register { () -> LTMarked in
            built.increment()
            return LTMarked()
        }
        let a: LTMarked = r.resolve()
        let b: LTMarked = r.resolve()
        #expect(a === b)
        #expect(built.value == 1)
    }

    @Test func singletonMarkerProtocolOverridesTheContainersDefaultLifetime() {
        let r = Resolver()
        r.defaultLifetime = .weak
        r.register { LTMarked() }
        r.defaultLifetime = .graph
        r.register(qualifiedBy: LTQualifier.self) { LTMarked() }
        let weakSerial = { () -> Int in (r.resolve() as LTMarked).serial }
        #expect(weakSerial() == weakSerial())
        let g1: LTMarked = r.resolve(qualifiedBy: LTQualifier.self)
        let g2: LTMarked = r.resolve(qualifiedBy: LTQualifier.self)
        #expect(g1 === g2)
    }

    @Test func lifetimeValuesAreDistinct() {
        let all: [Lifetime] = [.transient, .singleton, .graph, .weak]
        for (i, a) in all.enumerated() {
            for (j, b) in all.enumerated() {
                #expect((a == b) == (i == j))
            }
        }
    }
}
