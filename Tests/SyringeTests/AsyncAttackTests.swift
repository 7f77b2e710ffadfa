import Foundation
import Syringe
import SyringeTesting
import Testing

// Adversarial tests of async factories. Types carry the `Adv` prefix.

final class AdvA: Sendable {}
final class AdvB: Sendable {}
final class AdvC: Sendable {}
final class AdvNode: Sendable {
    let serial = FxSerial.next()
}

final class AdvBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    var value: T? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

// MARK: - Cycles across tasks, with concurrent waits inside one factory

@Suite struct AsyncAttackCycleTests {
    /// Singleton A's factory waits for C (child task of `async let`) and, meanwhile, resolves B,
    /// which finishes. C's factory resolves A. A waits for C waits for A: a cycle, reported (as in
    /// `twoTasksWhoseSingletonsNeedEachOtherGetACycleNotAHang`) rather than waited for.
    @Test func advConcurrentWaitsInOneFactoryStillReportTheCycle() async {
        let finished = await afFinishes(within: afHangLimit) {
            let r = Resolver()
            let cStarted = AfGate()
            let cGo = AfGate()
            r.register(lifetime: .singleton) { (r: Resolver) async throws -> AdvC in
                cStarted.open()
                await cGo.wait()
                let _: AdvA = try await r.tryResolveAsync()
                return AdvC()
            }
            r.register(lifetime: .singleton) { () async -> AdvB in AdvB() }
            r.register(lifetime: .singleton) { (r: Resolver) async throws -> AdvA in
                async let c: AdvC = r.tryResolveAsync()  // joins C's flight
                try await Task.sleep(nanoseconds: 100_000_000)  // let the child join first
                let _: AdvB = try await r.tryResolveAsync()  // starts and ends B's flight
                cGo.open()  // now C asks for A
                _ = try await c
                return AdvA()
            }
            let cTask = Task { () -> Result<AdvC, any Error> in
                do { return .success(try await r.tryResolveAsync()) } catch { return .failure(error) }
            }
            await cStarted.wait()
            let aTask = Task { () -> Result<AdvA, any Error> in
                do { return .success(try await r.tryResolveAsync()) } catch { return .failure(error) }
            }
            _ = await (cTask.value, aTask.value)
        }
        #expect(finished, "A waits for C, C waits for A: the loop was not reported")
    }

    /// The same loop when A's factory waits for C and B at the same time (both children waiting).
    @Test func advTwoChildWaitsInOneFactoryStillReportTheCycle() async {
        let finished = await afFinishes(within: afHangLimit) {
            let r = Resolver()
            let cStarted = AfGate()
            let cGo = AfGate()
            let bGo = AfGate()
            r.register(lifetime: .singleton) { (r: Resolver) async throws -> AdvC in
                cStarted.open()
                await cGo.wait()
                let _: AdvA = try await r.tryResolveAsync()
                return AdvC()
            }
            r.register(lifetime: .singleton) { () async -> AdvB in
                await bGo.wait()
                return AdvB()
            }
            r.register(lifetime: .singleton) { (r: Resolver) async throws -> AdvA in
                async let c: AdvC = r.tryResolveAsync()
                try await Task.sleep(nanoseconds: 100_000_000)
                async let b: AdvB = r.tryResolveAsync()  // overwrites what A's build waits for
                try await Task.sleep(nanoseconds: 100_000_000)
                cGo.open()
                _ = try await c
                bGo.open()
                _ = try await b
                return AdvA()
            }
            let cTask = Task { () -> Result<AdvC, any Error> in
                do { return .success(try await r.tryResolveAsync()) } catch { return .failure(error) }
            }
            await cStarted.wait()
            let aTask = Task { () -> Result<AdvA, any Error> in
                do { return .success(try await r.tryResolveAsync()) } catch { return .failure(error) }
            }
            _ = await (cTask.value, aTask.value)
            bGo.open()
        }
        #expect(finished, "A waits for C, C waits for A: the loop was not reported")
    }

    /// A detached task a singleton's factory starts carries no resolution path: what it resolves
    /// may depend on the singleton (it waits for it), without a cycle.
    @Test func advADetachedTaskInAFactoryIsNotPartOfItsPath() async throws {
        let r = Resolver()
        let outcome = AdvBox<Result<AdvB, any Error>>()
        let done = AfGate()
        r.register(lifetime: .singleton) { (r: Resolver) async throws -> AdvB in
            let _: AdvA = try await r.tryResolveAsync()
            return AdvB()
        }
        r.register(lifetime: .singleton) { (r: Resolver) async throws -> AdvA in
            Task.detached {
                do {
                    let b: AdvB = try await r.tryResolveAsync()
                    outcome.value = .success(b)
                } catch { outcome.value = .failure(error) }
                done.open()
            }
            try await Task.sleep(nanoseconds: 200_000_000)
            return AdvA()
        }
        let _: AdvA = try await r.tryResolveAsync()
        #expect(await afFinishes(within: afHangLimit) { await done.wait() })
        switch outcome.value {
        case .success: break
        case .failure(let error): Issue.record("the detached task failed: \(error)")
        case nil: Issue.record("no outcome")
        }
    }
}

// MARK: - A Singleton-marked type behind an async registration is built once

protocol AdvMarkedService: AnyObject, Sendable {}
final class AdvMarkedImpl: AdvMarkedService, Singleton {
    let serial = FxSerial.next()
}

@Suite struct AsyncAttackMarkerTests {
    @Test func advASingletonMarkedInstanceIsBuiltOnceForConcurrentFirstCallers() async {
        let r = Resolver()
        let calls = FxCounter()
        let gate = AfGate()
        r.register { () async -> any AdvMarkedService in
            calls.increment()
            await gate.wait()
            return AdvMarkedImpl()
        }
        let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<10 {
                group.addTask { ObjectIdentifier(await r.resolveAsync((any AdvMarkedService).self)) }
            }
            try? await Task.sleep(nanoseconds: 50_000_000)
            gate.open()
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
        #expect(calls.value == 1, "a Singleton-marked instance was built \(calls.value) times")
    }

    /// The synchronous path, for comparison: concurrent first resolutions from threads.
    @Test func advSyncControlSingletonMarkedBuiltOnce() async {
        let r = Resolver()
        let calls = FxCounter()
        r.register { () -> any AdvMarkedService in
            calls.increment()
            Thread.sleep(forTimeInterval: 0.05)
            return AdvMarkedImpl()
        }
        let group = DispatchGroup()
        for _ in 0..<6 {
            group.enter()
            Thread {
                _ = r.resolve((any AdvMarkedService).self)
                group.leave()
            }.start()
        }
        group.wait()
        #expect(calls.value == 1)
    }
}

// MARK: - Deinitializers run after every lock

final class AdvLateSingleton: Sendable {}

final class AdvExpiring: @unchecked Sendable {
    static let released = FxCounter()
    let resolver: Resolver
    init(_ resolver: Resolver) { self.resolver = resolver }
    deinit {
        // A deinitializer that resolves from its container (a logger, say), built the first time.
        _ = resolver.resolve(AdvLateSingleton.self)
        Self.released.increment()
    }
}

final class AdvExpiringSync: @unchecked Sendable {
    let resolver: Resolver
    init(_ resolver: Resolver) { self.resolver = resolver }
    deinit { _ = resolver.resolve(AdvLateSingleton.self) }
}

@Suite struct AsyncAttackDeinitTests {
    /// An expired `.timeToLive` instance is replaced by the next build; its deinitializer resolves
    /// a singleton not built yet. No user code runs under a Syringe lock: it must not deadlock.
    @Test func advAnExpiredInstanceReplacedByAnAsyncBuildDeinitsOutsideLocks() async {
        let finished = await afFinishes(within: afHangLimit) {
            let r = Resolver()
            r.register(lifetime: .singleton) { AdvLateSingleton() }
            r.register(lifetime: .timeToLive(.milliseconds(50))) { (r: Resolver) async -> AdvExpiring in
                AdvExpiring(r)
            }
            _ = await r.resolveAsync(AdvExpiring.self)
            try? await Task.sleep(nanoseconds: 150_000_000)
            _ = await r.resolveAsync(AdvExpiring.self)  // replaces the expired one
        }
        #expect(finished, "the replaced instance's deinit deadlocked")
    }

    /// The synchronous path, for comparison (run in a thread so that a deadlock does not take a
    /// cooperative thread).
    @Test func advSyncControlExpiredInstanceDeinitOutsideLocks() async {
        let finished = await afFinishes(within: afHangLimit) {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                Thread {
                    let r = Resolver()
                    r.register(lifetime: .singleton) { AdvLateSingleton() }
                    r.register(lifetime: .timeToLive(.milliseconds(50))) { (r: Resolver) in AdvExpiringSync(r) }
                    _ = r.resolve(AdvExpiringSync.self)
                    Thread.sleep(forTimeInterval: 0.15)
                    _ = r.resolve(AdvExpiringSync.self)
                    c.resume()
                }.start()
            }
        }
        #expect(finished, "sync path: the replaced instance's deinit deadlocked")
    }

    /// dropCached of an async singleton whose deinit resolves from the same container.
    @Test func advDropCachedDeinitThatResolvesDoesNotDeadlock() async {
        let finished = await afFinishes(within: afHangLimit) {
            let r = Resolver()
            r.register(lifetime: .singleton) { AdvLateSingleton() }
            r.register(lifetime: .singleton) { (r: Resolver) async -> AdvExpiring in AdvExpiring(r) }
            let before = AdvExpiring.released.value
            _ = await r.resolveAsync(AdvExpiring.self)
            r.dropCached([AdvExpiring.self])
            #expect(AdvExpiring.released.value == before + 1)
        }
        #expect(finished)
    }
}

// MARK: - A task started inside a factory does not keep the built instance

final class AdvTracked: @unchecked Sendable {
    static let released = FxCounter()
    deinit { Self.released.increment() }
}

final class AdvTrackedWeak: @unchecked Sendable {
    let serial = FxSerial.next()
}

@Suite struct AsyncAttackMemoryTests {
    /// An async singleton whose factory starts a long-lived task that does not hold the instance:
    /// dropCached releases it (its deinit runs), as for a synchronous singleton.
    @Test func advADroppedSingletonIsReleasedWhileATaskItsFactoryStartedRuns() async {
        let r = Resolver()
        let gate = AfGate()
        r.register(lifetime: .singleton) { () async -> AdvTracked in
            Task { await gate.wait() }  // a listener that outlives the build, holding nothing
            return AdvTracked()
        }
        let before = AdvTracked.released.value
        _ = await r.resolveAsync(AdvTracked.self)
        r.dropCached([AdvTracked.self])
        try? await Task.sleep(nanoseconds: 100_000_000)
        #expect(AdvTracked.released.value == before + 1, "the dropped singleton was not released")
        gate.open()
    }

    /// A `.weak` async instance is shared while held, and no longer once released.
    @Test func advAWeakInstanceDiesWhenReleasedWhileATaskItsFactoryStartedRuns() async {
        let r = Resolver()
        let gate = AfGate()
        r.register(lifetime: .weak) { () async -> AdvTrackedWeak in
            Task { await gate.wait() }
            return AdvTrackedWeak()
        }
        let weakRef = FxWeak<AdvTrackedWeak>()
        do {
            let first: AdvTrackedWeak = await r.resolveAsync()
            weakRef.object = first
        }
        try? await Task.sleep(nanoseconds: 100_000_000)
        #expect(weakRef.object == nil, "the weak instance is still alive, held by Syringe")
        gate.open()
    }

    /// Control: no task started inside the factory.
    @Test func advControlAWeakInstanceDiesWhenReleased() async {
        let r = Resolver()
        r.register(lifetime: .weak) { () async -> AdvTrackedWeak in AdvTrackedWeak() }
        let weakRef = FxWeak<AdvTrackedWeak>()
        do {
            let first: AdvTrackedWeak = await r.resolveAsync()
            weakRef.object = first
        }
        try? await Task.sleep(nanoseconds: 50_000_000)
        #expect(weakRef.object == nil)
    }
}

// MARK: - Controls and diagnosis

final class AdvExpiringBuilt: @unchecked Sendable {
    let resolver: Resolver
    init(_ resolver: Resolver) { self.resolver = resolver }
    deinit { _ = resolver.resolve(AdvLateSingleton.self) }
}

@Suite struct AsyncAttackControlTests {
    /// Control: without the extra resolution of B the loop is reported.
    @Test func advControlOneChildWaitReportsTheCycle() async {
        let finished = await afFinishes(within: afHangLimit) {
            let r = Resolver()
            let cStarted = AfGate()
            let cGo = AfGate()
            r.register(lifetime: .singleton) { (r: Resolver) async throws -> AdvC in
                cStarted.open()
                await cGo.wait()
                let _: AdvA = try await r.tryResolveAsync()
                return AdvC()
            }
            r.register(lifetime: .singleton) { (r: Resolver) async throws -> AdvA in
                async let c: AdvC = r.tryResolveAsync()
                try await Task.sleep(nanoseconds: 100_000_000)
                cGo.open()
                _ = try await c
                return AdvA()
            }
            let cTask = Task { () -> Result<AdvC, any Error> in
                do { return .success(try await r.tryResolveAsync()) } catch { return .failure(error) }
            }
            await cStarted.wait()
            let aTask = Task { () -> Result<AdvA, any Error> in
                do { return .success(try await r.tryResolveAsync()) } catch { return .failure(error) }
            }
            let (c, a) = await (cTask.value, aTask.value)
            #expect((try? c.get()) == nil)
            #expect((try? a.get()) == nil)
        }
        #expect(finished)
    }

    /// Control: a deinit that resolves an already built singleton does not deadlock
    /// (no claim is needed), so the deadlock is the claim of an unbuilt one.
    @Test func advControlExpiredDeinitResolvingABuiltSingleton() async {
        let finished = await afFinishes(within: afHangLimit) {
            let r = Resolver()
            r.register(lifetime: .singleton) { AdvLateSingleton() }
            _ = r.resolve(AdvLateSingleton.self)
            r.register(lifetime: .timeToLive(.milliseconds(50))) { (r: Resolver) async -> AdvExpiringBuilt in
                AdvExpiringBuilt(r)
            }
            _ = await r.resolveAsync(AdvExpiringBuilt.self)
            try? await Task.sleep(nanoseconds: 150_000_000)
            _ = await r.resolveAsync(AdvExpiringBuilt.self)
        }
        #expect(finished)
    }

}

// MARK: - Batch 2: races, cancellation, failures

enum AdvSession: Scope {}
protocol AdvProto: AnyObject, Sendable {}
final class AdvImpl: AdvProto {
    let serial = FxSerial.next()
}
final class AdvNeedsMissing: Sendable {}
final class AdvNeverRegistered: Sendable {}
struct AdvFlaky: Error, Equatable { let attempt: Int }

@Suite struct AsyncAttackRaceTests {
    @Test(arguments: [Lifetime.singleton, .cached(in: AdvSession.self), .timeToLive(.milliseconds(2)), .weak])
    func advResolveAsyncRacingDropCachedAndReRegister(lifetime: Lifetime) async {
        let finished = await afFinishes(within: afHangLimit) {
            let r = Resolver()
            let calls = FxCounter()
            @Sendable func registerIt() {
                r.register(lifetime: lifetime) { () async -> AdvNode in
                    calls.increment()
                    await Task.yield()
                    return AdvNode()
                }
            }
            registerIt()
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<400 {
                    group.addTask {
                        switch i % 40 {
                        case 0: r.dropCached([AdvNode.self])
                        case 13: r.dropCached(scopedTo: AdvSession.self)
                        case 27:
                            r.clearRegistration(for: AdvNode.self)
                            registerIt()
                        default:
                            do {
                                let _: AdvNode = try await r.tryResolveAsync()
                            } catch let error as ResolutionError {
                                if case .asyncFactory = error.reason {
                                    Issue.record("the synchronous path's error: \(error)")
                                }
                            } catch {}
                        }
                    }
                }
            }
            registerIt()
            let a: AdvNode = await r.resolveAsync()
            let b: AdvNode = await r.resolveAsync()
            if case .timeToLive = lifetime {} else { #expect(a === b) }
        }
        #expect(finished)
    }

    @Test func advScopedRacingDropCachedScope() async {
        let finished = await afFinishes(within: afHangLimit) {
            let r = Resolver()
            r.register(scopedTo: Global.self) { () async -> AdvNode in
                await Task.yield()
                return AdvNode()
            }
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<300 {
                    group.addTask {
                        if i % 10 == 0 { r.dropCached(scopedTo: Global.self) }
                        let _: AdvNode = await r.resolveAsync(scopedTo: Global.self)
                    }
                }
            }
        }
        #expect(finished)
    }

    /// Cancellation storm: 200 waiters, every third cancelled at a random moment, including the
    /// first caller. The build runs once; every waiter not cancelled gets the same instance; the
    /// cancelled ones get the instance or CancellationError.
    @Test func advCancellationStorm() async throws {
        for round in 0..<20 {
            let r = Resolver()
            let calls = FxCounter()
            let gate = AfGate()
            r.register(lifetime: .singleton) { () async -> AdvNode in
                calls.increment()
                await gate.wait()
                return AdvNode()
            }
            var tasks: [Task<Result<AdvNode, any Error>, Never>] = []
            for _ in 0..<200 {
                tasks.append(
                    Task {
                        do { return .success(try await r.tryResolveAsync(AdvNode.self)) } catch {
                            return .failure(error)
                        }
                    })
            }
            for (i, task) in tasks.enumerated() where i % 3 == 0 {
                if i % 2 == 0 { await Task.yield() }
                task.cancel()
            }
            if round % 2 == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
            gate.open()
            var serials = Set<Int>()
            for (i, task) in tasks.enumerated() {
                switch await task.value {
                case .success(let node): serials.insert(node.serial)
                case .failure(let error):
                    #expect(i % 3 == 0, "a waiter that was not cancelled failed: \(error)")
                    #expect(error is CancellationError, "\(error)")
                }
            }
            #expect(calls.value == 1)
            #expect(serials.count == 1)
            #expect(try r.tryResolve(AdvNode.self).serial == serials.first)
        }
    }

    /// All waiters cancelled before the build ends: the build still ends and keeps its instance.
    @Test func advEveryWaiterCancelledTheBuildStillKeeps() async throws {
        let r = Resolver()
        let calls = FxCounter()
        let gate = AfGate()
        let started = AfGate()
        r.register(lifetime: .singleton) { () async -> AdvNode in
            calls.increment()
            started.open()
            await gate.wait()
            return AdvNode()
        }
        let tasks = (0..<10).map { _ in
            Task { () -> Bool in (try? await r.tryResolveAsync(AdvNode.self)) != nil }
        }
        await started.wait()
        for task in tasks { task.cancel() }
        for task in tasks { #expect(await task.value == false) }
        gate.open()
        try await Task.sleep(nanoseconds: 50_000_000)
        let node: AdvNode = await r.resolveAsync()
        #expect(try r.tryResolve(AdvNode.self) === node)
        #expect(calls.value == 1)
    }

    /// A factory that throws on odd attempts, hit by concurrent callers in waves.
    @Test func advFlakyFactoryUnderConcurrency() async {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { () async throws -> AdvNode in
            let attempt = calls.increment()
            try await Task.sleep(nanoseconds: 2_000_000)
            if attempt < 5 { throw AdvFlaky(attempt: attempt) }
            return AdvNode()
        }
        var successes = Set<Int>()
        for _ in 0..<10 {
            let results = await withTaskGroup(of: Int?.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        do {
                            return try await r.tryResolveAsync(AdvNode.self).serial
                        } catch let error as ResolutionError {
                            #expect(error.underlyingError is AdvFlaky, "\(error)")
                            return nil
                        } catch {
                            Issue.record("unexpected \(error)")
                            return nil
                        }
                    }
                }
                return await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            successes.formUnion(results.compactMap { $0 })
        }
        #expect(successes.count == 1)
        #expect(calls.value == 5)
    }

    /// A cancelled caller of a transient whose factory awaits something cancellable.
    @Test func advCancelledCallerOfATransient() async {
        let r = Resolver()
        let started = AfGate()
        r.register { () async throws -> AdvNode in
            started.open()
            try await afSleepUntilCancelled()
            return AdvNode()
        }
        let task = Task { () -> (any Error)? in
            do { _ = try await r.tryResolveAsync(AdvNode.self); return nil } catch { return error }
        }
        await started.wait()
        task.cancel()
        let error = await task.value
        #expect(error is CancellationError, "got \(String(describing: error))")
    }
}

@Suite struct AsyncAttackLookupTests {
    @Test func advOptionalRequestOfARegisteredAsyncWithAMissingDependencyIsNotNil() async {
        let r = Resolver()
        r.register { (r: Resolver) async throws -> AdvNeedsMissing in
            let _: AdvNeverRegistered = try await r.tryResolveAsync()
            return AdvNeedsMissing()
        }
        do {
            let value: AdvNeedsMissing? = try await r.tryResolveAsync()
            Issue.record("expected a throw, got \(String(describing: value))")
        } catch {
            #expect(error is ResolutionError)
        }
        // Sync resolution inside the factory.
        let r2 = Resolver()
        r2.register { (r: Resolver) async throws -> AdvNeedsMissing in
            _ = try r.tryResolve(AdvNeverRegistered.self)
            return AdvNeedsMissing()
        }
        do {
            let value: AdvNeedsMissing? = try await r2.tryResolveAsync()
            Issue.record("expected a throw, got \(String(describing: value))")
        } catch {
            #expect(error is ResolutionError)
        }
        let nothing: AdvNeverRegistered? = try? await r.tryResolveAsync()
        #expect(nothing == nil)
    }

    @Test func advImplementsAliasOfAnAsyncSingleton() async throws {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { () async -> AdvImpl in
            calls.increment()
            try? await Task.sleep(nanoseconds: 10_000_000)
            return AdvImpl()
        }.implements((any AdvProto).self)
        let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for i in 0..<50 {
                group.addTask {
                    if i % 2 == 0 { return ObjectIdentifier(await r.resolveAsync((any AdvProto).self)) }
                    return ObjectIdentifier(await r.resolveAsync(AdvImpl.self))
                }
            }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
        #expect(calls.value == 1)
        let optional: (any AdvProto)? = await r.resolveAsync()
        #expect(optional.map(ObjectIdentifier.init) == ids.first)
        #expect(await r.optionalAsync((any AdvProto).self).map(ObjectIdentifier.init) == ids.first)
        #expect(ObjectIdentifier(try r.tryResolve((any AdvProto).self)) == ids.first)
        let all: [any AdvProto] = await r.resolveAllAsync()
        #expect(all.count == 1)
    }

    @Test func advImplementsAliasOfAnUnbuiltAsyncFailsSyncWithAsyncFactory() throws {
        let r = Resolver()
        r.register(lifetime: .singleton) { () async -> AdvImpl in AdvImpl() }.implements((any AdvProto).self)
        do {
            _ = try r.tryResolve((any AdvProto).self)
            Issue.record("expected a throw")
        } catch {
            guard case .asyncFactory = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test func advIsolatedChildrenRacingTheirParent() async {
        let app = Resolver()
        let calls = FxCounter()
        app.register(lifetime: .singleton) { () async -> AdvNode in
            calls.increment()
            try? await Task.sleep(nanoseconds: 20_000_000)
            return AdvNode()
        }
        let tests = (0..<4).map { _ in Resolver(isolatedChildOf: app) }
        let pairs = await withTaskGroup(of: (Int, Int).self) { group in
            for i in 0..<100 {
                group.addTask {
                    let which = i % 5
                    let c = which == 4 ? app : tests[which]
                    return (which, await c.resolveAsync(AdvNode.self).serial)
                }
            }
            return await group.reduce(into: [Int: Set<Int>]()) { $0[$1.0, default: []].insert($1.1) }
        }
        #expect(pairs.count == 5)
        #expect(pairs.values.allSatisfy { $0.count == 1 })
        #expect(Set(pairs.values.flatMap { $0 }).count == 5)
        #expect(calls.value == 5)
    }
}

// MARK: - A registration that appears meanwhile keeps the async verbs on the async path

@Suite struct AsyncAttackReRegistrationTests {
    /// One task replaces an async registration (clear, register again) in a loop; another resolves
    /// it with tryResolveAsync(). Expected: the instance, or `notRegistered` in the gap. Never the
    /// synchronous path's `.asyncFactory` error (which resolveAsync()/optionalAsync() turn into a stop).
    @Test func advReRegistrationRaceNeverYieldsAsyncFactoryError() async {
        let r = Resolver()
        @Sendable func registerIt() {
            r.register { () async -> AdvNode in AdvNode() }
        }
        registerIt()
        let stop = AdvBox<Bool>()
        let wrong = FxCounter()
        let firstWrong = AdvBox<String>()
        let writer = Task.detached {
            while stop.value != true {
                r.clearRegistration(for: AdvNode.self)
                registerIt()
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<20_000 {
                        do {
                            let _: AdvNode = try await r.tryResolveAsync()
                        } catch let error as ResolutionError {
                            if case .asyncFactory = error.reason {
                                wrong.increment()
                                if firstWrong.value == nil { firstWrong.value = "\(error)" }
                            }
                        } catch {}
                    }
                }
            }
        }
        stop.value = true
        await writer.value
        #expect(wrong.value == 0, "tryResolveAsync threw .asyncFactory \(wrong.value) times: \(firstWrong.value ?? "")")
    }
}

// MARK: - Batch 3: isolation, graph, exits

@MainActor final class AdvMainModel {
    var completed = false
    func complete() { completed = true }
}

final class AdvG2: @unchecked Sendable { let serial = FxSerial.next() }
final class AdvG1: @unchecked Sendable {
    let g2: AdvG2
    init(g2: AdvG2) { self.g2 = g2 }
}
final class AdvGraphUser: @unchecked Sendable {
    let g1s: [AdvG1]
    let g2: AdvG2
    init(g1s: [AdvG1], g2: AdvG2) { (self.g1s, self.g2) = (g1s, g2) }
}

let factoryOnMain = FxCounter()
/// Set on the main dispatch queue only: where the main actor runs (on Linux too).
let advMainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
func advOnMainQueue() -> Bool { DispatchQueue.getSpecific(key: advMainQueueKey) == true }
@MainActor private func advRegisterMainModel(in r: Resolver, onMain: FxCounter, offMain: FxCounter) {
    r.register(lifetime: .singleton) { @MainActor () async -> AdvMainModel in
        // Control: where the factory, which is @MainActor, runs.
        if advOnMainQueue() { factoryOnMain.increment() }
        return AdvMainModel()
    }
    .initCompleted { model in
        // A step written in main-actor code, completing a main-actor object.
        if advOnMainQueue() { onMain.increment() } else { offMain.increment() }
        model.complete()
    }
}

@MainActor private func advResolveOnMain(_ r: Resolver) async -> ObjectIdentifier {
    let model: AdvMainModel = await r.resolveAsync()
    return ObjectIdentifier(model)
}

@Suite struct AsyncAttackIsolationTests {
    @Test func advInitCompletedOfAMainActorAsyncRegistrationRunsOnTheMainActor() async {
        let r = Resolver()
        _ = advMainQueueKey
        let onMain = FxCounter()
        let offMain = FxCounter()
        await advRegisterMainModel(in: r, onMain: onMain, offMain: offMain)
        let model = await Task.detached { () -> AdvMainModel in await r.resolveAsync() }.value
        #expect(await model.completed)
        #expect(factoryOnMain.value == 1, "control: the @MainActor factory ran on the main thread")
        #expect(offMain.value == 0, "the main-actor step ran off the main thread")
    }

    @Test func advMainActorAsyncSingletonFromManyDetachedTasksAndMain() async {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { @MainActor () async -> AdvMainModel in
            calls.increment()
            MainActor.assertIsolated()
            try? await Task.sleep(nanoseconds: 10_000_000)
            return AdvMainModel()
        }
        let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for i in 0..<100 {
                if i % 4 == 0 {
                    group.addTask { await advResolveOnMain(r) }
                } else {
                    group.addTask {
                        await Task.detached { ObjectIdentifier(await r.resolveAsync(AdvMainModel.self)) }.value
                    }
                }
            }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
        #expect(calls.value == 1)
    }

    /// An async factory resolving `.graph` dependencies synchronously from many child tasks: one
    /// AdvG1 and one AdvG2 for the whole resolution.
    @Test func advGraphFromManyChildTasksOfOneFactory() async {
        for _ in 0..<50 {
            let r = Resolver()
            r.register(lifetime: .graph) { AdvG2() }
            r.register(lifetime: .graph) { (r: Resolver) in AdvG1(g2: r.resolve()) }
            r.register { (r: Resolver) async -> AdvGraphUser in
                let g1s = await withTaskGroup(of: AdvG1.self) { group in
                    for _ in 0..<8 { group.addTask { r.resolve(AdvG1.self) } }
                    return await group.reduce(into: [AdvG1]()) { $0.append($1) }
                }
                async let a: AdvG2 = r.resolveAsync()
                async let b: AdvG2 = r.resolveAsync()
                let (x, y) = await (a, b)
                #expect(x === y)
                return AdvGraphUser(g1s: g1s, g2: x)
            }
            async let u1: AdvGraphUser = r.resolveAsync()
            async let u2: AdvGraphUser = r.resolveAsync()
            let (one, two) = await (u1, u2)
            #expect(Set(one.g1s.map(ObjectIdentifier.init)).count == 1)
            #expect(one.g1s[0].g2 === one.g2)
            #expect(one.g2 !== two.g2)
        }
    }

    @Test func advWithContainerAndStaticResolveInsideFactoriesAndTasks() async {
        let parent = Resolver()
        let child = Resolver(parent: parent)
        parent.register(name: "where") { "parent" }
        child.register(name: "where") { "child" }
        parent.register(name: "async-where") { () async -> String in "parent-async" }
        child.register(name: "async-where") { () async -> String in "child-async" }
        child.register { () async -> [String] in
            async let a: String = Resolver.resolveAsync(name: "async-where")
            let b = await Task { await Resolver.resolveAsync(String.self, name: "async-where") }.value
            let c = await Resolver.withContainer(parent) {
                await Resolver.resolveAsync(String.self, name: "async-where")
            }
            let d = await Resolver.withContainer(parent) {
                await Task { Resolver.resolve(String.self, name: "where") }.value
            }
            return [await a, b, c, d]
        }
        let got: [String] = await child.resolveAsync()
        #expect(got == ["child-async", "child-async", "parent-async", "parent"])
    }
}

@Suite struct AsyncAttackExitTests {
    /// "resolveAsync(), which cannot throw, waits for the instance": a cancelled caller of a
    /// transient whose factory sleeps.
    @Test func advResolveAsyncOfATransientFromACancelledTask() async {
        await #expect(processExitsWith: .success) {
            let r = Resolver()
            r.register { () async throws -> AdvNode in
                try await Task.sleep(nanoseconds: 100_000_000)
                return AdvNode()
            }
            let task = Task { () -> AdvNode in await r.resolveAsync() }
            try? await Task.sleep(nanoseconds: 10_000_000)
            task.cancel()
            _ = await task.value
        }
    }

    /// optionalAsync() while the registration is replaced: nil or the instance, never a stop.
    @Test func advOptionalAsyncDuringReRegistrationDoesNotStop() async {
        await #expect(processExitsWith: .success) {
            let r = Resolver()
            r.register { () async -> AdvNode in AdvNode() }
            let writer = Task.detached {
                for _ in 0..<200_000 {
                    r.clearRegistration(for: AdvNode.self)
                    r.register { () async -> AdvNode in AdvNode() }
                }
            }
            for _ in 0..<40_000 { _ = await r.optionalAsync(AdvNode.self) }
            writer.cancel()
        }
    }
}

@Suite struct AsyncAttackWithContainerTests {
    /// Control: outside any factory, async withContainer binds the static twins.
    @Test func advControlWithContainerOutsideAFactory() async {
        let parent = Resolver()
        let child = Resolver(parent: parent)
        parent.register(name: "async-where") { () async -> String in "parent-async" }
        child.register(name: "async-where") { () async -> String in "child-async" }
        parent.register(name: "where") { "parent" }
        child.register(name: "where") { "child" }
        let a = await Resolver.withContainer(parent) { await Resolver.resolveAsync(String.self, name: "async-where") }
        let b = await Resolver.withContainer(child) { await Resolver.resolveAsync(String.self, name: "async-where") }
        let c = await Resolver.withContainer(parent) { await Resolver.resolveAsync(String.self, name: "where") }
        #expect([a, b, c] == ["parent-async", "child-async", "parent"])
    }

    /// Inside an async factory of `child`, `withContainer(parent)` must bind `parent`.
    @Test func advWithContainerInsideAnAsyncFactory() async {
        let parent = Resolver()
        let child = Resolver(parent: parent)
        parent.register(name: "async-where") { () async -> String in "parent-async" }
        child.register(name: "async-where") { () async -> String in "child-async" }
        parent.register(name: "where") { "parent" }
        child.register(name: "where") { "child" }
        child.register { () async -> [String] in
            let a = await Resolver.withContainer(parent) {
                await Resolver.resolveAsync(String.self, name: "async-where")
            }
            let b = await Resolver.withContainer(parent) { await Resolver.resolveAsync(String.self, name: "where") }
            let c = await Resolver.withContainer(parent) { Resolver.resolve(String.self, name: "where") }
            let d = Resolver.withContainer(parent) { Resolver.resolve(String.self, name: "where") }
            return [a, b, c, d]
        }
        let got: [String] = await child.resolveAsync()
        #expect(got == ["parent-async", "parent", "parent", "parent"])
    }
}

// MARK: - Batch 4: .graph async registrations, verifyAsync

final class AdvGraphAsync: Sendable { let serial = FxSerial.next() }
final class AdvPairUser: Sendable {
    let a: AdvGraphAsync
    let b: AdvGraphAsync
    init(a: AdvGraphAsync, b: AdvGraphAsync) { (self.a, self.b) = (a, b) }
}
final class AdvSyncNeedsAsync: Sendable {
    let node: AdvNode
    init(node: AdvNode) { self.node = node }
}
final class AdvRemote: Sendable {}

@Suite struct AsyncAttackGraphTests {
    /// An async `.graph` registration asked for twice in one resolution, sequentially: built once.
    @Test func advAsyncGraphSequentialInOneResolution() async {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .graph) { () async -> AdvGraphAsync in
            calls.increment()
            return AdvGraphAsync()
        }
        r.register { (r: Resolver) async -> AdvPairUser in
            let a: AdvGraphAsync = await r.resolveAsync()
            let b: AdvGraphAsync = await r.resolveAsync()
            return AdvPairUser(a: a, b: b)
        }
        let user: AdvPairUser = await r.resolveAsync()
        #expect(user.a === user.b)
        #expect(calls.value == 1)
    }

}

@Suite struct AsyncAttackVerifyTests {
    @Test func advVerifyAsyncWithFailuresAndStandIns() async throws {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { () async -> AdvNode in
            calls.increment()
            return AdvNode()
        }
        r.register { (r: Resolver) in AdvSyncNeedsAsync(node: r.resolve()) }  // needs the async singleton
        r.register { (r: Resolver) async throws -> AdvNeedsMissing in
            let _: AdvNeverRegistered = try await r.tryResolveAsync()
            return AdvNeedsMissing()
        }
        r.register { (r: Resolver) async throws -> AdvB in
            let _: AdvRemote = try await r.tryResolveAsync()  // provided by a stand-in below
            return AdvB()
        }
        r.register { () async throws -> AdvC in throw AdvFlaky(attempt: 0) }
        let report = await r.verifyAsync(providing: { sandbox in
            sandbox.register { () async -> AdvRemote in AdvRemote() }
        })
        let text = "\(report)"
        #expect(report.failures.count == 2, "\(text)")
        #expect(text.contains("AdvNeverRegistered"))
        #expect(text.contains("AdvC"))
        #expect(!text.contains("AdvSyncNeedsAsync") || !text.contains("async factory"), "\(text)")
        // The app's container keeps nothing.
        #expect(calls.value == 1)
        #expect((try? r.tryResolve(AdvNode.self)) == nil)
        // Concurrent verifications and app resolution.
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                group.addTask {
                    if i % 2 == 0 { _ = await r.verifyAsync() } else { _ = await r.resolveAsync(AdvNode.self) }
                }
            }
        }
        let node: AdvNode = await r.resolveAsync()
        #expect(try r.tryResolve(AdvNode.self) === node)
    }
}

/// The 200-level bound counts a path across async factories and the synchronous resolutions they
/// make as one path.
@Suite struct AsyncDepthTests {
    /// `asyncLevels` async registrations, each resolving the next, the last resolving a synchronous
    /// chain of `syncLevels`.
    private func mixedChain(asyncLevels: Int, syncLevels: Int) -> Resolver {
        let r = Resolver()
        for level in 0..<syncLevels {
            r.register(name: "sync \(level)") { (r: Resolver) throws -> Int in
                level == syncLevels - 1 ? 0 : try r.tryResolve(name: "sync \(level + 1)") + 1
            }
        }
        for level in 0..<asyncLevels {
            r.register(name: "async \(level)") { (r: Resolver) async throws -> Int in
                if level == asyncLevels - 1 { return try r.tryResolve(name: "sync 0") + 1 }
                return try await r.tryResolveAsync(name: "async \(level + 1)") + 1
            }
        }
        return r
    }

    @Test func aMixedPathDeeperThanTheBoundIsTooDeep() async {
        let r = mixedChain(asyncLevels: 120, syncLevels: 100)
        do {
            let value: Int = try await r.tryResolveAsync(name: "async 0")
            Issue.record("resolved \(value) through 220 levels")
        } catch let error as ResolutionError {
            guard case .tooDeep = error.reason else {
                Issue.record("\(error)")
                return
            }
            #expect(error.path.count <= 201, "\(error.path.count) levels")
            #expect(error.description.contains("is deeper than 200 levels"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aMixedPathWithinTheBoundResolves() async throws {
        let r = mixedChain(asyncLevels: 120, syncLevels: 70)
        let value: Int = try await r.tryResolveAsync(name: "async 0")
        #expect(value == 189)
    }
}
