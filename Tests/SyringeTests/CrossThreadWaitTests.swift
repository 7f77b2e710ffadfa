import Foundation
import Testing

@testable import Syringe

// A thread that waits for another thread's build of a singleton or `@LazyInject` value: a
// loop of such waits is a cycle, reported at once; a wait for a build that blocks on something
// Syringe does not see is reported on standard error after a delay, and goes on. Scenarios that
// would hang or stop run in their own process (exit tests), with a watchdog as a hang guard.

final class WtLeftValue {}
final class WtRightValue {}
final class WtLeftHolder: @unchecked Sendable {
    @LazyInject var value: WtLeftValue
}
final class WtRightHolder: @unchecked Sendable {
    @LazyInject var value: WtRightValue
}
final class WtBlocked {}
final class WtSlow {
    let serial = FxSerial.next()
}
final class WtLazyPart {
    let serial = FxSerial.next()
}
final class WtLazyHolder: @unchecked Sendable {
    @LazyInject var part: WtLazyPart
}
final class WtSingletonNeedingLazy {}

/// Registers the two lazy values of `holders` so that building either reads the other's
/// property, after both threads have started: two lazy properties that need each other.
func wtRegisterLazyLoop(_ r: Resolver, _ holders: (WtLeftHolder, WtRightHolder)) {
    let leftStarted = DispatchSemaphore(value: 0)
    let rightStarted = DispatchSemaphore(value: 0)
    r.register { () -> WtLeftValue in
        leftStarted.signal()
        _ = rightStarted.wait(timeout: .now() + 5)
        _ = holders.1.value
        return WtLeftValue()
    }
    r.register { () -> WtRightValue in
        rightStarted.signal()
        _ = leftStarted.wait(timeout: .now() + 5)
        _ = holders.0.value
        return WtRightValue()
    }
}

/// Registers `WtBlocked` as a singleton whose factory starts a thread that resolves `WtBlocked`
/// too, and waits for that thread: a cycle through a wait Syringe cannot see, which never ends.
func wtRegisterBlockedSingleton(_ r: Resolver) {
    r.register(lifetime: .singleton) { resolver -> WtBlocked in
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = resolver.resolve(WtBlocked.self)
            done.signal()
        }
        thread.start()
        done.wait()
        return WtBlocked()
    }
}

/// Runs `body` on a new thread, without waiting for it.
func wtDetach(_ body: @escaping @Sendable () -> Void) {
    Thread { body() }.start()
}

/// How many times `text` contains `part`.
func wtOccurrences(of part: String, in text: String) -> Int {
    text.components(separatedBy: part).count - 1
}

final class WtLeftSingleton {}
final class WtRightSingleton {}
final class WtMiddle {}

@Suite struct CrossThreadWaitTests {
    /// Two singletons whose factories need each other (one through a transient), built first by two
    /// threads at once: the thread that would close the loop of waits gets the cycle, the closed
    /// loop of the builds on both threads and what such a loop means.
    @Test func singletonsNeedingEachOtherFromTwoThreadsReportTheClosedLoop() {
        let r = Resolver(id: "wait-singleton-loop")
        let leftStarted = DispatchSemaphore(value: 0)
        let rightStarted = DispatchSemaphore(value: 0)
        let leftBuilds = FxCounter()
        let rightBuilds = FxCounter()
        r.register(lifetime: .singleton) { (resolver: Resolver) throws -> WtLeftSingleton in
            leftStarted.signal()
            if leftBuilds.increment() == 1 { _ = rightStarted.wait(timeout: .now() + 30) }
            _ = try resolver.tryResolve(WtRightSingleton.self)
            return WtLeftSingleton()
        }
        r.register(lifetime: .singleton) { (resolver: Resolver) throws -> WtRightSingleton in
            rightStarted.signal()
            if rightBuilds.increment() == 1 { _ = leftStarted.wait(timeout: .now() + 30) }
            _ = try resolver.tryResolve(WtMiddle.self)
            return WtRightSingleton()
        }
        r.register { (resolver: Resolver) throws -> WtMiddle in
            _ = try resolver.tryResolve(WtLeftSingleton.self)
            return WtMiddle()
        }
        let messages = FxRecorder<String>()
        let finished = fxRunThreads(2) { index in
            do {
                if index == 0 {
                    _ = try r.tryResolve(WtLeftSingleton.self)
                } else {
                    _ = try r.tryResolve(WtRightSingleton.self)
                }
            } catch {
                messages.append("\(error)")
            }
        }
        #expect(finished)
        let text = messages.values.joined(separator: "\n")
        #expect(
            text.contains("  cycle: WtLeftSingleton → WtRightSingleton → WtMiddle → WtLeftSingleton")
                || text.contains("  cycle: WtRightSingleton → WtMiddle → WtLeftSingleton → WtRightSingleton"),
            "\(text)")
        #expect(text.contains("  " + Messages.cycleAcrossThreads), "\(text)")
        // The loop's own fixes replace the one-thread advice (which the other thread's own cycle,
        // when it then builds both, gets).
        let acrossThreads = messages.values.filter { $0.contains(Messages.cycleAcrossThreads) }
        #expect(acrossThreads.count == 1 && !acrossThreads[0].contains(Messages.cycleFix), "\(text)")
    }
    @Test func lazyPropertiesReadingEachOtherFromTwoThreadsStopWithACycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "wait-lazy-loop")
            let holders = Resolver.withContainer(r) { (WtLeftHolder(), WtRightHolder()) }
            wtRegisterLazyLoop(r, holders)
            let done = DispatchSemaphore(value: 0)
            wtDetach {
                _ = holders.0.value
                done.signal()
            }
            wtDetach {
                _ = holders.1.value
                done.signal()
            }
            done.wait()
            done.wait()
        }
        let text = fxStderr(result)
        #expect(
            text.contains(
                "was read while the thread resolving its value waits for this one; their dependencies form a cycle "
                    + "through it"), "\(text)")
        #expect(!text.contains("watchdog"), "\(text)")
    }

    @Test func singletonAndLazyPropertyNeedingEachOtherFromTwoThreadsStopWithACycle() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "wait-mixed-loop")
            let holder = Resolver.withContainer(r) { WtLazyHolder() }
            let singletonStarted = DispatchSemaphore(value: 0)
            let lazyStarted = DispatchSemaphore(value: 0)
            // The singleton's factory reads the lazy property; the lazy value's factory resolves
            // the singleton. Each thread starts one of them.
            r.register(lifetime: .singleton) { () -> WtSingletonNeedingLazy in
                singletonStarted.signal()
                _ = lazyStarted.wait(timeout: .now() + 5)
                _ = holder.part
                return WtSingletonNeedingLazy()
            }
            r.register { resolver -> WtLazyPart in
                lazyStarted.signal()
                _ = singletonStarted.wait(timeout: .now() + 5)
                _ = resolver.resolve(WtSingletonNeedingLazy.self)
                return WtLazyPart()
            }
            let done = DispatchSemaphore(value: 0)
            wtDetach {
                _ = r.resolve(WtSingletonNeedingLazy.self)
                done.signal()
            }
            wtDetach {
                _ = holder.part
                done.signal()
            }
            done.wait()
            done.wait()
        }
        let text = fxStderr(result)
        #expect(text.contains("cycle"), "\(text)")
        #expect(!text.contains("watchdog"), "\(text)")
    }

    @Test func factoryBlockedOnAThreadResolvingItsOwnSingletonIsReportedOnStandardError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            WaitWatchdog.reportDelay = 0.2
            let r = Resolver(id: "wait-blocked")
            wtRegisterBlockedSingleton(r)
            wtDetach { _ = r.resolve(WtBlocked.self) }
            usleep(1_000_000)
            exit(0)
        }
        let text = fxStderr(result)
        #expect(
            wtOccurrences(
                of: "Syringe: a thread has waited 0.2 s for WtBlocked, which another thread is building\n", in: text)
                == 1, "\(text)")
        #expect(text.contains("a factory waiting on this thread would be a cycle"), "\(text)")
    }

    @Test func waitIsReportedTwiceAtMost() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            WaitWatchdog.reportDelay = 0.1
            let r = Resolver(id: "wait-blocked-long")
            wtRegisterBlockedSingleton(r)
            wtDetach { _ = r.resolve(WtBlocked.self) }
            // Reports after 0.1 s and 0.6 s, then none.
            usleep(2_000_000)
            exit(0)
        }
        let text = fxStderr(result)
        #expect(wtOccurrences(of: "Syringe: a thread has waited 0.1 s for WtBlocked", in: text) == 1, "\(text)")
        #expect(wtOccurrences(of: "Syringe: a thread has waited 0.6 s for WtBlocked", in: text) == 1, "\(text)")
        #expect(wtOccurrences(of: "Syringe: a thread has waited", in: text) == 2, "\(text)")
    }

    @Test func slowSingletonIsReportedAndStillBuiltOnce() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            WaitWatchdog.reportDelay = 0.2
            let r = Resolver(id: "wait-slow")
            let builds = FxCounter()
            let started = DispatchSemaphore(value: 0)
            r.register(lifetime: .singleton) { () -> WtSlow in
                builds.increment()
                started.signal()
                Thread.sleep(forTimeInterval: 0.8)
                return WtSlow()
            }
            let serials = FxRecorder<Int>()
            let done = DispatchSemaphore(value: 0)
            wtDetach {
                serials.append(r.resolve(WtSlow.self).serial)
                done.signal()
            }
            started.wait()
            wtDetach {
                serials.append(r.resolve(WtSlow.self).serial)
                done.signal()
            }
            done.wait()
            done.wait()
            guard builds.value == 1, Set(serials.values).count == 1 else {
                FileHandle.standardError.write(Data("built \(builds.value) times: \(serials.values)\n".utf8))
                exit(1)
            }
        }
        let text = fxStderr(result)
        #expect(wtOccurrences(of: "Syringe: a thread has waited 0.2 s for WtSlow", in: text) == 1, "\(text)")
        #expect(wtOccurrences(of: "Syringe: a thread has waited", in: text) == 1, "\(text)")
    }

    @Test func lazyPropertyReadFromManyThreadsAtOnceIsResolvedOnce() {
        let r = Resolver(id: "wait-lazy-once")
        let builds = FxCounter()
        r.register { () -> WtLazyPart in
            builds.increment()
            Thread.sleep(forTimeInterval: 0.05)
            return WtLazyPart()
        }
        let holder = Resolver.withContainer(r) { WtLazyHolder() }
        let serials = FxRecorder<Int>()
        let finished = fxRunThreads(8) { _ in serials.append(holder.part.serial) }
        #expect(finished)
        #expect(builds.value == 1)
        #expect(serials.values.count == 8)
        #expect(Set(serials.values).count == 1)
    }

    @Test func timedWaitReturnsAtItsDeadline() {
        let lock = ConditionLock()
        let start = monotonicNanoseconds()
        let isWoken = lock.withLock { lock.wait(until: start + 100_000_000) }
        let elapsed = monotonicNanoseconds() - start
        #expect(!isWoken)
        #expect(elapsed >= 100_000_000)
    }
}
