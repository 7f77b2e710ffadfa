import Syringe
import Testing

// A registration whose type does not tell whether its instances are `Singleton`s (a protocol) is
// decided by its first instance. A test container (an isolating child) decides for itself: its
// first instance never fixes the lifetime its parent or another test container sees, and the
// parent's decision never takes the test container's instance away.

private protocol SmStore: AnyObject, Sendable {}
private final class SmMarkedStore: SmStore, Singleton {}
private final class SmPlainStore: SmStore {}
/// Which kind of store the registration's factory builds.
private struct SmFlag {
    var marked: Bool
}

private func smRegister(in r: Resolver) {
    r.register(SmStore.self) { SmMarkedStore() }
}

/// Registers a store whose kind the container's `SmFlag` decides.
private func smRegisterByFlag(in r: Resolver) {
    r.register(SmStore.self) { r in
        (r.resolve() as SmFlag).marked ? SmMarkedStore() as SmStore : SmPlainStore() as SmStore
    }
}

@Suite struct SingletonMarkerTests {
    @Test func aTestContainerDecidingFirstLeavesTheParentASingleton() {
        let parent = Resolver()
        smRegister(in: parent)
        let test = Resolver(isolatedChildOf: parent)
        let t1: SmStore = test.resolve()
        let t2: SmStore = test.resolve()
        #expect(t1 === t2)
        let p1: SmStore = parent.resolve()
        let p2: SmStore = parent.resolve()
        #expect(p1 === p2)
        #expect(p1 !== t1)
        let t3: SmStore = test.resolve()
        #expect(t3 === t1, "the parent's decision kept the test container's instance")
    }

    @Test func everyTestContainerKeepsOneInstanceOfItsOwn() {
        let parent = Resolver()
        smRegister(in: parent)
        let first = Resolver(isolatedChildOf: parent)
        let second = Resolver(isolatedChildOf: parent)
        let a1: SmStore = first.resolve()
        let b1: SmStore = second.resolve()
        let a2: SmStore = first.resolve()
        let b2: SmStore = second.resolve()
        #expect(a1 === a2)
        #expect(b1 === b2)
        #expect(a1 !== b1)
        let p1: SmStore = parent.resolve()
        let p2: SmStore = parent.resolve()
        #expect(p1 === p2)
        #expect(p1 !== a1 && p1 !== b1)
    }

    @Test func theParentDecidingFirstGivesEachTestContainerItsOwn() {
        let parent = Resolver()
        smRegister(in: parent)
        let p1: SmStore = parent.resolve()
        let test = Resolver(isolatedChildOf: parent)
        let t1: SmStore = test.resolve()
        let t2: SmStore = test.resolve()
        #expect(t1 === t2)
        #expect(t1 !== p1)
        let p2: SmStore = parent.resolve()
        #expect(p2 === p1)
    }

    @Test func aTestContainerFirstFromManyThreadsBuildsOneInstance() async {
        for _ in 0..<20 {
            let parent = Resolver()
            smRegister(in: parent)
            let test = Resolver(isolatedChildOf: parent)
            let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for i in 0..<8 {
                    group.addTask {
                        let r = i.isMultiple(of: 2) ? test : parent
                        return ObjectIdentifier(r.resolve(SmStore.self))
                    }
                }
                return await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            let t: SmStore = test.resolve()
            let p: SmStore = parent.resolve()
            #expect(ids == [ObjectIdentifier(t), ObjectIdentifier(p)])
        }
    }

    @Test func anAsyncFactorysTestContainerDecidesForItself() async throws {
        let parent = Resolver()
        parent.register(SmStore.self) { () async -> SmStore in SmMarkedStore() }
        let test = Resolver(isolatedChildOf: parent)
        let t1: SmStore = try await test.resolveAsync()
        let p1: SmStore = try await parent.resolveAsync()
        let p2: SmStore = try await parent.resolveAsync()
        let t2: SmStore = try await test.resolveAsync()
        #expect(p1 === p2)
        #expect(t1 === t2)
        #expect(t1 !== p1)
    }

    /// An async factory: a first resolution that joins another container's build in flight (the
    /// parent's, a test container's) takes not its instance but builds its own.
    @Test(arguments: [true, false])
    func aFirstAsyncResolutionJoiningAnotherContainersBuildKeepsItsOwn(testContainerFirst: Bool) async throws {
        let parent = Resolver()
        let gate = AfGate()
        let calls = FxCounter()
        parent.register(SmStore.self) { () async -> SmStore in
            calls.increment()
            if calls.value == 1 { await gate.wait() }
            return SmMarkedStore()
        }
        let test = Resolver(isolatedChildOf: parent)
        let (first, second) = testContainerFirst ? (test, parent) : (parent, test)
        let firstTask = Task { () async -> SmStore in await first.resolveAsync() }
        while calls.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let secondTask = Task { () async -> SmStore in await second.resolveAsync() }
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        let f1 = await firstTask.value
        let s1 = await secondTask.value
        let f2: SmStore = await first.resolveAsync()
        let s2: SmStore = await second.resolveAsync()
        #expect(f1 === f2)
        #expect(s1 === s2)
        #expect(f1 !== s1)
    }

    /// The parent's factory gives a Singleton; a test container overrides a dependency so that its
    /// first instance is not one. The parent must still decide from its own first instance.
    @Test func aTestContainersUnmarkedFirstInstanceMustNotMakeTheParentsSingletonTransient() {
        let parent = Resolver()
        parent.register { SmFlag(marked: true) }
        smRegisterByFlag(in: parent)
        let test = Resolver(isolatedChildOf: parent)
        test.register { SmFlag(marked: false) }
        let t: SmStore = test.resolve()
        #expect(t is SmPlainStore)
        let p1: SmStore = parent.resolve()
        let p2: SmStore = parent.resolve()
        #expect(p1 is SmMarkedStore)
        #expect(p1 === p2, "the parent's Singleton was built twice: the test container's first instance decided for it")
    }

    /// The same through a context factory: a test container in the test context gets an unmarked mock.
    @Test func aTestContainersOnTestMockMustNotMakeTheParentsSingletonTransient() {
        let parent = Resolver()
        parent.context = Resolver.Context(isTest: false)
        parent.register(SmStore.self) { SmMarkedStore() }.onTest { SmPlainStore() as SmStore }
        let test = Resolver(isolatedChildOf: parent)
        test.context = Resolver.Context(isTest: true)
        let t: SmStore = test.resolve()
        #expect(t is SmPlainStore)
        let p1: SmStore = parent.resolve()
        let p2: SmStore = parent.resolve()
        #expect(p1 === p2, "the parent's Singleton was built twice")
    }

    /// The parent decides first with an unmarked instance; the test container's own first instance
    /// is a Singleton and must be kept as its own.
    @Test func aTestContainerWhoseFirstInstanceIsASingletonKeepsItAfterTheParentsUnmarkedOne() {
        let parent = Resolver()
        parent.register { SmFlag(marked: false) }
        smRegisterByFlag(in: parent)
        let p: SmStore = parent.resolve()
        #expect(p is SmPlainStore)
        let test = Resolver(isolatedChildOf: parent)
        test.register { SmFlag(marked: true) }
        let t1: SmStore = test.resolve()
        let t2: SmStore = test.resolve()
        #expect(t1 is SmMarkedStore)
        #expect(t1 === t2, "the test container's Singleton was built twice")
    }

    /// verify() with a stand-in builds in a throw-away test container: it must not change the
    /// lifetime the verified container's registration gets.
    @Test func verifyWithAStandInMustNotDecideTheParentsLifetime() {
        let parent = Resolver()
        parent.register { SmFlag(marked: true) }
        smRegisterByFlag(in: parent)
        _ = parent.verify(providing: { $0.register { SmFlag(marked: false) } })
        let p1: SmStore = parent.resolve()
        let p2: SmStore = parent.resolve()
        #expect(p1 is SmMarkedStore)
        #expect(p1 === p2, "verify() made the parent's Singleton transient")
    }

    /// Once the parent's first instance made its registration a singleton, a test container whose
    /// own first instance is not a `Singleton` hands a new one to each of two concurrent first
    /// async resolutions, as the synchronous path does.
    @Test func aTestContainersUnmarkedFirstAsyncBuildIsNotShared() async throws {
        let parent = Resolver()
        parent.register { SmFlag(marked: true) }
        let gate = AfGate()
        let calls = FxCounter()
        parent.register(SmStore.self) { (r: Resolver) async -> SmStore in
            calls.increment()
            guard (r.resolve() as SmFlag).marked else {
                await gate.wait()
                return SmPlainStore()
            }
            return SmMarkedStore()
        }
        let p: SmStore = await parent.resolveAsync()
        #expect(p is SmMarkedStore)
        let test = Resolver(isolatedChildOf: parent)
        test.register { SmFlag(marked: false) }
        let first = Task { () async -> SmStore in await test.resolveAsync() }
        while calls.value < 2 { try await Task.sleep(for: .milliseconds(5)) }
        let second = Task { () async -> SmStore in await test.resolveAsync() }
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        let a = await first.value
        let b = await second.value
        #expect(a is SmPlainStore && b is SmPlainStore)
        #expect(a !== b)
    }
}
