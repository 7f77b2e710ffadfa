import Foundation
import Syringe
import Testing

// Back-references and cycles closed after construction: `initCompleted`, and weak holders of
// class-bound protocols.

private protocol BRCoordinator: AnyObject {
    var serial: Int { get }
}
private final class BRAppCoordinator: BRCoordinator {
    let serial = FxSerial.next()
}
private final class BRScreen {
    @WeakInject var coordinator: BRCoordinator?
}

private final class BRParent {
    let child: BRChild
    init(child: BRChild) { self.child = child }
}
private final class BRChild {
    weak var parent: BRParent?
}

private final class BRLeft {
    var right: BRRight?
}
private final class BRRight {
    let left: BRLeft
    init(left: BRLeft) { self.left = left }
}

private final class BRCycleA {
    init(b: BRCycleB) {}
}
private final class BRCycleB {
    init(a: BRCycleA) {}
}

private final class BRSlow {
    var ready = false
}
private struct BRStepFailed: Error {}
private struct BRIncomplete: Error {}

/// A service whose implementation is a `Singleton`, registered without a lifetime, and the
/// singleton whose step resolves it.
private protocol BRMarkedService: AnyObject {
    var owner: BROwnerOfMarked { get }
}
private final class BRMarked: BRMarkedService, Singleton {
    let owner: BROwnerOfMarked
    init(owner: BROwnerOfMarked) { self.owner = owner }
}
private final class BROwnerOfMarked {
    var service: BRMarkedService?
}
private struct BRPairProblem: Error, CustomStringConvertible {
    let description: String
}

/// What one round of two threads resolving the two sides of a singleton pair got.
private final class BRPairOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var left: BRLeft?
    private var right: BRRight?
    private var errors: [String] = []

    func record(_ body: () throws -> Void) {
        do { try body() } catch { lock.withLock { errors.append("\(error)") } }
    }
    func got(_ left: BRLeft) { lock.withLock { self.left = left } }
    func got(_ right: BRRight) { lock.withLock { self.right = right } }

    /// Nil when both threads got the two complete, paired instances; else what went wrong.
    var problem: String? {
        lock.withLock {
            if let error = errors.first { return error }
            guard let left, let right else { return "a side is missing" }
            guard left.right === right, right.left === left else { return "the two instances are not paired" }
            return nil
        }
    }
}

/// Registers a singleton whose `initCompleted` step resolves a `Dependency`, signals `built`, and
/// holds it 100 ms (another thread asks for it meanwhile) before `attach` stores it.
private func brRegisterWithASlowStep<Owner, Dependency>(
    in r: Resolver, _ make: @escaping () -> Owner, signalling built: DispatchSemaphore,
    attach: @escaping (Owner, Dependency) -> Void
) {
    r.register(lifetime: .singleton, factory: make)
        .initCompleted { r, owner in
            let dependency: Dependency = try r.tryResolve()
            built.signal()
            usleep(100_000)
            attach(owner, dependency)
        }
}

@Suite struct BackReferenceTests {
    /// Another thread asking for a singleton built while a step of the resolution is pending (the
    /// `Right`, which refers to the `Left` whose step has not run) waits, and gets it complete.
    @Test func aSingletonBuiltWhileAStepIsPendingIsPublishedOnceTheStepHasRun() {
        let r = Resolver()
        let rightBuilt = DispatchSemaphore(value: 0)
        brRegisterWithASlowStep(in: r, { BRLeft() }, signalling: rightBuilt) { (left, right: BRRight) in
            left.right = right
        }
        r.register(lifetime: .singleton) { BRRight(left: try $0.tryResolve()) }
        let outcome = BRPairOutcome()
        let finished = DispatchSemaphore(value: 0)
        fxStartThread(finished) {
            rightBuilt.wait()
            outcome.record {
                let right: BRRight = try r.tryResolve()
                if right.left.right !== right { throw BRIncomplete() }
                outcome.got(right)
            }
        }
        let left: BRLeft = r.resolve()
        outcome.got(left)
        finished.wait()
        #expect(outcome.problem == nil, "\(outcome.problem ?? "")")
    }

    /// The same when the instance built while the step is pending is the first of a transient
    /// registration whose type is a `Singleton` (its build decides that it is shared).
    @Test func aSingletonBehindATransientRegistrationBuiltWhileAStepIsPendingIsPublishedAfterIt() {
        let r = Resolver()
        let serviceBuilt = DispatchSemaphore(value: 0)
        brRegisterWithASlowStep(in: r, { BROwnerOfMarked() }, signalling: serviceBuilt) {
            (owner, service: BRMarkedService) in owner.service = service
        }
        r.register { (resolver: Resolver) throws -> BRMarkedService in BRMarked(owner: try resolver.tryResolve()) }
        let complete = FxCounter()
        let finished = DispatchSemaphore(value: 0)
        fxStartThread(finished) {
            serviceBuilt.wait()
            if let service: BRMarkedService = try? r.tryResolve(), service.owner.service === service {
                complete.increment()
            }
        }
        let owner: BROwnerOfMarked = r.resolve()
        finished.wait()
        #expect(owner.service != nil)
        #expect(complete.value == 1)
    }

    /// Two singletons tied by `initCompleted`, resolved first by two threads at once, one from each
    /// side: each thread waits, through the other, for what the other builds, and Syringe reports
    /// the loop of waits as a dependency cycle to one of them (a known limit, in
    /// CyclesAndBackReferences.md: resolve one side first).
    @Test func aSingletonPairClosedByInitCompletedResolvedFirstFromBothSidesAtOnce() {
        withKnownIssue("a loop of waits between two threads is reported as a cycle", isIntermittent: true) {
            try resolveThePairFromBothSides()
        }
    }

    private func resolveThePairFromBothSides() throws {
        for _ in 0..<300 {
            let r = Resolver()
            r.register(lifetime: .singleton) { BRLeft() }
                .initCompleted { r, left in left.right = try r.tryResolve() }
            r.register(lifetime: .singleton) { BRRight(left: try $0.tryResolve()) }
            let outcome = BRPairOutcome()
            let finished = fxRunThreads(2) { index in
                outcome.record {
                    // Each checks what it got as it returns: complete, the step run.
                    if index == 0 {
                        let left: BRLeft = try r.tryResolve()
                        if left.right?.left !== left { throw BRIncomplete() }
                        outcome.got(left)
                    } else {
                        let right: BRRight = try r.tryResolve()
                        if right.left.right !== right { throw BRIncomplete() }
                        outcome.got(right)
                    }
                }
            }
            #expect(finished)
            if let problem = outcome.problem { throw BRPairProblem(description: problem) }
        }
    }
    // MARK: initCompleted

    @Test func twoSingletonsPointAtEachOtherWhicheverIsResolvedFirst() {
        for leftFirst in [true, false] {
            let r = Resolver()
            r.register(lifetime: .singleton) { BRLeft() }
                .initCompleted { resolver, left in left.right = resolver.resolve() }
            r.register(lifetime: .singleton) { BRRight(left: $0.resolve()) }
            if leftFirst {
                let left: BRLeft = r.resolve()
                #expect(left.right?.left === left)
                #expect((r.resolve() as BRRight) === left.right)
            } else {
                let right: BRRight = r.resolve()
                #expect(right.left.right === right)
                #expect((r.resolve() as BRLeft) === right.left)
            }
        }
    }

    @Test func resolversParentAndChildPatternWithGraph() {
        let r = Resolver()
        r.register(lifetime: .graph) { BRParent(child: $0.resolve()) }
        r.register(lifetime: .graph) { BRChild() }
            .initCompleted { resolver, child in child.parent = resolver.resolve() }
        let parent: BRParent = r.resolve()
        #expect(parent.child.parent === parent)
        let other: BRParent = r.resolve()
        #expect(other !== parent)
        #expect(other.child.parent === other)
    }

    @Test func theArgumentFreeFormRunsToo() {
        let r = Resolver()
        let completed = FxCounter()
        r.register { BRSlow() }.initCompleted { slow in
            slow.ready = true
            completed.increment()
        }
        let slow: BRSlow = r.resolve()
        #expect(slow.ready)
        #expect(completed.value == 1)
        let again: BRSlow = r.resolve()
        #expect(again.ready)
        #expect(completed.value == 2)
    }

    @Test func stepsRunInTheOrderTheyWereAdded() {
        let r = Resolver()
        let order = FxRecorder<Int>()
        r.register { BRSlow() }
            .initCompleted { _ in order.append(1) }
            .initCompleted { _, _ in order.append(2) }
        _ = r.resolve(BRSlow.self)
        #expect(order.values == [1, 2])
    }

    @Test func aCycleThroughInitializersIsStillReported() {
        let r = Resolver()
        r.register { try BRCycleA(b: $0.tryResolve()) }
        r.register { try BRCycleB(a: $0.tryResolve()) }
        #expect(throws: ResolutionError.self) { try r.tryResolve(BRCycleA.self) }
    }

    @Test func otherThreadsNeverSeeASingletonBeforeItsStepRan() {
        for _ in 0..<20 {
            let r = Resolver()
            let built = FxCounter()
            r.register(lifetime: .singleton) { () -> BRSlow in
                built.increment()
                return BRSlow()
            }
            .initCompleted { slow in
                Thread.sleep(forTimeInterval: 0.001)
                slow.ready = true
            }
            let sawUnready = FxFlag()
            #expect(fxRunThreads(8) { _ in if !(r.resolve() as BRSlow).ready { sawUnready.value = true } })
            #expect(!sawUnready.value)
            #expect(built.value == 1)
        }
    }

    @Test func aFailingStepFailsTheResolutionAndPublishesNothing() {
        let r = Resolver()
        let attempts = FxCounter()
        r.register(lifetime: .singleton) { BRSlow() }
            .initCompleted { _ in
                if attempts.increment() == 1 { throw BRStepFailed() }
            }
        let error = #expect(throws: ResolutionError.self) { try r.tryResolve(BRSlow.self) }
        #expect(error?.underlyingError is BRStepFailed)
        let second: BRSlow = r.resolve()
        #expect(attempts.value == 2)
        #expect((r.resolve() as BRSlow) === second)
    }

    @Test func theDependencyGraphSeesWhatAStepResolves() {
        let r = Resolver()
        r.register(lifetime: .singleton) { BRLeft() }
            .initCompleted { resolver, left in left.right = resolver.resolve() }
        r.register(lifetime: .singleton) { BRRight(left: $0.resolve()) }
        _ = r.resolve(BRLeft.self)
        let graph = r.dependencyGraph()
        let ids = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.title, $0.id) })
        #expect(graph.edges.contains { $0.from == ids["BRLeft"] && $0.to == ids["BRRight"] })
        #expect(graph.edges.contains { $0.from == ids["BRRight"] && $0.to == ids["BRLeft"] })
    }

    // MARK: Weak holders of class-bound protocols

    @Test func weakInjectHoldsAClassBoundProtocol() {
        let r = Resolver()
        r.register(BRCoordinator.self, lifetime: .singleton) { BRAppCoordinator() }
        let screen = Resolver.withContainer(r) { BRScreen() }
        #expect(screen.coordinator === (r.resolve() as BRCoordinator))
    }

    @Test func weakInjectOfAProtocolLetsGo() {
        let r = Resolver()
        r.register(BRCoordinator.self) { BRAppCoordinator() }
        let screen = Resolver.withContainer(r) { BRScreen() }
        #expect(screen.coordinator == nil)
        let coordinator = BRAppCoordinator()
        screen.coordinator = coordinator
        #expect(screen.coordinator === coordinator)
    }

    @Test func aValueReachingAWeakHolderStopsWithSyringesMessage() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct Plain {}
            final class Holder { @WeakInject var plain: Plain? }
            let r = Resolver()
            r.register { Plain() }
            _ = Resolver.withContainer(r) { Holder() }
        }
    }

    @Test func aClassBoundProtocolCanBeRegisteredInAScope() {
        enum Flow: Scope {}
        let r = Resolver()
        r.register(BRCoordinator.self, scopedTo: Flow.self) { BRAppCoordinator() }
        let first: BRCoordinator = r.resolve(scopedTo: Flow.self)
        #expect((r.resolve(scopedTo: Flow.self) as BRCoordinator) === first)
        let handle = r.beginScope(Flow.self)
        let serial = first.serial
        _ = consume first
        #expect((r.resolve(scopedTo: Flow.self) as BRCoordinator).serial == serial)  // the open scope keeps it
        handle.end()
        #expect((r.resolve(scopedTo: Flow.self) as BRCoordinator).serial != serial)
    }

    @Test func aValueInAScopeIsBuiltAnewEachTime() {
        enum Flow: Scope {}
        struct Plain { let serial = FxSerial.next() }
        let r = Resolver()
        r.register(scopedTo: Flow.self) { Plain() }
        #expect((r.resolve(scopedTo: Flow.self) as Plain).serial != (r.resolve(scopedTo: Flow.self) as Plain).serial)
    }
}
