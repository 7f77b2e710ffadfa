import Foundation
import Syringe
import SyringeTesting
import Testing

// The lifetimes that keep one instance for a while: a named cache that is not part of the
// key (`.cached(in:)`), time to live, and `.weak` on values that cannot be held weakly.

private enum CLSession: Scope {}
private enum CLOther: Scope {}
private final class CLAuth {
    let serial = FxSerial.next()
}
private final class CLProfile {
    let serial = FxSerial.next()
}
private final class CLSettings {
    let serial = FxSerial.next()
}
/// Shared by tasks in the drop tests.
private final class CLSharedProfile: Sendable {
    let serial = FxSerial.next()
}
private final class CLFlags {
    let serial = FxSerial.next()
}
private final class CLConsumer {
    @Inject var auth: CLAuth
}
private struct CLValue {
    let serial = FxSerial.next()
}
private final class CLObject {
    let serial = FxSerial.next()
}
private protocol CLDelegate: AnyObject {
    var serial: Int { get }
}
private final class CLCoordinator: CLDelegate {
    let serial = FxSerial.next()
}

/// Whether `task` finishes within 20 seconds: a hang guard, not a timing claim.
private func clFinishes<T>(_ task: Task<T, Never>) async -> Bool {
    let done = FxFlag()
    let watcher = Task {
        _ = await task.value
        done.value = true
    }
    for _ in 0..<2_000 where !done.value { try? await Task.sleep(nanoseconds: 10_000_000) }
    _ = watcher
    return done.value
}

@Suite struct CachedLifetimeTests {
    // MARK: Dropping while a build is under way

    /// README, "Removing and resetting", and LifetimesAndScopes: after `dropCached`, the next
    /// resolution builds a new one, also when a build begun before the drop is still under way:
    /// that build's instance goes to its caller and is not kept.
    @Test func aResolutionAfterADropBuildsAnewWhileAnOlderBuildIsUnderWay() {
        for drop in [
            { (r: Resolver) in r.dropCached(scopedTo: CLSession.self) },
            { (r: Resolver) in r.dropCached([CLAuth.self]) },
            { (r: Resolver) in r.dropAllCached() },
        ] {
            let r = Resolver()
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let calls = FxCounter()
            r.register(lifetime: .cached(in: CLSession.self)) { () -> CLAuth in
                if calls.increment() == 1 {
                    started.signal()
                    release.wait()
                }
                return CLAuth()
            }
            let before = FxRecorder<Int>()
            let finished = DispatchSemaphore(value: 0)
            fxStartThread(finished) { before.append(r.resolve(CLAuth.self).serial) }
            started.wait()
            drop(r)
            // It does not wait for the older build (a hang guard, not a timing claim).
            let after = FxRecorder<CLAuth>()
            let resolvedAfter = DispatchSemaphore(value: 0)
            fxStartThread(resolvedAfter) { after.append(r.resolve(CLAuth.self)) }
            let waitedForTheOlderBuild = resolvedAfter.wait(timeout: .now() + 20) == .timedOut
            #expect(!waitedForTheOlderBuild)
            release.signal()
            finished.wait()
            if waitedForTheOlderBuild { resolvedAfter.wait() }
            #expect(calls.value == 2)
            #expect(before.values.first != after.values.first?.serial)
            #expect(r.resolve(CLAuth.self) === after.values.first)
        }
    }

    /// The same with an async factory, and with a singleton: a resolution after the drop does not
    /// join the build begun before it.
    @Test func anAsyncResolutionAfterADropDoesNotJoinAnOlderBuild() async {
        for lifetime in [Lifetime.cached(in: CLSession.self), .singleton] {
            let r = Resolver()
            let started = AfGate()
            let release = AfGate()
            let calls = FxCounter()
            r.register(lifetime: lifetime) { () async -> CLSharedProfile in
                if calls.increment() == 1 {
                    started.open()
                    await release.wait()
                }
                return CLSharedProfile()
            }
            let before = Task { await r.resolveAsync(CLSharedProfile.self) }
            await started.wait()
            r.dropCached([CLSharedProfile.self])
            let afterTask = Task { await r.resolveAsync(CLSharedProfile.self) }
            #expect(await clFinishes(afterTask))  // without waiting for the older build
            release.open()
            let after = await afterTask.value
            let old = await before.value
            #expect(calls.value == 2)
            #expect(old !== after)
            #expect(await r.resolveAsync(CLSharedProfile.self) === after)
        }
    }

    /// A test container's copy: a scoped drop in it while its own build is under way.
    @Test func aTestContainersResolutionAfterADropBuildsAnew() async {
        let parent = Resolver()
        let started = AfGate()
        let release = AfGate()
        let calls = FxCounter()
        parent.register(lifetime: .cached(in: CLSession.self)) { () async -> CLSharedProfile in
            if calls.increment() == 1 {
                started.open()
                await release.wait()
            }
            return CLSharedProfile()
        }
        let child = Resolver(isolatedChildOf: parent)
        let before = Task { await child.resolveAsync(CLSharedProfile.self) }
        await started.wait()
        child.dropCached(scopedTo: CLSession.self)
        let afterTask = Task { await child.resolveAsync(CLSharedProfile.self) }
        #expect(await clFinishes(afterTask))  // without waiting for the older build
        release.open()
        let after = await afterTask.value
        let old = await before.value
        #expect(calls.value == 2)
        #expect(old !== after)
        #expect(await child.resolveAsync(CLSharedProfile.self) === after)
    }

    // MARK: A named cache

    @Test func namedCacheKeepsOneInstanceThatConsumersResolvePlainly() {
        let r = Resolver()
        r.register { CLAuth() }.lifetime(.cached(in: CLSession.self))
        let first: CLAuth = r.resolve()
        let second: CLAuth = r.resolve()
        let consumer = Resolver.withContainer(r) { CLConsumer() }
        #expect(first === second)
        #expect(consumer.auth === first)
    }

    @Test func droppingTheNamedCacheReleasesEverythingInItAndNothingElse() {
        let r = Resolver()
        r.register { CLAuth() }.lifetime(.cached(in: CLSession.self))
        r.register(lifetime: .cached(in: CLSession.self)) { CLProfile() }
        r.register { CLSettings() }.lifetime(.cached(in: CLOther.self))
        r.register(lifetime: .singleton) { CLFlags() }
        let auth: CLAuth = r.resolve()
        let profile: CLProfile = r.resolve()
        let settings: CLSettings = r.resolve()
        let flags: CLFlags = r.resolve()
        let watchAuth = FxWeak(auth)
        let authSerial = auth.serial
        let profileSerial = profile.serial
        _ = consume auth
        _ = consume profile

        r.dropCached(scopedTo: CLSession.self)

        #expect(watchAuth.object == nil)
        #expect((r.resolve() as CLAuth).serial != authSerial)
        #expect((r.resolve() as CLProfile).serial != profileSerial)
        #expect((r.resolve() as CLSettings) === settings)
        #expect((r.resolve() as CLFlags) === flags)
    }

    @Test func namedCacheIsNotPartOfTheKey() {
        let r = Resolver()
        r.register { CLAuth() }.lifetime(.cached(in: CLSession.self))
        #expect(r.isRegistered(CLAuth.self))
        #expect(!r.isRegistered(CLAuth.self, scopedTo: CLSession.self))
    }

    @Test func aTestContainerKeepsItsOwnNamedCacheCopies() {
        let base = Resolver()
        base.register { CLAuth() }.lifetime(.cached(in: CLSession.self))
        let parentAuth: CLAuth = base.resolve()
        let test = Resolver.withContainer(base) { Resolver.makeTestContainer() }
        let testAuth: CLAuth = test.resolve()
        #expect(testAuth !== parentAuth)
        test.dropCached(scopedTo: CLSession.self)
        #expect((test.resolve() as CLAuth) !== testAuth)
        #expect((base.resolve() as CLAuth) === parentAuth)
    }

    @Test func namedCacheCanBeTheDefaultLifetime() {
        let r = Resolver()
        r.defaultLifetime = .cached(in: CLSession.self)
        r.register { CLAuth() }
        let first: CLAuth = r.resolve()
        #expect((r.resolve() as CLAuth) === first)
        r.dropCached(scopedTo: CLSession.self)
        #expect((r.resolve() as CLAuth) !== first)
    }

    // MARK: Time to live

    @Test func anInstanceLivesUntilItsTimeRunsOut() {
        let r = Resolver()
        r.register { CLFlags() }.lifetime(.timeToLive(.seconds(3600)))
        let first: CLFlags = r.resolve()
        #expect((r.resolve() as CLFlags) === first)
    }

    @Test func anExpiredInstanceIsBuiltAgainOnTheNextResolution() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .timeToLive(.milliseconds(1))) { () -> CLFlags in
            built.increment()
            return CLFlags()
        }
        let first: CLFlags = r.resolve()
        Thread.sleep(forTimeInterval: 0.02)
        let second: CLFlags = r.resolve()
        #expect(second !== first)
        #expect(built.value == 2)
    }

    @Test func timeToLiveInstancesAreDropped() {
        let r = Resolver()
        r.register { CLFlags() }.lifetime(.timeToLive(.seconds(3600)))
        let first: CLFlags = r.resolve()
        r.dropCached([CLFlags.self])
        #expect((r.resolve() as CLFlags) !== first)
    }

    @Test func racingThreadsShareOneTimeToLiveInstance() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .timeToLive(.seconds(3600))) { () -> CLFlags in
            built.increment()
            return CLFlags()
        }
        let serials = FxRecorder<Int>()
        #expect(fxRunThreads(8) { _ in serials.append((r.resolve() as CLFlags).serial) })
        #expect(Set(serials.values).count == 1)
        #expect(built.value == 1)
    }

    // MARK: Weak holds only what can be held weakly

    @Test func weakOnAValueTypeBuildsANewValueEachTime() {
        let r = Resolver()
        r.register(lifetime: .weak) { CLValue() }
        let first: CLValue = r.resolve()
        let second: CLValue = r.resolve()
        #expect(first.serial != second.serial)
    }

    @Test func weakOnAnOptionalClassHoldsTheWrappedInstance() {
        let r = Resolver()
        r.register(CLObject?.self, lifetime: .weak) { CLObject() }
        let first: CLObject? = r.resolve()
        let second: CLObject? = r.resolve()
        #expect(first != nil)
        #expect(first === second)
    }

    @Test func weakOnAClassBoundProtocolHoldsTheInstance() {
        let r = Resolver()
        r.register(CLDelegate.self, lifetime: .weak) { CLCoordinator() }
        let first: CLDelegate = r.resolve()
        #expect((r.resolve() as CLDelegate) === first)
        let serial = first.serial
        _ = consume first
        #expect((r.resolve() as CLDelegate).serial != serial)
    }

    // MARK: Lifetime descriptions

    @Test func lifetimesDescribeThemselves() {
        #expect(Lifetime.cached(in: CLSession.self).description == "cached in CLSession")
        #expect(Lifetime.timeToLive(.seconds(5)).description == "time to live 5.0 seconds")
        #expect(Lifetime.cached(in: CLSession.self) == .cached(in: CLSession.self))
        #expect(Lifetime.cached(in: CLSession.self) != .cached(in: CLOther.self))
        #expect(Lifetime.timeToLive(.seconds(5)) != .timeToLive(.seconds(6)))
        #expect(Set<Lifetime>([.singleton, .cached(in: CLSession.self), .cached(in: CLSession.self)]).count == 2)
    }
}
