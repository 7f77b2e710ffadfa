import Foundation
import Syringe
import SyringeTesting
import Testing

private protocol MxService: AnyObject, Sendable {}
private final class MxMarked: MxService, Singleton {
    let serial = FxSerial.next()
}
private final class MxPlain: MxService {
    let serial = FxSerial.next()
}
private final class MxClock: Singleton {}
private final class MxBox<T>: @unchecked Sendable { let serial = FxSerial.next() }
extension MxBox: Singleton where T == Int {}
private class MxBase: @unchecked Sendable { let serial = FxSerial.next() }
private final class MxSub: MxBase, Singleton, @unchecked Sendable {}

private enum MxSession: Scope {}

private func mxWait(_ s: DispatchSemaphore, _ seconds: Double = 20) -> Bool {
    s.wait(timeout: .now() + seconds) == .success
}

/// Registers a protocol whose instances are Singletons in `resolver`, its factory's first call
/// blocked until `release` is signaled (`started` once it runs); `calls` counts the calls.
private func mxRegisterBlockingFirstBuild(
    in resolver: Resolver
) -> (started: DispatchSemaphore, release: DispatchSemaphore, calls: FxCounter) {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let calls = FxCounter()
    resolver.register((any MxService).self) { () -> any MxService in
        if calls.increment() == 1 {
            started.signal()
            release.wait()
        }
        return MxMarked()
    }
    return (started, release, calls)
}

/// The `Singleton` marker of a registration whose type does not tell (a protocol, a class), read
/// off its first instance, across drops: before a drop, after one, inside a factory, in test
/// containers; and what a thread remembers of the types it registers.
@Suite struct MarkerAcrossDropsTests {
    /// A test container's first instance decides for it alone ("it never decides for its parent or
    /// another test container, nor they for it"); the parent's drop does not drop the test
    /// container's copies. A parent drop while the test container builds its first (marked)
    /// instance should not make that container hand out two instances of a Singleton.
    @Test func parentDropWhileATestContainerBuildsItsFirstMarkedInstance() {
        let parent = Resolver()
        let (started, release, calls) = mxRegisterBlockingFirstBuild(in: parent)
        let tc = Resolver(isolatedChildOf: parent)
        let first = FxRecorder<any MxService>()
        let done = DispatchSemaphore(value: 0)
        fxStartThread(done) { first.append(tc.resolve((any MxService).self)) }
        #expect(mxWait(started))
        parent.dropCached([(any MxService).self])  // the parent's cache, not the test container's
        release.signal()
        #expect(mxWait(done))
        let again = tc.resolve((any MxService).self)
        let third = tc.resolve((any MxService).self)
        #expect(again === third)
        #expect(first.values.first.map { $0 === again } == true, "the test container's first Singleton was not kept")
        #expect(calls.value == 1)
    }

    /// The same, async.
    @Test func parentDropWhileATestContainerBuildsItsFirstMarkedInstanceAsync() async {
        let parent = Resolver()
        let started = AfGate()
        let release = AfGate()
        let calls = FxCounter()
        parent.register((any MxService).self) { () async -> any MxService in
            if calls.increment() == 1 {
                started.open()
                await release.wait()
            }
            return MxMarked()
        }
        let tc = Resolver(isolatedChildOf: parent)
        let firstTask = Task { await tc.resolveAsync((any MxService).self) }
        await started.wait()
        parent.dropCached([(any MxService).self])
        release.open()
        let first = await firstTask.value
        let again = await tc.resolveAsync((any MxService).self)
        #expect(first === again, "the test container's first Singleton was not kept")
        #expect(calls.value == 1)
    }

    /// A Singleton type, registered first without a lifetime (the thread remembers it as marked),
    /// then with `.transient`, still stops the program.
    @Test func aRememberedSingletonTypeWithTransientLifetimeStillStops() async {
        await #expect(processExitsWith: .failure) {
            let a = Resolver()
            a.register { MxClock() }
            let b = Resolver()
            b.register(lifetime: .transient) { MxClock() }
        }
    }

    /// LifetimesAndScopes: a factory of a protocol registration that drops the container's caches
    /// (a reset, say) during its first build: a drop like another, so the build decides nothing and
    /// the next resolution builds again; once the factory stops dropping, its instance decides.
    @Test func aFirstBuildWhoseFactoryDropsTheCachesDecidesNothing() {
        let r = Resolver()
        let calls = FxCounter()
        r.register((any MxService).self) { (r: Resolver) -> any MxService in
            if calls.increment() <= 2 { r.dropAllCached() }
            return MxMarked()
        }
        let a = r.resolve((any MxService).self)
        let b = r.resolve((any MxService).self)
        let c = r.resolve((any MxService).self)
        #expect(a !== b && b !== c)
        #expect(r.resolve((any MxService).self) === c)
        #expect(calls.value == 3)
    }

    /// Threads resolving a protocol registration (its instances Singletons) while another drops it
    /// again and again: once the drops stop, every resolution gets one instance; no hang.
    @Test func resolutionsRacingDropsOfAProtocolRegistration() {
        for _ in 0..<20 {
            let r = Resolver()
            r.register((any MxService).self) { () -> any MxService in
                usleep(UInt32.random(in: 0..<200))
                return MxMarked()
            }
            let stop = FxCounter()
            let done = DispatchSemaphore(value: 0)
            for _ in 0..<3 {
                fxStartThread(done) {
                    while stop.value == 0 { _ = r.resolve((any MxService).self) }
                }
            }
            fxStartThread(done) {
                for _ in 0..<200 {
                    r.dropAllCached()
                    usleep(UInt32.random(in: 0..<100))
                }
                stop.increment()
            }
            var finished = true
            for _ in 0..<4 where !mxWait(done, 30) { finished = false }
            #expect(finished, "hang")
            if !finished { return }
            let a = r.resolve((any MxService).self)
            let b = r.resolve((any MxService).self)
            #expect(a === b)
        }
    }

    /// After a drop (no build under way: `dropAllCached()` at start-up or between tests), the first
    /// resolutions of a protocol registration whose instances are Singletons race: one builds, the
    /// others wait for it. The waiters should get its instance, the factory run once.
    @Test func threadsWaitingForTheFirstMarkedBuildAfterAnEarlierDrop() {
        let r = Resolver()
        let (started, release, calls) = mxRegisterBlockingFirstBuild(in: r)
        r.dropAllCached()  // nothing built yet, nothing under way
        let got = FxRecorder<ObjectIdentifier>()
        let keep = FxRecorder<any MxService>()
        let done = DispatchSemaphore(value: 0)
        for i in 0..<4 {
            fxStartThread(done) {
                let s = r.resolve((any MxService).self)
                keep.append(s)
                got.append(ObjectIdentifier(s))
            }
            if i == 0 { #expect(mxWait(started)) }
        }
        usleep(300_000)  // the three others reach the claim
        release.signal()
        for _ in 0..<4 { #expect(mxWait(done)) }
        let later = r.resolve((any MxService).self)
        #expect(calls.value == 1, "the factory of a Singleton ran \(calls.value) times")
        #expect(Set(got.values).count == 1, "concurrent first resolutions got \(Set(got.values).count) instances")
        #expect(got.values.allSatisfy { $0 == ObjectIdentifier(later) })
    }

    /// The same, async tasks.
    @Test func tasksWaitingForTheFirstMarkedBuildAfterAnEarlierDrop() async {
        let r = Resolver()
        let started = AfGate()
        let release = AfGate()
        let calls = FxCounter()
        r.register((any MxService).self) { () async -> any MxService in
            if calls.increment() == 1 {
                started.open()
                await release.wait()
            }
            return MxMarked()
        }
        r.dropAllCached()
        let first = Task { await r.resolveAsync((any MxService).self) }
        await started.wait()
        let others = (0..<3).map { _ in Task { await r.resolveAsync((any MxService).self) } }
        try? await Task.sleep(for: .milliseconds(300))
        release.open()
        let a = await first.value
        for t in others { #expect(await t.value === a) }
        #expect(calls.value == 1)
    }

    /// Tasks (hopping threads) registering conditional conformances and a class whose subclass is a
    /// Singleton, container after container, interleaved: each keeps its own lifetime.
    @Test func tasksRegisteringConditionalConformancesKeepTheirLifetimes() async {
        let bad = FxCounter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for round in 0..<300 {
                        let r = Resolver()
                        if round % 2 == 0 {
                            r.register { MxBox<Int>() }
                            r.register { MxBox<String>() }
                        } else {
                            r.register { MxBox<String>() }
                            r.register { MxBox<Int>() }
                        }
                        r.register(MxBase.self) { MxSub() }
                        r.register(MxBox<Double>.self, lifetime: .singleton) { MxBox<Double>() }
                        await Task.yield()
                        if r.resolve(MxBox<Int>.self) !== r.resolve(MxBox<Int>.self) { bad.increment() }
                        if r.resolve(MxBox<String>.self) === r.resolve(MxBox<String>.self) { bad.increment() }
                        if r.resolve(MxBase.self) !== r.resolve(MxBase.self) { bad.increment() }
                        if r.resolve(MxBox<Double>.self) !== r.resolve(MxBox<Double>.self) { bad.increment() }
                    }
                }
            }
        }
        #expect(bad.value == 0)
    }

    /// A conditionally conforming Singleton given `.transient` still stops the program, after the
    /// thread remembered the type.
    @Test func aRememberedConditionalSingletonWithTransientLifetimeStillStops() async {
        await #expect(processExitsWith: .failure) {
            let a = Resolver()
            a.register { MxBox<Int>() }
            a.register { MxBox<String>() }
            let b = Resolver()
            b.register(lifetime: .transient) { MxBox<String>() }
            b.register(lifetime: .transient) { MxBox<Int>() }
        }
    }

    /// The same with `lifetime: .singleton` (or a container default of `.singleton`) on a protocol:
    /// after a drop, threads racing the first resolution each get an instance of their own.
    @Test(arguments: [false, true])
    func threadsRacingAProtocolSingletonsFirstBuildAfterAnEarlierDrop(byDefault: Bool) {
        let r = Resolver()
        if byDefault { r.defaultLifetime = .singleton }
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        let factory = { () -> any MxService in
            if calls.increment() == 1 {
                started.signal()
                release.wait()
            }
            return MxMarked()
        }
        if byDefault {
            r.register((any MxService).self, factory: factory)
        } else {
            r.register((any MxService).self, lifetime: .singleton, factory: factory)
        }
        r.dropAllCached()
        let got = FxRecorder<ObjectIdentifier>()
        let keep = FxRecorder<any MxService>()
        let done = DispatchSemaphore(value: 0)
        for i in 0..<4 {
            fxStartThread(done) {
                let s = r.resolve((any MxService).self)
                keep.append(s)
                got.append(ObjectIdentifier(s))
            }
            if i == 0 { #expect(mxWait(started)) }
        }
        usleep(300_000)
        release.signal()
        for _ in 0..<4 { #expect(mxWait(done)) }
        #expect(calls.value == 1, "the factory of a .singleton ran \(calls.value) times")
        #expect(Set(got.values).count == 1, "a .singleton handed out \(Set(got.values).count) instances")
    }

    /// The same, async tasks, `lifetime: .singleton`.
    @Test func tasksRacingAProtocolSingletonsFirstBuildAfterAnEarlierDrop() async {
        let r = Resolver()
        let started = AfGate()
        let release = AfGate()
        let calls = FxCounter()
        r.register((any MxService).self, lifetime: .singleton) { () async -> any MxService in
            if calls.increment() == 1 {
                started.open()
                await release.wait()
            }
            return MxMarked()
        }
        r.dropAllCached()
        let first = Task { await r.resolveAsync((any MxService).self) }
        await started.wait()
        let others = (0..<3).map { _ in Task { await r.resolveAsync((any MxService).self) } }
        try? await Task.sleep(for: .milliseconds(300))
        release.open()
        let a = await first.value
        for t in others { #expect(await t.value === a) }
        #expect(calls.value == 1)
    }

    /// Other lifetimes that share instances, and `register(scopedTo:)` dropped by scope: after a
    /// drop, threads racing the first (marked) resolution should share one instance.
    @Test(arguments: ["weak", "cached", "ttl", "scoped"])
    func threadsRacingAProtocolsFirstMarkedBuildAfterAnEarlierDropOtherLifetimes(kind: String) {
        let r = Resolver()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        let factory = { () -> any MxService in
            if calls.increment() == 1 {
                started.signal()
                release.wait()
            }
            return MxMarked()
        }
        switch kind {
        case "weak": r.register((any MxService).self, lifetime: .weak, factory: factory)
        case "cached": r.register((any MxService).self, lifetime: .cached(in: MxSession.self), factory: factory)
        case "ttl": r.register((any MxService).self, lifetime: .timeToLive(.seconds(600)), factory: factory)
        default: r.register((any MxService).self, scopedTo: MxSession.self) { _ in factory() }
        }
        if kind == "scoped" { r.dropCached(scopedTo: MxSession.self) } else { r.dropAllCached() }
        let keep = FxRecorder<any MxService>()
        let got = FxRecorder<ObjectIdentifier>()
        let done = DispatchSemaphore(value: 0)
        for i in 0..<4 {
            fxStartThread(done) {
                let s =
                    kind == "scoped"
                    ? r.resolve((any MxService).self, scopedTo: MxSession.self) : r.resolve((any MxService).self)
                keep.append(s)
                got.append(ObjectIdentifier(s))
            }
            if i == 0 { #expect(mxWait(started)) }
        }
        usleep(300_000)
        release.signal()
        for _ in 0..<4 { #expect(mxWait(done)) }
        #expect(calls.value == 1, "\(kind): the factory ran \(calls.value) times")
        #expect(Set(got.values).count == 1, "\(kind): \(Set(got.values).count) instances")
    }

    /// LifetimesAndScopes: the threads that were waiting for a protocol's first (marked) build when
    /// the container dropped it build their own instances, one at a time; the first instance built
    /// after the drop decides.
    @Test func callersWaitingForAFirstBuildAcrossADropBuildTheirOwn() {
        let r = Resolver()
        let (started, release, calls) = mxRegisterBlockingFirstBuild(in: r)
        let got = FxRecorder<any MxService>()
        let done = DispatchSemaphore(value: 0)
        fxStartThread(done) { got.append(r.resolve((any MxService).self)) }
        #expect(mxWait(started))
        for _ in 0..<3 { fxStartThread(done) { got.append(r.resolve((any MxService).self)) } }
        usleep(300_000)  // the three reach the first build's claim (setup)
        r.dropCached([(any MxService).self])
        release.signal()
        for _ in 0..<4 { #expect(mxWait(done)) }
        #expect(calls.value == 4)
        #expect(Set(got.values.map(ObjectIdentifier.init)).count == 4)
        let decided = r.resolve((any MxService).self)
        #expect(r.resolve((any MxService).self) === decided)
        #expect(!got.values.contains { $0 === decided })
    }

    /// LifetimesAndScopes: a test container's drop while its own first instance is being built
    /// does not reach it: its later resolutions wait for that instance, which decides for it.
    @Test func aTestContainersDropWhileItsFirstInstanceIsBuiltWaitsForIt() {
        let parent = Resolver()
        let (started, release, calls) = mxRegisterBlockingFirstBuild(in: parent)
        let test = Resolver(isolatedChildOf: parent)
        let first = FxRecorder<any MxService>()
        let done = DispatchSemaphore(value: 0)
        fxStartThread(done) { first.append(test.resolve((any MxService).self)) }
        #expect(mxWait(started))
        test.dropAllCached()
        let afterDone = DispatchSemaphore(value: 0)
        let after = FxRecorder<any MxService>()
        fxStartThread(afterDone) { after.append(test.resolve((any MxService).self)) }
        #expect(!mxWait(afterDone, 0.5), "the resolution after the drop did not wait")
        release.signal()
        #expect(mxWait(done))
        #expect(mxWait(afterDone))
        #expect(after.values.first.map { $0 === first.values.first } == true)
        #expect(test.resolve((any MxService).self) === first.values.first)
        #expect(calls.value == 1)
    }
}
