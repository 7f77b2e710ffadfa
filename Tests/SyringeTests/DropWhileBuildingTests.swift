import Foundation
import Syringe
import SyringeTesting
import Testing

// Drops (dropCached, dropAllCached, dropCached(scopedTo:)) while builds are under way, from threads
// and tasks: the callers that asked before a drop share the build they waited for, and those after it
// build anew; nothing built across a drop stays kept, and test containers keep their copies.

private enum DRSession: Scope {}
private final class DRThing {
    let serial = FxSerial.next()
}
private final class DRShared: Sendable {
    let serial = FxSerial.next()
}
private struct DRValue {
    let thing: DRThing
}
private struct DRSendableValue: Sendable {
    let serial: Int
}
private final class DRToucher: @unchecked Sendable {
    let r: Resolver
    init(r: Resolver) { self.r = r }
    deinit { _ = r.optional(DRThing.self) }
}
private protocol DRService: AnyObject, Sendable {}
private final class DRMarked: DRService, Singleton {
    let serial = FxSerial.next()
}
private final class DRPlain: DRService {
    let serial = FxSerial.next()
}

private final class DRWeakBox: @unchecked Sendable {
    weak var object: DRThing?
}

/// Blocks the first build until released; a hang guard via timeouts.
private func drWait(_ s: DispatchSemaphore) -> Bool { s.wait(timeout: .now() + 20) == .success }

@Suite struct DropWhileBuildingTests {
    // MARK: 1. A thread waiting for a build begun before the drop

    /// LifetimesAndScopes: "A build under way when the cache is dropped hands its instance to the
    /// callers that asked before the drop". A thread that asked before the drop and waits for the
    /// build should get that build's instance; the factory should run once.
    @Test(arguments: [Lifetime.singleton, .cached(in: DRSession.self)])
    func aThreadWaitingBeforeTheDropGetsTheBuildsInstance(lifetime: Lifetime) {
        var failures = 0
        for _ in 0..<5 {
            let r = Resolver()
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let calls = FxCounter()
            r.register(lifetime: lifetime) { () -> DRThing in
                if calls.increment() == 1 {
                    started.signal()
                    release.wait()
                }
                return DRThing()
            }
            let got = FxRecorder<Int>()
            let done = DispatchSemaphore(value: 0)
            fxStartThread(done) { got.append(r.resolve(DRThing.self).serial) }
            #expect(drWait(started))
            for _ in 0..<3 { fxStartThread(done) { got.append(r.resolve(DRThing.self).serial) } }
            usleep(300_000)  // lets the three waiters reach the claim (setup, not an assertion)
            r.dropCached([DRThing.self])
            release.signal()
            for _ in 0..<4 { #expect(drWait(done)) }
            if calls.value != 1 || Set(got.values).count != 1 { failures += 1 }
        }
        #expect(failures == 0, "runs where pre-drop waiters built again")
    }

    // MARK: 2. The first store of the line keeps what a build across the first drop kept

    /// An instance built across a drop is its caller's alone: once the caller lets it go and the
    /// cache is dropped again, it should be released.
    @Test(arguments: [Lifetime.singleton, .cached(in: DRSession.self), .timeToLive(.seconds(3600))])
    func anInstanceBuiltAcrossTheFirstDropIsReleased(lifetime: Lifetime) {
        let r = Resolver()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        r.register(lifetime: lifetime) { () -> DRThing in
            if calls.increment() == 1 {
                started.signal()
                release.wait()
            }
            return DRThing()
        }
        let weak = DRWeakBox()
        let done = DispatchSemaphore(value: 0)
        fxStartThread(done) { weak.object = r.resolve(DRThing.self) }
        #expect(drWait(started))
        r.dropCached([DRThing.self])
        release.signal()
        #expect(drWait(done))
        for _ in 0..<3 {
            _ = r.resolve(DRThing.self)
            r.dropAllCached()
        }
        #expect(weak.object == nil, "the instance built across the first drop is still alive")
    }

    /// A value type (decided by its type, so no first-instance step) holding a class: its instance
    /// built across the first drop stays in the first store, which every successor keeps.
    @Test(arguments: [Lifetime.singleton, .cached(in: DRSession.self)])
    func aValueBuiltAcrossTheFirstDropIsReleased(lifetime: Lifetime) {
        let r = Resolver()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        r.register(lifetime: lifetime) { () -> DRValue in
            if calls.increment() == 1 {
                started.signal()
                release.wait()
            }
            return DRValue(thing: DRThing())
        }
        let weak = DRWeakBox()
        let done = DispatchSemaphore(value: 0)
        fxStartThread(done) { weak.object = r.resolve(DRValue.self).thing }
        #expect(drWait(started))
        r.dropCached([DRValue.self])
        release.signal()
        #expect(drWait(done))
        for _ in 0..<3 {
            _ = r.resolve(DRValue.self)
            r.dropAllCached()
        }
        #expect(weak.object == nil, "the instance built across the first drop is still alive")
    }

    /// A class whose first instance decided: a `.timeToLive` rebuild under way at the first drop.
    @Test func aTimeToLiveRebuildAcrossTheFirstDropIsReleased() {
        let r = Resolver()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        r.register(lifetime: .timeToLive(.milliseconds(1))) { () -> DRThing in
            if calls.increment() == 2 {
                started.signal()
                release.wait()
            }
            return DRThing()
        }
        _ = r.resolve(DRThing.self)
        usleep(20_000)  // expires (setup)
        let weak = DRWeakBox()
        let done = DispatchSemaphore(value: 0)
        fxStartThread(done) { weak.object = r.resolve(DRThing.self) }
        #expect(drWait(started))
        r.dropCached([DRThing.self])
        release.signal()
        #expect(drWait(done))
        for _ in 0..<3 {
            _ = r.resolve(DRThing.self)
            r.dropAllCached()
        }
        #expect(weak.object == nil, "the instance built across the first drop is still alive")
    }

    /// The same in a test container's copy.
    @Test func anInstanceBuiltAcrossATestContainersFirstDropIsReleased() {
        let parent = Resolver()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        parent.register(lifetime: .singleton) { () -> DRThing in
            if calls.increment() == 1 {
                started.signal()
                release.wait()
            }
            return DRThing()
        }
        let test = Resolver(isolatedChildOf: parent)
        let weak = DRWeakBox()
        let done = DispatchSemaphore(value: 0)
        fxStartThread(done) { weak.object = test.resolve(DRThing.self) }
        #expect(drWait(started))
        test.dropCached([DRThing.self])
        release.signal()
        #expect(drWait(done))
        for _ in 0..<3 {
            _ = test.resolve(DRThing.self)
            test.dropAllCached()
        }
        #expect(weak.object == nil, "the instance built across the first drop is still alive")
    }

    // MARK: 3. Protocol registrations: the first instance decides the marker

    /// A protocol registration (transient by default) whose first instance is a Singleton: a drop
    /// during that first build; the first resolution after the drop builds anew without waiting for
    /// it and decides, and the caller that asked before the drop gets the instance built for it.
    @Test func aProtocolsFirstMarkedBuildAcrossADropIsNotHandedOutAfterIt() {
        let r = Resolver()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        r.register((any DRService).self) { () -> any DRService in
            if calls.increment() == 1 {
                started.signal()
                release.wait()
            }
            return DRMarked()
        }
        let before = FxRecorder<ObjectIdentifier>()
        let done = DispatchSemaphore(value: 0)
        let keeper = FxRecorder<any DRService>()
        fxStartThread(done) {
            let s = r.resolve((any DRService).self)
            keeper.append(s)
            before.append(ObjectIdentifier(s))
        }
        #expect(drWait(started))
        r.dropCached([(any DRService).self])
        let afterDone = DispatchSemaphore(value: 0)
        let after = FxRecorder<any DRService>()
        fxStartThread(afterDone) { after.append(r.resolve((any DRService).self)) }
        let waited = afterDone.wait(timeout: .now() + 2) == .timedOut
        release.signal()
        #expect(drWait(done))
        if waited { #expect(drWait(afterDone)) }
        #expect(!waited, "the resolution after the drop waited for the older build")
        #expect(
            after.values.first.map(ObjectIdentifier.init) != before.values.first, "pre-drop instance after the drop")
        // The first instance after the drop decided: it is the singleton from now on.
        let again = r.resolve((any DRService).self)
        #expect(after.values.first.map { $0 === again } == true)
        #expect(calls.value == 2)
    }

    /// The same with `.singleton` on a protocol: the first resolution after the drop builds anew.
    @Test func aProtocolSingletonLifetimeAcrossADrop() {
        for _ in 0..<5 {
            let r = Resolver()
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let calls = FxCounter()
            r.register((any DRService).self, lifetime: .singleton) { () -> any DRService in
                if calls.increment() == 1 {
                    started.signal()
                    release.wait()
                }
                return DRPlain()
            }
            let keeper = FxRecorder<any DRService>()
            let done = DispatchSemaphore(value: 0)
            fxStartThread(done) { keeper.append(r.resolve((any DRService).self)) }
            #expect(drWait(started))
            r.dropCached([(any DRService).self])
            let afterDone = DispatchSemaphore(value: 0)
            let after = FxRecorder<any DRService>()
            fxStartThread(afterDone) { after.append(r.resolve((any DRService).self)) }
            let waited = afterDone.wait(timeout: .now() + 5) == .timedOut
            #expect(!waited)
            release.signal()
            if waited { #expect(drWait(afterDone)) }
            let a = after.values[0]
            #expect(drWait(done))
            let b = r.resolve((any DRService).self)
            #expect(a === b)
            #expect(keeper.values.first !== a)
            #expect(calls.value == 2)
        }
    }

    // MARK: 4. Async waiters on a protocol's first build

    /// Tasks that joined a protocol's first (`.singleton`) build before the drop should get its
    /// instance, not each build their own.
    @Test func asyncTasksJoiningAProtocolsFirstBuildBeforeTheDrop() async {
        let r = Resolver()
        let started = AfGate()
        let release = AfGate()
        let calls = FxCounter()
        r.register((any DRService).self, lifetime: .singleton) { () async -> any DRService in
            if calls.increment() == 1 {
                started.open()
                await release.wait()
            }
            return DRPlain()
        }
        let first = Task { await r.resolveAsync((any DRService).self) }
        await started.wait()
        let joiners = (0..<3).map { _ in Task { await r.resolveAsync((any DRService).self) } }
        try? await Task.sleep(for: .milliseconds(300))  // lets them join (setup)
        r.dropCached([(any DRService).self])
        release.open()
        let a = await first.value
        var others: [any DRService] = []
        for j in joiners { others.append(await j.value) }
        #expect(calls.value == 1, "factory ran \(calls.value) times for callers that asked before the drop")
        #expect(others.allSatisfy { $0 === a })
    }

    /// A protocol registration (transient by default) whose async first instance is a Singleton, a
    /// drop during that first build: the first resolution after the drop builds anew without waiting
    /// for it, and its instance is the singleton from then on. The tasks that joined the first build
    /// before the drop build nothing of their own: they get the instance decided after the drop
    /// (LifetimesAndScopes).
    @Test func asyncTasksAcrossADropOfAProtocolsFirstMarkedBuild() async {
        let r = Resolver()
        let started = AfGate()
        let release = AfGate()
        let calls = FxCounter()
        r.register((any DRService).self) { () async -> any DRService in
            if calls.increment() == 1 {
                started.open()
                await release.wait()
            }
            return DRMarked()
        }
        let first = Task { await r.resolveAsync((any DRService).self) }
        await started.wait()
        let joiners = (0..<3).map { _ in Task { await r.resolveAsync((any DRService).self) } }
        try? await Task.sleep(for: .milliseconds(300))  // lets them join (setup)
        r.dropCached([(any DRService).self])
        let finished = FxCounter()
        let afterTask = Task {
            defer { finished.increment() }
            return await r.resolveAsync((any DRService).self)
        }
        for _ in 0..<200 where finished.value == 0 { try? await Task.sleep(for: .milliseconds(10)) }
        #expect(finished.value == 1, "the resolution after the drop waited for the first build")
        release.open()
        let after = await afterTask.value
        let a = await first.value
        var others: [any DRService] = []
        for j in joiners { others.append(await j.value) }
        #expect(after !== a)
        #expect(others.allSatisfy { $0 === after })
        #expect(await r.resolveAsync((any DRService).self) === after)
        #expect(r.resolve((any DRService).self) === after)
        #expect(calls.value == 2)
    }

    /// Sync-built concrete singleton, async tasks joining before the drop.
    @Test func asyncTasksJoiningAConcreteBuildBeforeTheDrop() async {
        let r = Resolver()
        let started = AfGate()
        let release = AfGate()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { () async -> DRShared in
            if calls.increment() == 1 {
                started.open()
                await release.wait()
            }
            return DRShared()
        }
        let first = Task { await r.resolveAsync(DRShared.self) }
        await started.wait()
        let joiners = (0..<3).map { _ in Task { await r.resolveAsync(DRShared.self) } }
        try? await Task.sleep(for: .milliseconds(300))
        r.dropCached([DRShared.self])
        release.open()
        let a = await first.value
        var others: [DRShared] = []
        for j in joiners { others.append(await j.value) }
        #expect(calls.value == 1)
        #expect(others.allSatisfy { $0 === a })
        let after = await r.resolveAsync(DRShared.self)
        #expect(after !== a)
    }

    // MARK: 5. Test containers and parents

    /// A parent's drop leaves a test container's copy (and its instance) alone.
    @Test func aParentsDropKeepsTheTestContainersCopy() {
        for lifetime in [Lifetime.singleton, .cached(in: DRSession.self), .weak] {
            let parent = Resolver()
            parent.register(lifetime: lifetime) { DRThing() }
            let test = Resolver(isolatedChildOf: parent)
            let t1 = test.resolve(DRThing.self)
            let p1 = parent.resolve(DRThing.self)
            for _ in 0..<3 { parent.dropCached([DRThing.self]) }
            parent.dropAllCached()
            parent.dropCached(scopedTo: DRSession.self)
            #expect(test.resolve(DRThing.self) === t1, "\(lifetime)")
            #expect(parent.resolve(DRThing.self) !== p1, "\(lifetime)")
            test.dropAllCached()
            #expect(test.resolve(DRThing.self) !== t1, "\(lifetime)")
        }
    }

    /// A test container's protocol copy decided by its own marked first instance: after its drop,
    /// the next first instance decides again (unmarked → transient).
    @Test func aTestContainersMarkerIsDecidedAgainAfterItsDrop() {
        let parent = Resolver()
        let marked = FxFlag(true)
        parent.register((any DRService).self) { () -> any DRService in marked.value ? DRMarked() : DRPlain() }
        let test = Resolver(isolatedChildOf: parent)
        let a = test.resolve((any DRService).self)
        #expect(test.resolve((any DRService).self) === a)
        test.dropCached([(any DRService).self])
        marked.value = false
        let b = test.resolve((any DRService).self)
        let c = test.resolve((any DRService).self)
        #expect(b !== a)
        #expect(b !== c, "an unmarked instance kept as the test container's singleton after its drop")
    }

    /// registerSingleton's instance is never dropped, also in a test container.
    @Test func aGivenInstanceSurvivesDrops() {
        let parent = Resolver()
        let given = DRThing()
        parent.registerSingleton(given)
        let test = Resolver(isolatedChildOf: parent)
        parent.dropAllCached()
        test.dropAllCached()
        #expect(parent.resolve(DRThing.self) === given)
        #expect(test.resolve(DRThing.self) === given)
    }

    /// Async tasks joining a value type's build before the drop (no first-instance step).
    @Test func asyncTasksJoiningAValueBuildBeforeTheDrop() async {
        let r = Resolver()
        let started = AfGate()
        let release = AfGate()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { () async -> DRSendableValue in
            if calls.increment() == 1 {
                started.open()
                await release.wait()
            }
            return DRSendableValue(serial: FxSerial.next())
        }
        let first = Task { await r.resolveAsync(DRSendableValue.self) }
        await started.wait()
        let joiners = (0..<3).map { _ in Task { await r.resolveAsync(DRSendableValue.self) } }
        try? await Task.sleep(for: .milliseconds(300))
        r.dropCached([DRSendableValue.self])
        release.open()
        let a = await first.value
        var others: [DRSendableValue] = []
        for j in joiners { others.append(await j.value) }
        #expect(calls.value == 1)
        #expect(others.allSatisfy { $0.serial == a.serial })
    }

    /// A test container: the caller that asked before its drop gets the build's own instance
    /// (as the parent's does), not one a resolution after the drop built meanwhile.
    @Test func aTestContainersPreDropCallerGetsItsBuildsInstance() {
        let parent = Resolver()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        parent.register(lifetime: .singleton) { () -> DRThing in
            if calls.increment() == 1 {
                started.signal()
                release.wait()
            }
            return DRThing()
        }
        for container in [parent, Resolver(isolatedChildOf: parent)] {
            let c0 = calls.value
            _ = c0
            let got = FxRecorder<DRThing>()
            let done = DispatchSemaphore(value: 0)
            // reset the gate: only the first build ever blocks, so use a fresh registration
            container.register(lifetime: .singleton) { () -> DRThing in
                if calls.increment() == c0 + 1 {
                    started.signal()
                    release.wait()
                }
                return DRThing()
            }
            fxStartThread(done) { got.append(container.resolve(DRThing.self)) }
            #expect(drWait(started))
            container.dropCached([DRThing.self])
            let after = container.resolve(DRThing.self)
            release.signal()
            #expect(drWait(done))
            #expect(
                got.values.first !== after,
                "pre-drop caller got the post-drop instance (\(container === parent ? "parent" : "test container"))")
            #expect(container.resolve(DRThing.self) === after)
        }
    }

    /// A deinitializer that resolves the same key runs when the drop releases the instance; the
    /// drop must not deadlock and the deinit's resolution builds anew.
    @Test func aDeinitResolvingDuringTheDrop() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .singleton) { () -> DRToucher in
            built.increment()
            return DRToucher(r: r)
        }
        let test = Resolver(isolatedChildOf: r)
        _ = r.resolve(DRToucher.self)
        _ = test.resolve(DRToucher.self)
        let done = DispatchSemaphore(value: 0)
        fxStartThread(done) {
            r.dropAllCached()
            test.dropAllCached()
        }
        #expect(drWait(done))
        #expect(built.value >= 2)
    }

    // MARK: 6. Races

    /// Many threads resolve while another drops: after each drop returns, a resolution never gets
    /// an instance whose serial is older than what the drop let go.
    @Test func resolutionsRacingDropsNeverGetAnInstanceFromBeforeTheDrop() {
        for lifetime in [Lifetime.singleton, .cached(in: DRSession.self), .timeToLive(.seconds(3600))] {
            let r = Resolver()
            r.register(lifetime: lifetime) { () -> DRThing in
                usleep(50)
                return DRThing()
            }
            let bad = FxCounter()
            let stop = FxFlag()
            let watermark = FxCounter()  // serials below this were issued before the last drop
            let ok = fxRunThreads(6) { index in
                if index == 0 {
                    for _ in 0..<300 {
                        let mark = FxSerial.next()
                        r.dropCached([DRThing.self])
                        while watermark.value < mark { watermark.increment() }
                        usleep(100)
                    }
                    stop.value = true
                } else {
                    while !stop.value {
                        let w = watermark.value
                        let s = r.resolve(DRThing.self).serial
                        if s < w { bad.increment() }
                    }
                }
            }
            #expect(ok)
            #expect(bad.value == 0, "\(lifetime): \(bad.value) resolutions got a pre-drop instance")
        }
    }

    /// Concurrent first builds of a protocol registration with a Singleton marker and drops: one
    /// instance between drops; no crash, no hang.
    @Test func protocolMarkerRacingDrops() {
        for _ in 0..<20 {
            let r = Resolver()
            r.register((any DRService).self) { () -> any DRService in
                usleep(200)
                return DRMarked()
            }
            let test = Resolver(isolatedChildOf: r)
            let ok = fxRunThreads(6) { index in
                for _ in 0..<50 {
                    switch index {
                    case 0: r.dropAllCached()
                    case 1: test.dropAllCached()
                    case 2, 3: _ = test.resolve((any DRService).self)
                    default: _ = r.resolve((any DRService).self)
                    }
                }
            }
            #expect(ok)
            let a = r.resolve((any DRService).self)
            #expect(r.resolve((any DRService).self) === a)
            let t = test.resolve((any DRService).self)
            #expect(test.resolve((any DRService).self) === t)
        }
    }

    /// verify() while drops and builds race.
    @Test func verifyRacingDrops() {
        let r = Resolver()
        r.register(lifetime: .singleton) { () -> DRThing in
            usleep(100)
            return DRThing()
        }
        r.register((any DRService).self, lifetime: .cached(in: DRSession.self)) { () -> any DRService in DRPlain() }
        let ok = fxRunThreads(4) { index in
            for _ in 0..<100 {
                switch index {
                case 0: r.dropAllCached()
                case 1: _ = r.verify()
                default:
                    _ = r.resolve(DRThing.self)
                    _ = r.resolve((any DRService).self)
                }
            }
        }
        #expect(ok)
    }

    // MARK: 7. Drops made inside a build

    /// A test container's build (main thread) drops the parent's cache while the parent's own build
    /// of the registration is under way on thread B. The parent's resolutions after the drop
    /// build anew: they neither wait for B's build nor get its instance.
    @Test func aTestContainersBuildDroppingTheParentWhileItBuilds() {
        let parent = Resolver()
        let tc = Resolver(isolatedChildOf: parent)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        parent.register(lifetime: .singleton) { [unowned parent] () -> DRShared in
            let n = calls.increment()
            if n == 1 {
                started.signal()
                _ = release.wait(timeout: .now() + 10)
            }
            if n == 2 { parent.dropCached([DRShared.self]) }  // inside the test container's build
            return DRShared()
        }
        let b = FxRecorder<DRShared>()
        let doneB = DispatchSemaphore(value: 0)
        fxStartThread(doneB) { b.append(parent.resolve(DRShared.self)) }
        #expect(drWait(started))
        _ = tc.resolve(DRShared.self)  // call 2: drops the parent's cache
        let d = FxRecorder<DRShared>()
        let doneD = DispatchSemaphore(value: 0)
        fxStartThread(doneD) { d.append(parent.resolve(DRShared.self)) }
        let dDidNotWait = (doneD.wait(timeout: .now() + 3) == .success)
        release.signal()
        #expect(drWait(doneB))
        if !dDidNotWait { #expect(drWait(doneD)) }
        #expect(dDidNotWait, "the parent's resolution after its drop waited for the build begun before it")
        #expect(d.values.first !== b.values.first, "the parent's resolution after its drop got the pre-drop instance")
    }

    /// LifetimesAndScopes: "A build under way when the cache is dropped ... keeps nothing: the first
    /// resolution after the drop builds a new one". A .cached(in:) factory that drops its own cache.
    @Test func aCachedFactoryDroppingItsOwnCacheKeepsNothing() {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .cached(in: DRSession.self)) { () -> DRShared in
            if calls.increment() == 1 { r.dropCached(scopedTo: DRSession.self) }
            return DRShared()
        }
        let a = r.resolve(DRShared.self)
        let b = r.resolve(DRShared.self)
        #expect(a !== b, "a build under way at the drop kept its instance")
    }

    /// Thread A's build began before an outside drop; thread C's build began after it. A's factory
    /// then drops the registration again: that drop is inside A's build, but C's build, under way,
    /// began before it. The resolutions after A's drop build anew, without waiting for C's build.
    @Test(arguments: [Lifetime.singleton, .cached(in: DRSession.self), .weak, .timeToLive(.seconds(600))])
    func aPreDropBuildDroppingAgainWhileAPostDropBuildIsUnderWay(lifetime: Lifetime) {
        let r = Resolver()
        let startedA = DispatchSemaphore(value: 0), releaseA = DispatchSemaphore(value: 0)
        let startedC = DispatchSemaphore(value: 0), releaseC = DispatchSemaphore(value: 0)
        let calls = FxCounter()
        r.register(lifetime: lifetime) { () -> DRShared in
            let n = calls.increment()
            if n == 1 {
                startedA.signal()
                _ = releaseA.wait(timeout: .now() + 10)
                r.dropCached([DRShared.self])  // inside A's build, while C's is under way
            }
            if n == 2 {
                startedC.signal()
                _ = releaseC.wait(timeout: .now() + 10)
            }
            return DRShared()
        }
        let doneA = DispatchSemaphore(value: 0)
        fxStartThread(doneA) { _ = r.resolve(DRShared.self) }
        #expect(drWait(startedA))
        r.dropCached([DRShared.self])
        let c = FxRecorder<DRShared>()
        let doneC = DispatchSemaphore(value: 0)
        fxStartThread(doneC) { c.append(r.resolve(DRShared.self)) }
        #expect(drWait(startedC))
        releaseA.signal()
        #expect(drWait(doneA))
        let d = FxRecorder<DRShared>()
        let doneD = DispatchSemaphore(value: 0)
        fxStartThread(doneD) { d.append(r.resolve(DRShared.self)) }
        let dDidNotWait = (doneD.wait(timeout: .now() + 3) == .success)
        releaseC.signal()
        #expect(drWait(doneC))
        if !dDidNotWait { #expect(drWait(doneD)) }
        #expect(dDidNotWait, "the resolution after A's drop waited for C's build, begun before it")
        #expect(d.values.first !== c.values.first)
    }
}
