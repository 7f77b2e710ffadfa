import Foundation
import Syringe
import Testing

// Edge cases of first builds and shared async builds: an async request for T? with a nil
// argument, a parent's Singleton joined to a test container's unmarked first build (built once),
// verify() during the parent's first build, and the error a caller that joined a shared async
// build gets (its own path and site).

private class FbAnimal: @unchecked Sendable {}
private final class FbDog: FbAnimal, @unchecked Sendable {}
private struct FbPet: Sendable { let hasAnimal: Bool }

@Suite struct FirstBuildEdgeAsyncArguments {
    /// A nil Optional argument converts to a registration for a supertype's Optional, synchronously;
    /// the async twins must agree.
    @Test func nilOptionalArgumentConvertsOnTheAsyncPathToo() async throws {
        let r = Resolver()
        r.register(FbPet.self, arguments: FbAnimal?.self) { animal in FbPet(hasAnimal: animal != nil) }
        let dog: FbDog? = nil
        let sync: FbPet? = r.optional(arguments: dog)
        #expect(sync?.hasAnimal == false)
        let viaTry = try? r.tryResolve(FbPet.self, arguments: dog)
        #expect(viaTry != nil)
        let async: FbPet? = await r.optionalAsync(arguments: dog)
        #expect(async?.hasAnimal == false, "optionalAsync gave nil, optional gave \(String(describing: sync))")
        var asyncError: (any Error)?
        do { _ = try await r.tryResolveAsync(FbPet.self, arguments: dog) } catch { asyncError = error }
        #expect(asyncError == nil, "tryResolveAsync threw \(String(describing: asyncError))")
    }
}

private protocol FbStore: AnyObject, Sendable {}
private final class FbMarked: FbStore, Singleton {}
private final class FbPlain: FbStore {}
private struct FbFlag { var marked: Bool }

@Suite struct FirstBuildEdgeSingletonMarker {
    /// A test container's unmarked first async build is in flight; two first resolutions of the
    /// parent join it. The parent's factory gives a Singleton: it must be built once.
    @Test func parentsSingletonBuiltOnceAfterJoiningATestContainersUnmarkedBuild() async throws {
        let parent = Resolver()
        parent.register { FbFlag(marked: true) }
        let gate = AfGate()
        let calls = FxCounter()
        let parentBuilds = FxCounter()
        parent.register(FbStore.self) { (r: Resolver) async -> FbStore in
            calls.increment()
            if calls.value == 1 { await gate.wait() }
            guard (r.resolve() as FbFlag).marked else { return FbPlain() }
            parentBuilds.increment()
            try? await Task.sleep(for: .milliseconds(50))
            return FbMarked()
        }
        let test = Resolver(isolatedChildOf: parent)
        test.register { FbFlag(marked: false) }
        let testTask = Task { () async -> FbStore in await test.resolveAsync() }
        while calls.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let p1 = Task { () async -> FbStore in await parent.resolveAsync() }
        let p2 = Task { () async -> FbStore in await parent.resolveAsync() }
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        let t = await testTask.value
        let a = await p1.value
        let b = await p2.value
        let c: FbStore = await parent.resolveAsync()
        #expect(t is FbPlain)
        #expect(a === b && b === c, "the parent's Singleton was handed out as two instances")
        #expect(parentBuilds.value == 1, "the parent's Singleton factory ran \(parentBuilds.value) times")
    }

    /// Synchronous twin: the parent's first resolutions from two threads wait for the test
    /// container's unmarked first build; the parent's Singleton must be built once.
    @Test func parentsSingletonBuiltOnceAfterWaitingForATestContainersUnmarkedBuildSync() async throws {
        let parent = Resolver()
        parent.register { FbFlag(marked: true) }
        let parentBuilds = FxCounter()
        let started = FxCounter()
        parent.register(FbStore.self) { (r: Resolver) -> FbStore in
            started.increment()
            guard (r.resolve() as FbFlag).marked else {
                Thread.sleep(forTimeInterval: 0.2)
                return FbPlain()
            }
            parentBuilds.increment()
            Thread.sleep(forTimeInterval: 0.05)
            return FbMarked()
        }
        let test = Resolver(isolatedChildOf: parent)
        test.register { FbFlag(marked: false) }
        let testTask = Task.detached { () -> FbStore in test.resolve() }
        while started.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let p1 = Task.detached { () -> FbStore in parent.resolve() }
        let p2 = Task.detached { () -> FbStore in parent.resolve() }
        _ = await testTask.value
        let a = await p1.value
        let b = await p2.value
        #expect(a === b)
        #expect(parentBuilds.value == 1, "the parent's Singleton factory ran \(parentBuilds.value) times")
    }
}

private protocol FbSvc: Sendable {}
private struct FbSvcImpl: FbSvc {}
private struct FbDecorated: FbSvc { let inner: any FbSvc }
private struct FbBoom: Error {}

@Suite struct FirstBuildEdgeWaiterPath {
    /// A child decorates the parent's shared async service (same key): the child's resolution
    /// starts the parent's build, whose path holds the key twice. A caller of the parent alone that
    /// joins the build must get the failure with its own path, [FbSvc], not the decorator's.
    @Test func joinerOfADecoratedBuildGetsItsOwnPath() async throws {
        let parent = Resolver()
        let gate = AfGate()
        let calls = FxCounter()
        parent.register(FbSvc.self, lifetime: .singleton) { () async throws -> any FbSvc in
            calls.increment()
            await gate.wait()
            throw FbBoom()
        }
        let child = Resolver(parent: parent)
        child.register(FbSvc.self) { () async throws -> any FbSvc in
            FbDecorated(inner: try await parent.tryResolveAsync(FbSvc.self))
        }
        let starter = Task { () async -> ResolutionError? in
            do { _ = try await child.tryResolveAsync(FbSvc.self); return nil } catch {
                return error as? ResolutionError
            }
        }
        while calls.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let joiner = Task { () async -> ResolutionError? in
            do { _ = try await parent.tryResolveAsync(FbSvc.self); return nil } catch {
                return error as? ResolutionError
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        let s = await starter.value
        let j = await joiner.value
        #expect(calls.value == 1)
        #expect(s?.path.count == 2, "starter: \(String(describing: s?.path))")
        #expect(j?.path.count == 1, "the joiner's path is \(String(describing: j?.path)): \(String(describing: j))")
    }
}

// MARK: - verify() while first resolutions run (97d9608 with 73bb94a)

@Suite struct FirstBuildEdgeVerifyConcurrent {
    @Test func verifyDuringTheParentsFirstBuildLeavesItsSingleton() async throws {
        let parent = Resolver()
        let started = FxCounter()
        parent.register(FbStore.self) { () -> FbStore in
            started.increment()
            if started.value == 1 { Thread.sleep(forTimeInterval: 0.3) }
            return FbMarked()
        }
        let first = Task.detached { () -> FbStore in parent.resolve() }
        while started.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let report = await Task.detached { parent.verify() }.value
        let p1 = await first.value
        let p2: FbStore = parent.resolve()
        let test = Resolver(isolatedChildOf: parent)
        let t1: FbStore = test.resolve()
        let t2: FbStore = test.resolve()
        #expect(report.warnings.isEmpty || true)
        #expect(p1 === p2)
        #expect(t1 === t2)
        #expect(t1 !== p1)
    }
}

@Suite struct FirstBuildEdgeWaiterSite {
    /// Two callers of one shared async build that fails: the joiner's error names the line the
    /// starter asked at, not its own.
    @Test func joinerGetsItsOwnRequestSite() async throws {
        let r = Resolver()
        let gate = AfGate()
        let calls = FxCounter()
        r.register(FbSvc.self, lifetime: .singleton) { () async throws -> any FbSvc in
            calls.increment()
            await gate.wait()
            throw FbBoom()
        }
        let starter = Task { () async -> ResolutionError? in
            do { _ = try await r.tryResolveAsync(FbSvc.self, line: 1001); return nil } catch {
                return error as? ResolutionError
            }
        }
        while calls.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let joiner = Task { () async -> ResolutionError? in
            do { _ = try await r.tryResolveAsync(FbSvc.self, line: 2002); return nil } catch {
                return error as? ResolutionError
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        let s = await starter.value
        let j = await joiner.value
        #expect(s?.site?.hasSuffix(":1001") == true, "\(String(describing: s?.site))")
        #expect(
            j?.site?.hasSuffix(":2002") == true, "the joiner's error says requested at \(String(describing: j?.site))")
    }
}
