import Foundation
import Syringe
import Testing

// A lazy wrapper made inside a resolution keeps that resolution's `.graph` scope, so that its
// first read, later, finds the resolution's `.graph` instances. Several wrappers share the scope,
// and their first reads may come from several threads at once.

final class GssUnit {
    let serial = FxSerial.next()
}
final class GssLeft {
    let unit: GssUnit
    init(unit: GssUnit) { self.unit = unit }
}
final class GssRight {
    let unit: GssUnit
    init(unit: GssUnit) { self.unit = unit }
}
final class GssOwner: @unchecked Sendable {
    @Inject var unit: GssUnit
    @LazyInject var left: GssLeft
    @LazyInject var right: GssRight
}
/// Two lazy wrappers and nothing else: their first reads build the `.graph` unit.
final class GssLazyOwner: @unchecked Sendable {
    @LazyInject var left: GssLeft
    @LazyInject var right: GssRight
}
/// What an async factory builds around an owner it resolves synchronously.
final class GssHolder<Owner: AnyObject>: @unchecked Sendable {
    let owner: Owner
    init(owner: Owner) { self.owner = owner }
}

/// A `.graph` instance with a lazy wrapper: the wrapper keeps the resolution's `.graph` scope, which
/// keeps the instance while the resolution runs.
final class GssGraphOwner: @unchecked Sendable {
    @Inject var unit: GssUnit
    @LazyInject var left: GssLeft
}

/// A second `.graph` registration, and an owner whose lazy wrapper's first read builds it.
final class GssOther {}
final class GssOtherOwner: @unchecked Sendable {
    @LazyInject var other: GssOther
}

/// Where a task reports the `.graph` owner it resolved, held weakly.
final class GssWeakOwner: @unchecked Sendable {
    weak var object: GssGraphOwner?
}

/// A container whose `GssOwner` has an `@Inject`ed `.graph` unit and two lazy wrappers whose
/// values depend on it.
func gssContainer() -> Resolver {
    let r = Resolver()
    r.register(lifetime: .graph) { GssUnit() }
    r.register(lifetime: .graph) { GssOther() }
    r.register { GssLeft(unit: $0.resolve()) }
    r.register { GssRight(unit: $0.resolve()) }
    r.register { GssOwner() }
    return r
}

/// Reads `left` on a thread of its own and `right` on this one at the same time; what each gave.
func gssReadFirstOnTwoThreads(
    _ left: @escaping @Sendable () -> GssLeft, _ right: () -> GssRight
) -> (GssLeft, GssRight) {
    final class Box: @unchecked Sendable { var left: GssLeft? }
    let box = Box()
    let finished = DispatchSemaphore(value: 0)
    fxStartThread(finished) { box.left = left() }
    let rightValue = right()
    finished.wait()
    return (box.left!, rightValue)
}

@Suite struct GraphScopeSharingTests {
    @Test func twoLazyWrappersOfOneResolutionReadFirstOnTwoThreadsShareAGraphInstance() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 60)
            let r = gssContainer()
            r.register { GssLazyOwner() }
            for _ in 0..<5_000 {
                let owner: GssLazyOwner = r.resolve()
                let (left, right) = gssReadFirstOnTwoThreads({ owner.left }, { owner.right })
                invRequire(right.unit === left.unit, "both wrappers' values share the .graph instance")
            }
        }
    }

    @Test func twoLazyWrappersReadFirstOnTwoThreadsFindTheResolutionsGraphInstance() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 60)
            let r = gssContainer()
            for _ in 0..<5_000 {
                let owner: GssOwner = r.resolve()
                let (left, right) = gssReadFirstOnTwoThreads({ owner.left }, { owner.right })
                invRequire(right.unit === owner.unit, "the right wrapper found the resolution's .graph instance")
                invRequire(left.unit === owner.unit, "the left wrapper found the resolution's .graph instance")
            }
        }
    }

    @Test func aLazyWrapperMadeInsideAnAsyncResolutionFindsItsGraphInstances() async {
        let r = gssContainer()
        r.register { (resolver: Resolver) async -> GssHolder<GssOwner> in GssHolder(owner: resolver.resolve()) }
        let made: GssHolder<GssOwner> = await r.resolveAsync()
        #expect(made.owner.left.unit === made.owner.unit)
        #expect(made.owner.right.unit === made.owner.unit)
    }

    @Test func aGraphInstanceWithALazyWrapperMadeInsideAnAsyncResolutionIsReleased() async {
        let r = gssContainer()
        r.register(lifetime: .graph) { GssGraphOwner() }
        r.register { (resolver: Resolver) async -> GssHolder<GssGraphOwner> in
            GssHolder(owner: resolver.resolve())
        }
        weak var owner: GssGraphOwner?
        do {
            let made: GssHolder<GssGraphOwner> = await r.resolveAsync()
            owner = made.owner
            #expect(made.owner.left.unit === made.owner.unit)
        }
        #expect(owner == nil)
    }

    @Test func aLazyWrapperMadeInAnAsyncFactorysBodyFindsItsGraphInstances() async {
        let r = gssContainer()
        r.register { (resolver: Resolver) async -> GssHolder<GssOwner> in
            let unit: GssUnit = resolver.resolve()
            let owner = GssOwner()  // made here, not resolved
            #expect(owner.unit === unit)
            return GssHolder(owner: owner)
        }
        let made: GssHolder<GssOwner> = await r.resolveAsync()
        #expect(made.owner.left.unit === made.owner.unit)
    }

    /// A task an async factory starts continues its resolution after the resolution ended: what it
    /// keeps in the ended resolution's `.graph` scope is held weakly, so nothing is kept alive by
    /// the lazy wrapper that keeps the scope.
    @Test(arguments: [false, true])
    func aGraphInstanceBuiltByATaskAFactoryStartedIsReleased(factoryKeepsInTheScope: Bool) async {
        let r = gssContainer()
        r.register(lifetime: .graph) { GssGraphOwner() }
        let done = AfGate()
        let owner = GssWeakOwner()
        r.register { (resolver: Resolver) async -> GssHolder<GssUnit> in
            Task {
                try? await Task.sleep(nanoseconds: 20_000_000)  // after the resolution ended
                let late: GssGraphOwner = resolver.resolve()
                owner.object = late
                _ = late.left
                done.open()
            }
            return GssHolder(owner: factoryKeepsInTheScope ? resolver.resolve() : GssUnit())
        }
        _ = await r.resolveAsync(GssHolder<GssUnit>.self)
        await done.wait()
        try? await Task.sleep(nanoseconds: 20_000_000)  // the task's end releases what it held
        #expect(owner.object == nil)
    }

    /// A lazy wrapper read on another thread while the resolution that made it still runs: the read
    /// leaves the resolution's `.graph` scope alone, so the resolution's next request for the unit
    /// gets the same one.
    @Test func aLazyWrapperReadWhileItsResolutionRunsLeavesItsGraphInstancesAlone() {
        let r = gssContainer()
        r.register { (resolver: Resolver) -> GssHolder<GssUnit> in
            let first = resolver.resolve(GssUnit.self).serial  // nothing else holds it
            let owner = GssOtherOwner()  // its read keeps a new `.graph` instance in the scope
            let finished = DispatchSemaphore(value: 0)
            fxStartThread(finished) { _ = owner.other }
            finished.wait()
            let again: GssUnit = resolver.resolve()
            #expect(again.serial == first)
            return GssHolder(owner: again)
        }
        _ = r.resolve(GssHolder<GssUnit>.self)
    }

    @Test func aLazyWrapperReadWhileItsAsyncResolutionRunsLeavesItsGraphInstancesAlone() async {
        let r = gssContainer()
        r.register { (resolver: Resolver) async -> GssHolder<GssUnit> in
            let first = resolver.resolve(GssUnit.self).serial
            let owner = GssOtherOwner()
            await Task.detached { _ = owner.other }.value
            let again: GssUnit = resolver.resolve()
            #expect(again.serial == first)
            return GssHolder(owner: again)
        }
        _ = await r.resolveAsync(GssHolder<GssUnit>.self)
    }
}
