import Foundation
import Syringe
import Testing

// A shared instance's async build runs in a task of its own, for every caller: its `.graph`
// instances and what it lets go belong to that build, not to the caller that started it, whose
// resolution may end first (its task cancelled, say).

private final class SbGraph {
    nonisolated(unsafe) static var count = 0  // built under the test's serial steps only
    let serial: Int
    init() {
        Self.count += 1
        serial = Self.count
    }
}
private final class SbShared: Sendable {
    let sameGraph: Bool
    init(sameGraph: Bool) { self.sameGraph = sameGraph }
}
private final class SbFirstCaller: Sendable {
    let shared: SbShared
    init(shared: SbShared) { self.shared = shared }
}
private final class SbAnswer: Sendable {}
private final class SbAsker: Sendable {
    let answer: SbAnswer
    init(answer: SbAnswer) { self.answer = answer }
}
private final class SbPart {}
private final class SbOwner: @unchecked Sendable {
    let part: SbPart
    init(part: SbPart) { self.part = part }
}
private final class SbWhole: @unchecked Sendable {
    let part: SbPart
    let owner: SbOwner
    init(part: SbPart, owner: SbOwner) {
        self.part = part
        self.owner = owner
    }
}
private final class SbMissing {}
private final class SbFailing: Sendable {}
private final class SbNeedsFailing: Sendable {
    let failing: SbFailing
    init(failing: SbFailing) { self.failing = failing }
}
private final class SbResolvesOnDeinit: @unchecked Sendable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

/// Knows whether its `initCompleted` step has ended.
private final class SbLibrary: @unchecked Sendable {
    private let lock = NSLock()
    private var isComplete = false
    var complete: Bool {
        get { lock.withLock { isComplete } }
        set { lock.withLock { isComplete = newValue } }
    }
    var catalog: SbCatalog?
}
private final class SbCatalog: Sendable {
    let library: SbLibrary
    init(library: SbLibrary) { self.library = library }
}

@Suite struct AsyncSharedBuildTests {
    /// CyclesAndBackReferences: until its step has run, a shared instance is seen only by the
    /// resolution building it, and so is every shared instance that resolution builds meanwhile;
    /// also when the instance is an async singleton's.
    @Test func anAsyncSingletonsStepPublishesWhatItBuildsOnceItHasRun() async {
        let r = Resolver()
        let inStep = DispatchSemaphore(value: 0)
        r.register(lifetime: .singleton) { () async -> SbLibrary in SbLibrary() }
            .initCompleted { (r: Resolver, library: SbLibrary) in
                library.catalog = r.resolve(SbCatalog.self)
                inStep.signal()
                Thread.sleep(forTimeInterval: 0.3)
                library.complete = true
            }
        r.register(lifetime: .singleton) { (r: Resolver) in SbCatalog(library: r.resolve()) }
        let build = Task.detached { _ = await r.resolveAsync(SbLibrary.self) }
        await withCheckedContinuation { done in
            Thread {
                inStep.wait()
                done.resume()
            }.start()
        }
        let catalog = try? r.tryResolve(SbCatalog.self)  // waits for the step, or finds no Library yet
        #expect(catalog.map { $0.library.complete } != false)
        await build.value
    }

    /// The first caller is cancelled while a second one waits: the build goes on for the second,
    /// and its `.graph` instances are still one per build.
    @Test func theGraphOfASharedBuildOutlivesItsCancelledFirstCaller() async throws {
        let r = Resolver()
        let started = AfGate()
        let gate = AfGate()
        r.register(lifetime: .graph) { SbGraph() }
        r.register(lifetime: .singleton) { (r: Resolver) async -> SbShared in
            started.open()
            await gate.wait()
            let first = r.resolve(SbGraph.self).serial  // not held
            let second = r.resolve(SbGraph.self).serial
            return SbShared(sameGraph: first == second)
        }
        r.register { (r: Resolver) async throws -> SbFirstCaller in SbFirstCaller(shared: try await r.tryResolveAsync())
        }
        let first = Task { try await r.tryResolveAsync(SbFirstCaller.self) }
        await started.wait()
        let second = Task { try await r.tryResolveAsync(SbShared.self) }
        try await Task.sleep(nanoseconds: 20_000_000)
        first.cancel()
        _ = await first.result
        gate.open()
        #expect(try await second.value.sameGraph)
    }

    /// What the build lets go is released when the build ends, also after its first caller was
    /// cancelled: a deinitializer that resolves the instance in the making waits for it (it was
    /// released at once, inside the factory, and stopped with a false cycle).
    @Test func whatASharedBuildLetsGoWaitsForItsEndAfterItsFirstCallerWasCancelled() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            let r = Resolver()
            let started = AfGate()
            let gate = AfGate()
            r.register(lifetime: .singleton) { SbResolvesOnDeinit { _ = r.resolve(SbAnswer.self) } }
            _ = r.resolve(SbResolvesOnDeinit.self)
            r.register(lifetime: .singleton) { (r: Resolver) async -> SbAnswer in
                started.open()
                await gate.wait()
                r.dropCached([SbResolvesOnDeinit.self])  // its deinitializer resolves SbAnswer
                return SbAnswer()
            }
            r.register { (r: Resolver) async throws -> SbAsker in SbAsker(answer: try await r.tryResolveAsync()) }
            let first = Task { try await r.tryResolveAsync(SbAsker.self) }
            await started.wait()
            let second = Task { try await r.tryResolveAsync(SbAnswer.self) }
            try await Task.sleep(nanoseconds: 20_000_000)
            first.cancel()
            _ = await first.result
            gate.open()
            _ = try await second.value
        }
    }

    /// A caller that joined a shared build gets its failure with its own path, not the path of the
    /// caller that started the build.
    @Test func aWaiterGetsTheFailureWithItsOwnPath() async throws {
        let r = Resolver()
        let started = AfGate()
        let gate = AfGate()
        r.register(lifetime: .singleton) { (r: Resolver) async throws -> SbFailing in
            started.open()
            await gate.wait()
            _ = try r.tryResolve(SbMissing.self)
            return SbFailing()
        }
        r.register { (r: Resolver) async throws -> SbNeedsFailing in
            SbNeedsFailing(failing: try await r.tryResolveAsync())
        }
        let first = Task { try await r.tryResolveAsync(SbNeedsFailing.self) }
        await started.wait()
        let second = Task { () -> [String] in
            do {
                _ = try await r.tryResolveAsync(SbFailing.self)
                return []
            } catch {
                return (error as? ResolutionError)?.path ?? ["not a ResolutionError"]
            }
        }
        try await Task.sleep(nanoseconds: 20_000_000)
        gate.open()
        _ = await first.result
        #expect(await second.value == ["SbFailing", "SbMissing"])
    }

    /// A shared instance built during a resolution gets that resolution's `.graph` instances, on
    /// the async path as on the synchronous one, though its build runs in a task of its own.
    @Test func aSharedBuildSharesItsCallersGraph() async {
        let r = Resolver()
        r.register(lifetime: .graph) { SbPart() }
        r.register(lifetime: .singleton) { (r: Resolver) async -> SbOwner in SbOwner(part: r.resolve()) }
        r.register { (r: Resolver) async -> SbWhole in
            let part: SbPart = r.resolve()
            return SbWhole(part: part, owner: await r.resolveAsync())
        }
        let whole: SbWhole = await r.resolveAsync()
        #expect(whole.part === whole.owner.part)
    }
}
