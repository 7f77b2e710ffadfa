import Foundation
import Testing

@testable import Syringe

/// A struct, whose instances can only be itself: not a ``Singleton`` unless it says so.
struct RseStamp {}
/// A class that is not a Singleton, but whose subclasses could be.
class RseBase {}

/// What a server's container per request leans on: the first resolution of a registration whose
/// type tells it is no ``Singleton`` is an ordinary build (not one claimed across threads), and
/// bindings made and ended by many tasks leave the count, and the flag that spares resolutions the
/// task-local read, right.
@Suite struct RequestScopeEngineTests {
    /// Two threads resolve a struct's registration for the first time at once, and the first
    /// factory waits until the second has run. Were the first build claimed (to read the marker
    /// off the instance), the second resolution would wait for the first: a deadlock, which the
    /// watchdog ends.
    @Test func aStructsFirstResolutionsDoNotWaitForEachOther() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 20)
            let r = Resolver()
            let entered = FxCounter()
            let firstInside = DispatchSemaphore(value: 0)
            let secondRan = DispatchSemaphore(value: 0)
            r.register { () -> RseStamp in
                if entered.increment() == 1 {
                    firstInside.signal()
                    secondRan.wait()
                } else {
                    secondRan.signal()
                }
                return RseStamp()
            }
            let first = Thread { _ = r.resolve(RseStamp.self) }
            first.start()
            firstInside.wait()
            _ = r.resolve(RseStamp.self)
            invRequire(entered.value == 2, "both resolutions ran the factory")
        }
    }

    /// A class's first build still decides the marker: instances may be of a subclass.
    @Test func aClassesFirstBuildStillReadsTheMarkerOffTheInstance() {
        final class Marked: RseBase, Singleton {}
        let r = Resolver()
        r.register { Marked() as RseBase }
        #expect(r.resolve(RseBase.self) === r.resolve(RseBase.self))
    }

    /// In a process of its own (parallel tests keep bindings alive): 200 tasks bind a container at
    /// once; while one is bound the flag is up, a task started inside keeps it up after its body
    /// returned, and when all are gone, the count is 0 and the flag down.
    @Test func bindingsThatComeAndGoLeaveNoneCounted() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 60)
            func counted() -> (Int, Bool) {
                Globals.bindingCountLock.withLock {
                    (Globals.bindingCount, registryLock.withReadLock(0) { Globals.hasBindings })
                }
            }
            let r = Resolver()
            invRequire(counted() == (0, false), "no binding at the start")
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        await Resolver.withContainer(r) {
                            invRequire(counted().1, "the flag is up while a binding is alive")
                            await Task.yield()
                        }
                    }
                }
            }
            invRequire(counted() == (0, false), "all 200 bindings ended")

            let release = DispatchSemaphore(value: 0)
            let started: Task<Void, Never> = Resolver.withContainer(r) {
                Task { release.wait() }
            }
            invRequire(counted() == (1, true), "a task started inside keeps its binding")
            release.signal()
            await started.value
            for _ in 0..<1_000 where counted().0 != 0 { await Task.yield() }
            invRequire(counted() == (0, false), "the task's end ends its binding")
        }
    }
}
