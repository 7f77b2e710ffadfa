import Foundation
import Syringe
import SyringeTesting
import Testing

// Async factories: registrations whose factory is `async`, resolved with `resolveAsync()` and its
// twins; each point of the rules has its tests here.

/// A database that opens asynchronously.
final class AfDatabase: Sendable {
    let path: String
    let serial = FxSerial.next()

    init(path: String) {
        self.path = path
    }

    static func open(path: String) async throws -> AfDatabase {
        await Task.yield()
        return AfDatabase(path: path)
    }
}

/// An actor-backed store that loads asynchronously.
actor AfTokenStore {
    let token: String

    init(token: String) {
        self.token = token
    }

    static func load() async -> AfTokenStore {
        await Task.yield()
        return AfTokenStore(token: "t-1")
    }
}

/// A repository over the database, built synchronously.
final class AfRepository {
    let database: AfDatabase
    init(database: AfDatabase) { self.database = database }
}

/// A service built asynchronously from a repository (synchronous) and a token store (async).
final class AfService {
    let repository: AfRepository
    let tokens: AfTokenStore
    init(repository: AfRepository, tokens: AfTokenStore) {
        self.repository = repository
        self.tokens = tokens
    }
}

final class AfNode: Sendable {
    let serial = FxSerial.next()
}

enum AfSession: Scope {}

final class AfHolder: Sendable {
    let node: AfNode
    init(node: AfNode) { self.node = node }
}

final class AfPair {
    let first: AfNode
    let second: AfNode
    init(first: AfNode, second: AfNode) {
        self.first = first
        self.second = second
    }
}

final class AfCycleA {}
final class AfCycleB {}
final class AfMissing {}
final class AfNeedsMissing {}

struct AfFailure: Error, Equatable {
    let attempt: Int
}

@globalActor actor AfActor {
    static let shared = AfActor()
}

/// Lets a test hold a factory until it says so.
/// Sleeps until the task is cancelled, however long the test takes to cancel it (on 2 cores, other
/// tests may keep the canceller from running for a long while); throws `CancellationError` then.
func afSleepUntilCancelled() async throws {
    while true { try await Task.sleep(nanoseconds: 10_000_000) }
}

/// A service whose implementation is a `Singleton`, registered without a lifetime.
protocol AfSharedService: AnyObject, Sendable {}
final class AfSingletonService: AfSharedService, Singleton {}

/// Starts a task that resolves `type` with `tryResolveAsync()`; its value is the error it threw,
/// if any.
func afTrying<T>(_ resolver: Resolver, _ type: T.Type) -> Task<(any Error)?, Never> {
    Task {
        do {
            _ = try await resolver.tryResolveAsync(type)
            return nil
        } catch {
            return error
        }
    }
}

final class AfGate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { continuation in
            lock.lock()
            if isOpen {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    func open() {
        lock.lock()
        isOpen = true
        let waiting = waiters
        waiters = []
        lock.unlock()
        for waiter in waiting { waiter.resume() }
    }
}

// MARK: - 1. Inside an async factory

@Suite struct AsyncFactoryResolutionTests {
    @Test func anAsyncFactoryResolvesSynchronousAndAsyncRegistrations() async throws {
        let r = Resolver()
        r.register(name: "dbPath") { "/tmp/app.sqlite" }
        r.register(lifetime: .singleton) { (r: Resolver) async throws -> AfDatabase in
            try await AfDatabase.open(path: r.resolve(name: "dbPath"))
        }
        r.register { () async -> AfTokenStore in await AfTokenStore.load() }
        r.register { r in AfRepository(database: r.resolve()) }
        r.register { (r: Resolver) async -> AfService in
            let tokens: AfTokenStore = await r.resolveAsync()
            await Task.yield()
            let database: AfDatabase = await r.resolveAsync()
            _ = database
            return AfService(repository: r.resolve(), tokens: tokens)
        }

        let service: AfService = await r.resolveAsync()
        #expect(service.repository.database.path == "/tmp/app.sqlite")
        #expect(service.tokens.token == "t-1")
        let again: AfDatabase = await r.resolveAsync()
        #expect(again === service.repository.database)
    }

    @Test func aCycleThroughAsyncFactoriesIsReportedWithItsPath() async {
        let r = Resolver()
        r.register { (r: Resolver) async throws -> AfCycleA in
            let _: AfCycleB = try await r.tryResolveAsync()
            return AfCycleA()
        }
        r.register { (r: Resolver) async throws -> AfCycleB in
            await Task.yield()
            let _: AfCycleA = try await r.tryResolveAsync()
            return AfCycleB()
        }
        do {
            let _: AfCycleA = try await r.tryResolveAsync()
            Issue.record("a cycle resolved")
        } catch let error as ResolutionError {
            guard case .cycle(let keys) = error.reason else {
                Issue.record("not a cycle: \(error)")
                return
            }
            #expect(keys == ["AfCycleA", "AfCycleB", "AfCycleA"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aCycleThroughASynchronousResolutionInsideAnAsyncFactoryIsReported() async {
        let r = Resolver()
        r.register { (r: Resolver) async throws -> AfCycleA in
            _ = try r.tryResolve(AfCycleB.self)
            return AfCycleA()
        }
        r.register { (r: Resolver) throws -> AfCycleB in
            // A synchronous factory cannot build the async one: the message says so.
            _ = try r.tryResolve(AfCycleA.self)
            return AfCycleB()
        }
        do {
            let _: AfCycleA = try await r.tryResolveAsync()
            Issue.record("resolved")
        } catch let error as ResolutionError {
            #expect(error.path == ["AfCycleA", "AfCycleB", "AfCycleA"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func graphInstancesAreSharedByOneAsyncResolutionAcrossSuspensionPoints() async {
        let r = Resolver()
        r.register(lifetime: .graph) { AfNode() }
        r.register { (r: Resolver) async -> AfHolder in
            await Task.yield()
            return AfHolder(node: r.resolve())
        }
        r.register { (r: Resolver) async -> AfPair in
            let first: AfNode = r.resolve()
            await Task.yield()
            let holder: AfHolder = await r.resolveAsync()
            return AfPair(first: first, second: holder.node)
        }
        let one: AfPair = await r.resolveAsync()
        let two: AfPair = await r.resolveAsync()
        #expect(one.first === one.second)
        #expect(two.first === two.second)
        #expect(one.first !== two.first)
    }

    @Test func aMissingDependencyNamesThePathAcrossAsyncFactories() async {
        let r = Resolver()
        r.register { (r: Resolver) async throws -> AfNeedsMissing in
            await Task.yield()
            _ = try r.tryResolve(AfMissing.self)
            return AfNeedsMissing()
        }
        do {
            let _: AfNeedsMissing = try await r.tryResolveAsync()
            Issue.record("resolved")
        } catch let error as ResolutionError {
            #expect(error.path == ["AfNeedsMissing", "AfMissing"])
            #expect(error.description.contains("no registration for AfMissing"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func staticCallsInsideAnAsyncFactoryUseTheContainerBuildingIt() async {
        let parent = Resolver()
        let child = Resolver(parent: parent)
        parent.register(name: "where") { "parent" }
        child.register(name: "where") { "child" }
        child.register { () async -> String in
            await Task.yield()
            return Resolver.resolve(String.self, name: "where")
        }
        let found: String = await child.resolveAsync()
        #expect(found == "child")
        #expect(Resolver.current === Resolver.root)
    }
}

// MARK: - 2. Single flight, no blocked threads

@Suite struct AsyncSingleFlightTests {
    @Test func aThousandTasksShareOneBuildOfAnAsyncSingleton() async throws {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { () async throws -> AfDatabase in
            calls.increment()
            try await Task.sleep(nanoseconds: 100_000_000)
            return AfDatabase(path: "shared")
        }
        let serials = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<1_000 {
                group.addTask {
                    let database: AfDatabase = await r.resolveAsync()
                    return database.serial
                }
            }
            return await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(calls.value == 1)
        #expect(serials.count == 1)
    }

    @Test(arguments: [Lifetime.singleton, .cached(in: AfSession.self), .timeToLive(.seconds(60)), .weak])
    func everySharingLifetimeBuildsOnceForConcurrentCallers(lifetime: Lifetime) async {
        let r = Resolver()
        let calls = FxCounter()
        let gate = AfGate()
        r.register(lifetime: lifetime) { () async -> AfNode in
            calls.increment()
            await gate.wait()
            return AfNode()
        }
        let nodes = await withTaskGroup(of: AfNode.self) { group in
            for _ in 0..<20 { group.addTask { await r.resolveAsync() } }
            try? await Task.sleep(nanoseconds: 20_000_000)
            gate.open()
            return await group.reduce(into: [AfNode]()) { $0.append($1) }
        }
        #expect(calls.value == 1)
        #expect(Set(nodes.map(ObjectIdentifier.init)).count == 1)
    }

    @Test func concurrentFirstResolutionsOfATransientEachGetTheirOwn() async {
        for _ in 0..<20 {
            let r = Resolver()
            let gate = AfGate()
            r.register { () async -> AfNode in
                await gate.wait()
                return AfNode()
            }
            let serials = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { await r.resolveAsync(AfNode.self).serial } }
                try? await Task.sleep(nanoseconds: 5_000_000)
                gate.open()
                return await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            #expect(serials.count == 8)
        }
    }

    @Test func aSynchronousResolutionDuringTheBuildDoesNotWaitForIt() async throws {
        let r = Resolver()
        let gate = AfGate()
        let started = AfGate()
        r.register(lifetime: .singleton) { () async -> AfNode in
            started.open()
            await gate.wait()
            return AfNode()
        }
        let build = Task { () -> AfNode in await r.resolveAsync() }
        await started.wait()
        #expect(throws: ResolutionError.self) { try r.tryResolve(AfNode.self) }
        do {
            _ = try r.tryResolve(AfNode.self)
        } catch {
            guard case .asyncFactory = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        gate.open()
        let built = await build.value
        #expect(try r.tryResolve(AfNode.self) === built)
    }
}

// MARK: - 3. Failure and cancellation

@Suite struct AsyncFailureTests {
    @Test func aFailedBuildFailsEveryWaiterAndKeepsNothing() async throws {
        let r = Resolver()
        let calls = FxCounter()
        let gate = AfGate()
        r.register(lifetime: .singleton) { () async throws -> AfNode in
            let attempt = calls.increment()
            if attempt == 1 {
                await gate.wait()
                throw AfFailure(attempt: attempt)
            }
            return AfNode()
        }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        let _: AfNode = try await r.tryResolveAsync()
                        return true
                    } catch let error as ResolutionError {
                        return (error.underlyingError as? AfFailure) == AfFailure(attempt: 1) ? false : true
                    } catch {
                        return true
                    }
                }
            }
            try? await Task.sleep(nanoseconds: 20_000_000)
            gate.open()
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(calls.value == 1)
        #expect(outcomes.allSatisfy { $0 == false })
        let node: AfNode = try await r.tryResolveAsync()
        #expect(calls.value == 2)
        #expect(try r.tryResolve(AfNode.self) === node)
    }

    @Test func aCancelledWaiterStopsWaitingAndTheBuildGoesOnForTheOthers() async throws {
        let r = Resolver()
        let gate = AfGate()
        let started = AfGate()
        let sawCancellation = FxCounter()
        r.register(lifetime: .singleton) { () async -> AfNode in
            started.open()
            await gate.wait()
            if Task.isCancelled { sawCancellation.increment() }
            return AfNode()
        }
        let cancelled = Task { () -> Result<AfNode, any Error> in
            do { return .success(try await r.tryResolveAsync(AfNode.self)) } catch { return .failure(error) }
        }
        await started.wait()
        let other = Task { () -> AfNode in try await r.tryResolveAsync() }
        cancelled.cancel()
        let outcome = await cancelled.value
        guard case .failure(let error) = outcome else {
            Issue.record("the cancelled waiter got an instance")
            return
        }
        #expect(error is CancellationError)
        gate.open()
        let node = try await other.value
        #expect(sawCancellation.value == 0)
        #expect(try r.tryResolve(AfNode.self) === node)
    }
}

// MARK: - 4. Isolation

@AfActor final class AfActorBound {
    init() { AfActor.shared.assertIsolated() }
}

@MainActor final class AfViewModel {
    let tokens: AfTokenStore
    init(tokens: AfTokenStore) { self.tokens = tokens }
}

@Suite struct AsyncIsolationTests {
    @Test func anAsyncFactoryRunsInItsIsolationWhereverItIsResolvedFrom() async {
        let r = Resolver()
        r.register(lifetime: .singleton) { @AfActor () async -> AfActorBound in AfActorBound() }
        let bound = await Task.detached { () -> AfActorBound in await r.resolveAsync() }.value
        let again: AfActorBound = await r.resolveAsync()
        #expect(bound === again)
    }

    @Test func aMainActorAsyncFactoryResolvesFromNonisolatedCode() async {
        let r = Resolver()
        r.register { () async -> AfTokenStore in await AfTokenStore.load() }
        r.register { @MainActor (r: Resolver) async -> AfViewModel in
            MainActor.assertIsolated()
            return AfViewModel(tokens: await r.resolveAsync())
        }
        let model = await Task.detached { () -> AfViewModel in await r.resolveAsync() }.value
        #expect(model.tokens.token == "t-1")
    }
}

// MARK: - 5. Mixing synchronous and async resolution

@Suite struct AsyncMixingTests {
    @Test func aBuiltAsyncSingletonIsReturnedBySynchronousResolutionAndWrappers() async {
        let r = Resolver()
        r.register(lifetime: .singleton) { () async throws -> AfDatabase in try await AfDatabase.open(path: "db") }
        let warmed: AfDatabase = await r.resolveAsync()
        #expect(r.resolve(AfDatabase.self) === warmed)
        #expect(r.optional(AfDatabase.self) === warmed)
        r.register { r in AfRepository(database: r.resolve()) }
        #expect(r.resolve(AfRepository.self).database === warmed)
        Resolver.withContainer(r) {
            @Inject var database: AfDatabase
            #expect(database === warmed)
        }
    }

    @Test func aSynchronousResolutionOfAnUnbuiltAsyncRegistrationThrowsWhatToWrite() throws {
        let r = Resolver()
        r.register { () async -> AfTokenStore in await AfTokenStore.load() }
        r.register { r in
            AfService(repository: AfRepository(database: AfDatabase(path: "x")), tokens: try r.tryResolve())
        }
        do {
            _ = try r.tryResolve(AfTokenStore.self)
            Issue.record("resolved")
        } catch {
            guard case .asyncFactory = error.reason else { throw error }
            #expect(error.description.contains("AfTokenStore has an async factory"))
            #expect(error.description.contains("await resolver.resolveAsync()"))
        }
        do {
            _ = try r.tryResolve(AfService.self)
            Issue.record("resolved")
        } catch {
            guard case .asyncFactory = error.reason else { throw error }
            #expect(error.path == ["AfService", "AfTokenStore"])
        }
    }

    @Test func aTransientAsyncRegistrationIsNeverServedSynchronously() async {
        let r = Resolver()
        r.register { () async -> AfNode in AfNode() }
        let _: AfNode = await r.resolveAsync()
        #expect(throws: ResolutionError.self) { try r.tryResolve(AfNode.self) }
    }

    @Test func optionalDoesNotHideAnUnbuiltAsyncRegistration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { () async -> AfTokenStore in await AfTokenStore.load() }
            _ = r.optional(AfTokenStore.self)
        }
        #expect(fxStderr(result).contains("AfTokenStore has an async factory"))
    }

    @Test func resolveStopsOnAnUnbuiltAsyncRegistrationWithTheFix() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register(lifetime: .singleton) { () async -> AfTokenStore in await AfTokenStore.load() }
            _ = r.resolve(AfTokenStore.self)
        }
        let text = fxStderr(result)
        #expect(text.contains("AfTokenStore has an async factory"))
        #expect(text.contains("resolveAsync()"))
    }

    @Test func optionalAsyncIsNilOnlyWhenNothingIsRegistered() async {
        let r = Resolver()
        #expect(await r.optionalAsync(AfNode.self) == nil)
        r.register { () async -> AfNode in AfNode() }
        #expect(await r.optionalAsync(AfNode.self) != nil)
    }

    @Test func resolveAllAsyncBuildsEveryRegistrationOfTheType() async {
        let r = Resolver()
        r.register(name: "sync") { AfNode() }
        r.register(name: "async") { () async -> AfNode in AfNode() }
        let all: [AfNode] = await r.resolveAllAsync()
        #expect(all.count == 2)
    }

    @Test func staticTwinsResolveFromCurrent() async throws {
        let r = Resolver()
        r.register(name: "static") { () async -> String in "from r" }
        try await Resolver.withContainer(r) {
            let value: String = await Resolver.resolveAsync(name: "static")
            #expect(value == "from r")
            let tried = try await Resolver.tryResolveAsync(String.self, name: "static")
            #expect(tried == "from r")
            #expect(await Resolver.optionalAsync(String.self, name: "missing") == nil)
        }
    }

    @Test func argumentsReachAnAsyncFactory() async throws {
        let r = Resolver()
        r.register(arguments: String.self, Int.self) { (path: String, size: Int) async -> AfDatabase in
            AfDatabase(path: "\(path)#\(size)")
        }
        let database: AfDatabase = await r.resolveAsync(arguments: "db", 3)
        #expect(database.path == "db#3")
        let other: AfDatabase = try await r.tryResolveAsync(arguments: "x", 1)
        #expect(other.path == "x#1")
    }
}

// MARK: - 6. Everything else applies

@Suite struct AsyncLifetimeTests {
    @Test func initCompletedStepsRunOnAnAsyncRegistration() async {
        let r = Resolver()
        r.register(lifetime: .singleton) { () async -> AfNode in AfNode() }
        r.register { () async -> AfPair in AfPair(first: AfNode(), second: AfNode()) }
        let seen = FxCounter()
        r.register(lifetime: .singleton) { () async -> AfDatabase in AfDatabase(path: "steps") }
            .initCompleted { r, database in
                seen.increment()
                #expect(r.resolve(AfDatabase.self) === database)
            }
        let database: AfDatabase = await r.resolveAsync()
        #expect(seen.value == 1)
        #expect(r.resolve(AfDatabase.self) === database)
    }

    @Test func dropCachedAndClearRegistrationApply() async {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { () async -> AfNode in
            calls.increment()
            return AfNode()
        }
        let first: AfNode = await r.resolveAsync()
        r.dropCached([AfNode.self])
        let second: AfNode = await r.resolveAsync()
        #expect(first !== second)
        #expect(calls.value == 2)
        r.clearRegistration(for: AfNode.self)
        #expect(await r.optionalAsync(AfNode.self) == nil)
    }

    @Test func anAsyncSingletonBuiltInATestContainerStaysThere() async {
        let app = Resolver()
        app.register(lifetime: .singleton) { () async -> AfNode in AfNode() }
        let test = Resolver(isolatedChildOf: app)
        let inTest: AfNode = await test.resolveAsync()
        let inApp: AfNode = await app.resolveAsync()
        #expect(inTest !== inApp)
        #expect(test.resolve(AfNode.self) === inTest)
    }

    @Test func qualifiersNamesAndScopesApply() async {
        let r = Resolver()
        r.register(name: "a", lifetime: .singleton) { () async -> AfNode in AfNode() }
        r.register(name: "b", lifetime: .singleton) { () async -> AfNode in AfNode() }
        let a: AfNode = await r.resolveAsync(name: "a")
        let b: AfNode = await r.resolveAsync(name: "b")
        #expect(a !== b)
        #expect(await r.resolveAsync(AfNode.self, name: "a") === a)
    }

    @Test func deinitializersRunWhenAnAsyncSingletonIsDropped() async {
        final class Tracked {
            static let released = FxCounter()
            deinit { Self.released.increment() }
        }
        let r = Resolver()
        r.register(lifetime: .singleton) { () async -> Tracked in Tracked() }
        _ = await r.resolveAsync(Tracked.self)
        #expect(Tracked.released.value == 0)
        r.dropCached([Tracked.self])
        #expect(Tracked.released.value == 1)
    }
}

// MARK: - 5. verify() and verifyAsync()

@Suite struct AsyncVerificationTests {
    /// An async factory that resolves from a container it captured (the verified one) builds in
    /// the run's container: the verified container's singletons are left for the app to build.
    @Test func verifyAsyncLeavesTheSingletonsOfACapturedContainerUntouched() async {
        let c = Resolver()
        let builds = FxCounter()
        c.register(lifetime: .singleton) { () -> AfNode in
            builds.increment()
            return AfNode()
        }
        c.register { () async -> AfHolder in AfHolder(node: c.resolve()) }
        c.register(name: "async") { () async -> AfHolder in AfHolder(node: await c.resolveAsync()) }
        c.register(name: "bound") { () async -> AfHolder in AfHolder(node: Resolver.resolve()) }
        let report = await c.verifyAsync()
        #expect(report.isValid, "\(report)")
        let built = builds.value
        let node: AfNode = c.resolve()
        #expect(builds.value == built + 1)  // the app's own, built now
        let holder: AfHolder = await c.resolveAsync()
        #expect(holder.node === node)
    }

    @Test func verifyListsAsyncRegistrationsAsNotBuilt() {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { () async -> AfNode in
            calls.increment()
            return AfNode()
        }
        r.register { AfMissing() }
        let report = r.verify()
        #expect(report.isValid)
        #expect(report.skipped == ["AfNode"])
        #expect(report.description.contains("skipped (async factories; verifyAsync() builds them): AfNode"))
        #expect(calls.value == 0)
    }

    @Test func verifyAsyncBuildsAsyncRegistrationsAndReportsEveryFailure() async {
        let r = Resolver()
        let calls = FxCounter()
        r.register(lifetime: .singleton) { () async throws -> AfDatabase in
            calls.increment()
            return try await AfDatabase.open(path: "verified")
        }
        r.register { r in AfRepository(database: r.resolve()) }
        r.register { () async throws -> AfTokenStore in throw AfFailure(attempt: 0) }
        r.register { () async -> AfNode in AfNode() }
        r.register { r throws in AfHolder(node: try r.tryResolve()) }
        let report = await r.verifyAsync()
        #expect(calls.value == 1)
        #expect(Set(report.verified) == ["AfDatabase", "AfRepository", "AfNode"])
        #expect(report.failures.count == 2)
        let reasons = report.failures.map(\.requested)
        #expect(reasons.contains("AfTokenStore"))
        #expect(report.description.contains("AfHolder"))
        // Nothing is left behind in the verified container.
        #expect(throws: ResolutionError.self) { try r.tryResolve(AfDatabase.self) }
    }

    @Test func expectValidAsyncRecordsTheReport() async {
        let r = Resolver()
        r.register(lifetime: .singleton) { () async -> AfNode in AfNode() }
        let report = await r.expectValidAsync()
        #expect(report.isValid)
        #expect(report.verified == ["AfNode"])
    }
}

// MARK: - Forms, edges and attacks

protocol AfStoring: AnyObject, Sendable {}
final class AfStoreImpl: AfStoring {}
enum AfFlow: Scope {}

/// An async factory `depth` levels deep, each resolving the next with `resolveAsync()`.
final class AfLevel: Sendable {
    let next: AfLevel?
    init(next: AfLevel?) { self.next = next }
}

private func afRegisterAsyncChain(in r: Resolver, levels: Int) {
    for level in 0..<levels {
        r.register(name: "\(level)") { (r: Resolver) async throws -> AfLevel in
            guard level + 1 < levels else { return AfLevel(next: nil) }
            let next: AfLevel = try await r.tryResolveAsync(name: "\(level + 1)")
            return AfLevel(next: next)
        }
    }
}

@Suite struct AsyncFormsTests {
    @Test func implementsServesTheProtocolAsync() async throws {
        let r = Resolver()
        r.register(lifetime: .singleton) { () async -> AfStoreImpl in AfStoreImpl() }
            .implements(AfStoring.self)
        #expect(throws: ResolutionError.self) { try r.tryResolve(AfStoring.self) }
        let store: AfStoring = await r.resolveAsync()
        #expect(store is AfStoreImpl)
        #expect(try r.tryResolve(AfStoring.self) === store)
        #expect(r.resolve(AfStoreImpl.self) === store)
    }

    @Test func chainedRegistrationsTakeAsyncFactories() async {
        let r = Resolver()
        r.register { AfStoreImpl() }
            .register(lifetime: .singleton) { () async -> AfNode in AfNode() }
            .register { (r: Resolver) async -> AfHolder in AfHolder(node: await r.resolveAsync()) }
            .register(arguments: Int.self) { (size: Int) async -> AfDatabase in AfDatabase(path: "#\(size)") }
            .register(scopedTo: AfFlow.self) { () async -> AfLevel in AfLevel(next: nil) }
        let holder: AfHolder = await r.resolveAsync()
        #expect(holder.node === r.resolve(AfNode.self))
        #expect(await r.resolveAsync(AfDatabase.self, arguments: 2).path == "#2")
        #expect(await r.optionalAsync(AfLevel.self, scopedTo: AfFlow.self) != nil)
    }

    @Test func scopedAsyncRegistrationsShareWithinTheScope() async {
        let r = Resolver()
        r.register(scopedTo: AfFlow.self) { () async -> AfNode in AfNode() }
        let one: AfNode = await r.resolveAsync(scopedTo: AfFlow.self)
        let two: AfNode = await r.resolveAsync(scopedTo: AfFlow.self)
        #expect(one === two)
        r.dropCached(scopedTo: AfFlow.self)
        let three: AfNode = await r.resolveAsync(scopedTo: AfFlow.self)
        #expect(three !== one)
    }

    @Test func aWeakAsyncRegistrationIsSharedWhileHeld() async {
        let r = Resolver()
        r.register(lifetime: .weak) { () async -> AfNode in AfNode() }
        var held: AfNode? = await r.resolveAsync()
        let serial = held!.serial
        #expect(await r.resolveAsync(AfNode.self).serial == serial)
        held = nil
        #expect(await r.resolveAsync(AfNode.self).serial != serial)
    }

    @Test func staticRegistrationTwinsRegisterInCurrent() async {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(lifetime: .singleton) { () async -> AfNode in AfNode() }
            Resolver.register { (r: Resolver) async -> AfHolder in AfHolder(node: await r.resolveAsync()) }
            Resolver.register(arguments: Int.self) { (size: Int) async -> AfDatabase in AfDatabase(path: "#\(size)") }
        }
        let holder: AfHolder = await r.resolveAsync()
        #expect(holder.node === r.resolve(AfNode.self))
        #expect(await r.resolveAsync(AfDatabase.self, arguments: 4).path == "#4")
    }

    @Test func theDependencyGraphMarksAsyncRegistrations() async {
        let r = Resolver(id: "af-graph-\(FxSerial.next())")
        r.register(lifetime: .singleton) { () async -> AfNode in AfNode() }
        r.register { (r: Resolver) async -> AfHolder in AfHolder(node: await r.resolveAsync()) }
        let _: AfHolder = await r.resolveAsync()
        let graph = r.dependencyGraph()
        #expect(graph.nodes.allSatisfy { $0.isAsync })
        #expect(graph.mermaid.contains("(singleton, async)"))
        #expect(graph.edges.count == 1)
    }

    @Test func aDeepChainOfAsyncFactoriesResolvesAndARunawayOneStops() async throws {
        let r = Resolver()
        afRegisterAsyncChain(in: r, levels: 150)
        var level: AfLevel? = try await r.tryResolveAsync(name: "0")
        var count = 0
        while let current = level {
            count += 1
            level = current.next
        }
        #expect(count == 150)

        let runaway = Resolver()
        afRegisterAsyncChain(in: runaway, levels: 400)
        do {
            let _: AfLevel = try await runaway.tryResolveAsync(name: "0")
            Issue.record("resolved")
        } catch let error as ResolutionError {
            guard case .tooDeep = error.reason else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test func concurrentChildTasksOfOneFactoryShareItsGraphInstances() async {
        let r = Resolver()
        r.register(lifetime: .graph) { AfNode() }
        r.register { (r: Resolver) async -> [AfNode] in
            await withTaskGroup(of: AfNode.self) { group in
                for _ in 0..<16 { group.addTask { r.resolve(AfNode.self) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        for _ in 0..<20 {
            let nodes: [AfNode] = await r.resolveAsync()
            #expect(Set(nodes.map(ObjectIdentifier.init)).count == 1)
        }
    }

    @Test func manyTasksResolveAsyncTransientsAndSingletonsAtOnce() async {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .singleton) { () async -> AfDatabase in
            built.increment()
            await Task.yield()
            return AfDatabase(path: "shared")
        }
        r.register { (r: Resolver) async -> AfRepository in AfRepository(database: await r.resolveAsync()) }
        let databases = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<500 {
                group.addTask { ObjectIdentifier(await r.resolveAsync(AfRepository.self).database) }
            }
            return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(databases.count == 1)
        #expect(built.value == 1)
    }

    @Test func aSynchronousResolveOfABuiltAsyncSingletonWorksInsideAnAsyncFactory() async {
        let r = Resolver()
        r.register(lifetime: .singleton) { () async -> AfNode in AfNode() }
        r.register { (r: Resolver) async -> AfHolder in
            let _: AfNode = await r.resolveAsync()
            return AfHolder(node: r.resolve())
        }
        let holder: AfHolder = await r.resolveAsync()
        #expect(holder.node === r.resolve(AfNode.self))
    }

    @Test func aStopInsideAnAsyncResolutionIsReportedWhereItBegan() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { (r: Resolver) async -> AfNeedsMissing in
                await Task.yield()
                _ = r.resolve(AfMissing.self)
                return AfNeedsMissing()
            }
            let _: AfNeedsMissing = await r.resolveAsync()
        }
        let text = fxStderr(result)
        #expect(text.contains("no registration for AfMissing"))
        #expect(text.contains("while resolving AfNeedsMissing → AfMissing"))
        #expect(text.contains("AsyncFactoryTests.swift"))
    }
}

@MainActor private func afRegisterFromMainActorCode(in r: Resolver) {
    // No annotation: the closure is main-actor code, as every closure written here is.
    r.register(lifetime: .singleton) { () async -> AfViewModel in
        MainActor.assertIsolated()
        return AfViewModel(tokens: await AfTokenStore.load())
    }
}

@Suite struct AsyncContextTests {
    @Test func aFactoryWrittenInMainActorCodeRunsThereFromADetachedTask() async {
        let r = Resolver()
        await afRegisterFromMainActorCode(in: r)
        let model = await Task.detached { () -> AfViewModel in await r.resolveAsync() }.value
        #expect(model.tokens.token == "t-1")
    }

    @Test(.isolatedResolver) func anAsyncSingletonBuiltInAnIsolatedTestStaysThere() async {
        Resolver.register(lifetime: .singleton) { () async -> AfNode in AfNode() }
        let node: AfNode = await Resolver.resolveAsync()
        #expect(Resolver.resolve(AfNode.self) === node)
        #expect(Resolver.current !== Resolver.main)
    }

    @Test func aTaskStartedInsideAnAsyncFactoryKeepsItsContainer() async {
        let parent = Resolver()
        let child = Resolver(parent: parent)
        child.register(name: "where") { "child" }
        parent.register(name: "where") { "parent" }
        child.register { () async -> String in
            await Task { Resolver.resolve(String.self, name: "where") }.value
        }
        #expect(await child.resolveAsync(String.self) == "child")
    }
}

final class AfLoopA: Sendable {}
final class AfLoopB: Sendable {}

/// Resumes a continuation once, from whichever side comes first.
final class AfOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = continuation
    }

    func resume(_ value: Bool) {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume(returning: value)
    }
}

/// How long a test waits before it calls its body hung: long, since under the thread sanitizer a
/// whole run in parallel on two cores can keep a task from running for a minute or more.
let afHangLimit = 300.0

/// Whether `body` finishes within `seconds`: the watchdog of a test that would otherwise hang
/// the run (a hung body is left suspended).
func afFinishes(within seconds: Double, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    await withCheckedContinuation { continuation in
        let once = AfOnce(continuation)
        Task {
            await body()
            once.resume(true)
        }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            once.resume(false)
        }
    }
}

@Suite struct AsyncWaitLoopTests {
    /// Two async singletons that need each other, first resolved by two tasks at the same moment:
    /// each build waits for the other's; the second wait closes the loop and is reported as a
    /// cycle, which fails both builds instead of leaving both tasks suspended.
    @Test func twoTasksWhoseSingletonsNeedEachOtherGetACycleNotAHang() async {
        let finished = await afFinishes(within: afHangLimit) { await Self.resolveLoopingPairs() }
        #expect(finished, "the two tasks waited for each other")
    }

    private static func resolveLoopingPairs() async {
        for _ in 0..<20 {
            let r = Resolver()
            let bothStarted = AfGate()
            let started = FxCounter()
            r.register(lifetime: .singleton) { (r: Resolver) async throws -> AfLoopA in
                if started.increment() == 2 { bothStarted.open() }
                await bothStarted.wait()
                let _: AfLoopB = try await r.tryResolveAsync()
                return AfLoopA()
            }
            r.register(lifetime: .singleton) { (r: Resolver) async throws -> AfLoopB in
                if started.increment() == 2 { bothStarted.open() }
                await bothStarted.wait()
                let _: AfLoopA = try await r.tryResolveAsync()
                return AfLoopB()
            }
            async let a: Result<AfLoopA, any Error> = {
                do { return .success(try await r.tryResolveAsync()) } catch { return .failure(error) }
            }()
            async let b: Result<AfLoopB, any Error> = {
                do { return .success(try await r.tryResolveAsync()) } catch { return .failure(error) }
            }()
            let outcomes = await [a.map { $0 as AnyObject }, b.map { $0 as AnyObject }]
            for outcome in outcomes {
                guard case .failure(let error as ResolutionError) = outcome, case .cycle = error.reason else {
                    Issue.record("expected a cycle, got \(outcome)")
                    continue
                }
                // The loop, closed: it ends where it starts.
                let text = error.description
                #expect(
                    text.contains("cycle: AfLoopA → AfLoopB → AfLoopA")
                        || text.contains("cycle: AfLoopB → AfLoopA → AfLoopB"), "\(text)")
            }
        }
    }
}

@Suite struct AsyncCancellationTests {
    /// An unshared build runs in the caller's task and sees its cancellation: `tryResolveAsync`
    /// throws `CancellationError` itself; `resolveAsync`, which cannot throw, builds again in a
    /// task no cancellation reaches.
    @Test func aCancelledCallerOfATransientGetsCancellationErrorOrTheInstance() async {
        let r = Resolver()
        let calls = FxCounter()
        let started = [AfGate(), AfGate()]
        r.register { () async throws -> AfNode in
            let call = calls.increment()
            guard call <= 2 else { return AfNode() }  // the build made again, uncancelled
            started[call - 1].open()
            try await afSleepUntilCancelled()
            return AfNode()
        }
        let tried = afTrying(r, AfNode.self)
        await started[0].wait()
        tried.cancel()
        let error = await tried.value
        #expect(error is CancellationError, "got \(String(describing: error))")

        let resolved = Task { () -> AfNode in await r.resolveAsync() }
        await started[1].wait()
        resolved.cancel()
        _ = await resolved.value
        #expect(calls.value == 3)
    }

    /// Another caller waits for the first build of a transient (to see whether it is a
    /// `Singleton`); when the first caller's task is cancelled and its build gives up, the
    /// waiter, not cancelled, builds its own instead of failing.
    @Test func aWaiterOfAFirstBuildWhoseCallerIsCancelledBuildsItsOwn() async {
        let r = Resolver()
        let started = AfGate()
        let calls = FxCounter()
        r.register { () async throws -> AfNode in
            guard calls.increment() == 1 else { return AfNode() }
            started.open()
            try await afSleepUntilCancelled()
            return AfNode()
        }
        let first = afTrying(r, AfNode.self)
        await started.wait()
        let waiting = Task { () -> AfNode in await r.resolveAsync() }
        let trying = Task { () -> AfNode in try await r.tryResolveAsync() }
        try? await Task.sleep(nanoseconds: 50_000_000)  // the two wait for the first build (or not yet)
        first.cancel()
        #expect(await first.value is CancellationError)
        _ = await waiting.value
        await #expect(throws: Never.self) { _ = try await trying.value }
    }

    /// A `Singleton` behind a transient registration is built once however many wait for its first
    /// build: when that build gives up (its caller cancelled), one waiter builds it again while the
    /// others wait for that build.
    @Test func aSingletonBehindATransientRegistrationIsBuiltOnceAfterItsFirstBuildGivesUp() async {
        let r = Resolver()
        let started = AfGate()
        let calls = FxCounter()
        r.register { () async throws -> AfSharedService in
            guard calls.increment() == 1 else {
                try await Task.sleep(nanoseconds: 50_000_000)  // the others join this build meanwhile
                return AfSingletonService()
            }
            started.open()
            try await afSleepUntilCancelled()
            return AfSingletonService()
        }
        let first = afTrying(r, AfSharedService.self)
        await started.wait()
        let waiters = (0..<10).map { _ in Task { () -> AfSharedService in await r.resolveAsync() } }
        try? await Task.sleep(nanoseconds: 50_000_000)
        first.cancel()
        #expect(await first.value is CancellationError)
        var instances: [AfSharedService] = []
        for waiter in waiters { instances.append(await waiter.value) }
        #expect(instances.allSatisfy { $0 === instances[0] })
        #expect(calls.value == 2)
    }

    /// The first instance of a transient registration is built in the caller's task too (it
    /// decides whether its type is a `Singleton`), and sees that the task is cancelled.
    @Test func theFirstBuildOfATransientSeesItsCallersCancellation() async {
        let r = Resolver()
        let seen = FxCounter()
        let calls = FxCounter()
        r.register { () async throws -> AfNode in
            calls.increment()
            if Task.isCancelled { seen.increment() }
            try Task.checkCancellation()
            return AfNode()
        }
        let tried = Task { () -> (any Error)? in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                _ = try await r.tryResolveAsync(AfNode.self)
                return nil
            } catch {
                return error
            }
        }
        let error = await tried.value
        #expect(error is CancellationError, "got \(String(describing: error))")
        #expect(seen.value == 1)
        let resolved = Task { () -> AfNode in
            withUnsafeCurrentTask { $0?.cancel() }
            return await r.resolveAsync()
        }
        _ = await resolved.value
        #expect(seen.value == 2)  // in the caller's task; then built again where no cancellation reaches
        #expect(calls.value == 3)
    }
}
