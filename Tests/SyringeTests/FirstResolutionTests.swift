import Foundation
import Syringe
import Testing

// The first resolution of a registration behaves like every later one, on one thread or many:
// nothing is built on the side to find out whether a type is a `Singleton`.

protocol FrParentProtocol: AnyObject {}
protocol FrChildProtocol: AnyObject {}

final class FrParent: FrParentProtocol {
    var child: FrChildProtocol?
}

final class FrChild: FrChildProtocol {
    weak var parent: FrParentProtocol?
}

/// A transient whose `initCompleted` step resolves its own type.
final class FrNode {
    var next: FrNode?
}

/// Counts its instances.
final class FrCounted {
    static let built = FxCounter()
    init() { Self.built.increment() }
}

/// Registers Swinject's circular pair: a parent and a child joined through `initCompleted`.
private func frRegisterCircularPair(in r: Resolver, lifetime: Lifetime) {
    r.register(FrParentProtocol.self, lifetime: lifetime) { FrParent() }
        .initCompleted { r, parent in (parent as! FrParent).child = r.resolve(FrChildProtocol.self) }
    r.register(FrChildProtocol.self, lifetime: lifetime) { FrChild() }
        .initCompleted { r, child in (child as! FrChild).parent = r.resolve(FrParentProtocol.self) }
}

@Suite struct FirstResolutionTests {
    /// LifetimesAndScopes: a `final` class registered as itself does not tell whether its
    /// instances are `Singleton`s (the runtime cannot tell a final class), so the first instances
    /// asked for at the same moment are built one after another; later ones side by side.
    @Test func theFirstInstancesOfAFinalClassTransientAreBuiltOneAfterAnother() {
        final class Worker: Sendable {}
        let r = Resolver()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blocking = FxFlag()
        blocking.value = true
        r.register { () -> Worker in
            if blocking.value {
                blocking.value = false
                started.signal()
                release.wait()
            }
            return Worker()
        }
        let first = DispatchSemaphore(value: 0)
        fxStartThread(first) { _ = r.resolve(Worker.self) }
        started.wait()
        let second = DispatchSemaphore(value: 0)
        fxStartThread(second) { _ = r.resolve(Worker.self) }
        // The second waits for the first (it would return at once otherwise).
        #expect(second.wait(timeout: .now() + 0.3) == .timedOut)
        release.signal()
        first.wait()
        second.wait()
        // Decided: a later build does not wait for another (a hang guard, not a timing claim).
        blocking.value = true
        let third = DispatchSemaphore(value: 0)
        fxStartThread(third) { _ = r.resolve(Worker.self) }
        started.wait()
        let fourth = DispatchSemaphore(value: 0)
        fxStartThread(fourth) { _ = r.resolve(Worker.self) }
        #expect(fourth.wait(timeout: .now() + 20) == .success)
        release.signal()
        third.wait()
    }

    /// Swinject 2.10's `testSynchronizedResolverCanResolveCircularDependencies`, ported: a fresh
    /// container resolved from 4 threads at once, many times over, never reports a false cycle,
    /// and each thread's graph is joined up.
    ///
    /// Each thread's parent is held until all four are done. A `.weak` parent released by one
    /// thread while another starts would make a legitimate new graph: while the old parent's
    /// deinitializer runs, its child is still alive (and still shared), but the child's weak
    /// reference to it already reads nil.
    @Test(arguments: [Lifetime.graph, .weak])
    func aCircularPairResolvesFromFourThreadsAtOnceOnAFreshContainer(lifetime: Lifetime) {
        let failures = FxRecorder<String>()
        for _ in 0..<40 {
            let r = Resolver()
            frRegisterCircularPair(in: r, lifetime: lifetime)
            let parents = FxRecorder<FrParent>()
            let finished = fxRunThreads(4) { _ in
                do {
                    let parent = try r.tryResolve(FrParentProtocol.self) as! FrParent
                    parents.append(parent)
                    let child = parent.child as! FrChild
                    if child.parent !== parent { failures.append("the child's parent is another parent") }
                } catch {
                    failures.append("\(error)")
                }
            }
            #expect(finished)
            let distinct = Set(parents.values.map(ObjectIdentifier.init)).count
            #expect(distinct == (lifetime == .weak ? 1 : 4), "a .weak parent is shared; a .graph one is not")
        }
        #expect(failures.values.isEmpty, "\(failures.values.first ?? "")")
    }

    /// The same pair resolved from one thread: the reference result the threads must match.
    @Test(arguments: [Lifetime.graph, .weak])
    func aCircularPairResolvesFromOneThread(lifetime: Lifetime) throws {
        let r = Resolver()
        frRegisterCircularPair(in: r, lifetime: lifetime)
        let parent = try r.tryResolve(FrParentProtocol.self) as! FrParent
        #expect((parent.child as! FrChild).parent === parent)
    }

    /// A transient whose step resolves its own type is a cycle on its first resolution as on every
    /// later one: the step's resolution fails the same way each time, and on every thread.
    @Test func aTransientWhoseStepResolvesItselfFailsAlikeEveryTime() {
        let outcomes = FxRecorder<String>()
        let r = Resolver()
        r.register { FrNode() }
            .initCompleted { (r: Resolver, node: FrNode) in
                do {
                    node.next = try r.tryResolve()
                    outcomes.append(node.next === node ? "itself" : "another node")
                } catch {
                    outcomes.append((error as? ResolutionError)?.reason.isCycle == true ? "cycle" : "\(error)")
                }
            }
        for _ in 0..<3 {
            let node: FrNode = r.resolve()
            #expect(node.next == nil)
        }
        fxRunThreads(4) { _ in
            let node: FrNode = r.resolve()
            precondition(node.next == nil)
        }
        #expect(outcomes.values == Array(repeating: "cycle", count: 7))
    }

    /// With a plain `resolve()` in the step, the program stops with the cycle on the first
    /// resolution, as it would on any later one.
    @Test func aTransientWhoseStepResolvesItselfStopsOnTheFirstResolution() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { FrNode() }.initCompleted { r, node in node.next = r.resolve() }
            let _: FrNode = r.resolve()
        }
        #expect(fxStderr(result).contains("Syringe: dependency cycle while resolving FrNode"), "\(fxStderr(result))")
    }

    /// A transient's first instance is built once per resolution, like every later one: nothing is
    /// built on the side to look for the `Singleton` marker.
    @Test func aTransientsFirstResolutionBuildsOneInstance() {
        let r = Resolver()
        r.register { FrCounted() }
        let before = FrCounted.built.value
        let first: FrCounted = r.resolve()
        #expect(FrCounted.built.value == before + 1)
        let second: FrCounted = r.resolve()
        #expect(FrCounted.built.value == before + 2)
        #expect(first !== second)
    }
}

extension ResolutionError.Reason {
    fileprivate var isCycle: Bool {
        if case .cycle = self { true } else { false }
    }
}
