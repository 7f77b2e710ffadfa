import Foundation
import SyringeTesting
import Testing

@testable import Syringe

// Memory: what a container owns is freed with it, flows leave nothing behind, and nothing
// Syringe builds keeps a container alive. CI runs this suite under LeakSanitizer:
//   swift test --sanitize=address --disable-xctest --filter LeakTests
// so every test must also end with nothing unreachable left allocated. `@testable` reads the
// container's bookkeeping (scope handles, a test container's copies) to show it stays bounded.

final class LeakService {}
protocol LeakServing: AnyObject {}
final class LeakServer: LeakServing {}
final class LeakConsumer {
    let service: LeakService
    init(service: LeakService) { self.service = service }
}
final class LeakAuto {
    let server: any LeakServing
    init(server: any LeakServing) { self.server = server }
}
final class LeakFlowObject {
    static let deinits = FxCounter()
    deinit { LeakFlowObject.deinits.increment() }
}
final class LeakTestFlowObject {
    static let deinits = FxCounter()
    deinit { LeakTestFlowObject.deinits.increment() }
}
final class LeakHandleFlowObject {
    static let deinits = FxCounter()
    deinit { LeakHandleFlowObject.deinits.increment() }
}
final class LeakHeldObject {}
final class LeakSessionObject {}
final class LeakWeakObject {}
final class LeakGraphPart {}
final class LeakGraphRoot {
    let first: LeakGraphPart
    let second: LeakGraphPart
    init(first: LeakGraphPart, second: LeakGraphPart) {
        self.first = first
        self.second = second
    }
}
final class LeakInjected {
    @Inject var service: LeakService
    @LazyInject var lazyServer: LeakServer
    @WeakInject var weakServer: LeakServer?
    @OptionalInject var missing: LeakMissing?
}
final class LeakMissing {}
final class LeakLazyOwner {
    @LazyInject var server: LeakServer
}
struct LeakFailure: Error {}
final class LeakFailing {
    init(service: LeakService) throws { throw LeakFailure() }
}
enum LeakFlow: Scope {}
enum LeakTestFlow: Scope {}
enum LeakHandleFlow: Scope {}
enum LeakSession: Scope {
    static var retention: ScopeRetention { .strong }
}
enum LeakQualifier: Qualifier {}

/// Weak references filled inside a scope that the test then leaves.
private final class LeakWatch {
    private var references: [(String, () -> AnyObject?)] = []

    func watch(_ label: String, _ object: AnyObject) {
        weak let weakObject = object
        references.append((label, { weakObject }))
    }

    /// The labels of watched objects still alive.
    var alive: [String] { references.filter { $0.1() != nil }.map(\.0) }

    /// The watched object with `label`, if it is alive.
    func object(_ label: String) -> AnyObject? {
        references.first { $0.0 == label }?.1()
    }
}

@Suite struct LeakTests {
    // MARK: Containers free what they own

    @Test func releasedContainerFreesItsInstances() {
        let watch = LeakWatch()
        do {
            let r = Resolver()
            watch.watch("container", r)
            r.register(lifetime: .singleton) { LeakService() }
            r.register(lifetime: .singleton) { LeakServer() }.implements(LeakServing.self)
            r.register(qualifiedBy: LeakQualifier.self, lifetime: .singleton) { LeakServer() }
            r.register(scopedTo: LeakSession.self) { LeakSessionObject() }
            r.register(scopedTo: Global.self) { LeakSessionObject() }
            r.register { LeakConsumer(service: $0.resolve()) }
            r.registerSingleton(LeakWeakObject.self, LeakWeakObject())
            r.autoregister(LeakAuto.init)
            watch.watch("singleton", r.resolve(LeakService.self))
            watch.watch("implemented", r.resolve(LeakServing.self))
            watch.watch("qualified", r.resolve(LeakServer.self, qualifiedBy: LeakQualifier.self))
            watch.watch("strong scope", r.resolve(LeakSessionObject.self, scopedTo: LeakSession.self))
            watch.watch("global scope", r.resolve(LeakSessionObject.self, scopedTo: Global.self))
            watch.watch("registered instance", r.resolve(LeakWeakObject.self))
            watch.watch("consumer", r.resolve(LeakConsumer.self))
            watch.watch("autoregistered", r.resolve(LeakAuto.self))
            _ = r.dependencyGraph()
            #expect(r.verify().isValid)
            #expect(watch.alive.count == 7, "\(watch.alive)")  // the consumer and LeakAuto are transient
        }
        #expect(watch.alive.isEmpty, "\(watch.alive)")
    }

    @Test func releasedChildFreesItsOwnSingletonsWhileTheParentLives() {
        let parent = Resolver()
        parent.register(lifetime: .singleton) { LeakServer() }
        let watch = LeakWatch()
        let parentServer: LeakServer = parent.resolve()
        do {
            let child = Resolver(parent: parent)
            watch.watch("child", child)
            child.register(lifetime: .singleton) { LeakSessionObject() }
            watch.watch("child singleton", child.resolve(LeakSessionObject.self))
            #expect(child.resolve(LeakServer.self) === parentServer)
        }
        #expect(watch.alive.isEmpty, "\(watch.alive)")
        #expect(parent.resolve(LeakServer.self) === parentServer)
    }

    @Test func registryOfAnIdIsFreedWithItsLastContainer() {
        let watch = LeakWatch()
        do {
            let first = Resolver(id: "leak-shared-registry")
            let second = Resolver(id: "leak-shared-registry")
            first.register(lifetime: .singleton) { LeakServer() }
            watch.watch("singleton", second.resolve(LeakServer.self))
            watch.watch("first", first)
        }
        #expect(watch.alive.isEmpty, "\(watch.alive)")
        #expect(!Resolver(id: "leak-shared-registry").isRegistered(LeakServer.self))
    }

    @Test func replacedAndClearedRegistrationsFreeTheirInstances() {
        let r = Resolver()
        let watch = LeakWatch()
        r.register(lifetime: .singleton) { LeakServer() }
        watch.watch("replaced", r.resolve(LeakServer.self))
        r.register(lifetime: .singleton) { LeakServer() }
        watch.watch("cleared", r.resolve(LeakServer.self))
        r.clearRegistration(for: LeakServer.self)
        r.register(lifetime: .singleton) { LeakSessionObject() }
        watch.watch("dropped", r.resolve(LeakSessionObject.self))
        r.dropCached([LeakSessionObject.self])
        #expect(watch.alive.isEmpty, "\(watch.alive)")
    }

    // MARK: Flows leave nothing behind

    @Test func hundredThousandWeakScopeFlowsFreeEveryObject() {
        let r = Resolver()
        r.register(scopedTo: LeakFlow.self) { LeakFlowObject() }
        let before = LeakFlowObject.deinits.value
        let last = LeakWatch()
        for round in 0..<100_000 {
            let object: LeakFlowObject = r.resolve(scopedTo: LeakFlow.self)
            if round == 99_999 { last.watch("last", object) }
        }
        #expect(LeakFlowObject.deinits.value - before == 100_000)
        #expect(last.alive.isEmpty)
        #expect(r.scopeHandles.isEmpty)
    }

    @Test func hundredThousandFlowsWithScopeHandlesLeaveNoHandlesBehind() {
        let r = Resolver()
        r.register(scopedTo: LeakHandleFlow.self) { LeakHandleFlowObject() }
        let before = LeakHandleFlowObject.deinits.value
        for round in 0..<100_000 {
            let flow = r.beginScope(LeakHandleFlow.self)
            let first: LeakHandleFlowObject = r.resolve(scopedTo: LeakHandleFlow.self)
            let second: LeakHandleFlowObject = r.resolve(scopedTo: LeakHandleFlow.self)
            #expect(first === second)
            if round.isMultiple(of: 2) { flow.end() }  // the others end by being released
        }
        #expect(LeakHandleFlowObject.deinits.value - before == 100_000)
        let handles = r.scopeHandles[ObjectIdentifier(LeakHandleFlow.self)] ?? []
        #expect(handles.count <= 1)
        #expect(handles.allSatisfy { $0.handle == nil })
    }

    @Test func hundredThousandFlowsInATestContainerLeaveNoCopiesBehind() {
        let base = Resolver()
        base.register(scopedTo: LeakTestFlow.self) { LeakTestFlowObject() }
        let before = LeakTestFlowObject.deinits.value
        let test = Resolver.withContainer(base) { Resolver.makeTestContainer() }
        for _ in 0..<100_000 {
            _ = test.resolve(LeakTestFlowObject.self, scopedTo: LeakTestFlow.self)
        }
        #expect(LeakTestFlowObject.deinits.value - before == 100_000)
        #expect(test.storeCopies.count <= 1)
        #expect(test.storeCopies.values.allSatisfy { $0.isEmpty })
    }

    @Test func weakLifetimeAndGraphInstancesAreFreedAfterUse() {
        let r = Resolver()
        r.register(lifetime: .weak) { LeakWeakObject() }
        r.register(lifetime: .graph) { LeakGraphPart() }
        r.register { LeakGraphRoot(first: $0.resolve(), second: $0.resolve()) }
        let watch = LeakWatch()
        do {
            let root: LeakGraphRoot = r.resolve()
            #expect(root.first === root.second)
            watch.watch("graph part", root.first)
            watch.watch("weak", r.resolve(LeakWeakObject.self))
        }
        #expect(watch.alive.isEmpty, "\(watch.alive)")
    }

    @Test func aScopeHandleReleasedWithoutEndFreesItsInstances() {
        let r = Resolver()
        r.register(scopedTo: LeakFlow.self) { LeakHeldObject() }
        let watch = LeakWatch()
        do {
            let flow = r.beginScope(LeakFlow.self)
            watch.watch("handle", flow)
            watch.watch("held", r.resolve(LeakHeldObject.self, scopedTo: LeakFlow.self))
            #expect(watch.alive.count == 2)
        }
        #expect(watch.alive.isEmpty, "\(watch.alive)")
    }

    // MARK: Nothing keeps a container alive

    @Test func factoriesUsingTheirResolverArgumentFormNoCycle() {
        let watch = LeakWatch()
        do {
            let r = Resolver()
            watch.watch("container", r)
            r.register(lifetime: .singleton) { _ in LeakService() }
            r.register(lifetime: .singleton) { LeakConsumer(service: $0.resolve()) }
            r.register { LeakServer() }.implements(LeakServing.self)
            r.register(lifetime: .singleton) { LeakAuto(server: $0.resolve()) }
            r.register { try $0.tryResolve(LeakFailing.self) as LeakFailing }
            r.register(LeakFailing.self) { try LeakFailing(service: $0.tryResolve()) }
            r.register { LeakInjected() }
            watch.watch("consumer", r.resolve(LeakConsumer.self))
            watch.watch("auto", r.resolve(LeakAuto.self))
            let injected: LeakInjected = r.resolve()
            watch.watch("lazily injected", injected.lazyServer)
            #expect(throws: ResolutionError.self) { try r.tryResolve(LeakFailing.self) }
            _ = Resolver.withContainer(r) { Resolver.resolve(LeakConsumer.self) }
        }
        #expect(watch.alive.isEmpty, "\(watch.alive)")
    }

    @Test func testContainersAreFreed() async {
        let base = Resolver()
        base.register(lifetime: .singleton) { LeakServer() }
        base.register(scopedTo: LeakSession.self) { LeakSessionObject() }
        let watch = LeakWatch()
        Resolver.withContainer(base) {
            Resolver.withTestContainer {
                watch.watch("sync test container", Resolver.current)
                Resolver.register(lifetime: .singleton) { LeakWeakObject() }
                watch.watch("own singleton", Resolver.resolve(LeakWeakObject.self))
                watch.watch("copy of the base's singleton", Resolver.resolve(LeakServer.self))
                watch.watch(
                    "copy of the strong scope", Resolver.resolve(LeakSessionObject.self, scopedTo: LeakSession.self))
            }
        }
        await Resolver.withContainer(base) {
            await Resolver.withTestContainer {
                watch.watch("async test container", Resolver.current)
                await Task.yield()
                watch.watch("async copy", Resolver.resolve(LeakServer.self))
            }
        }
        #expect(watch.alive.isEmpty, "\(watch.alive)")
    }

    @Test func threadsThatResolvedLeaveNoStateBehind() {
        let r = Resolver()
        r.register(lifetime: .singleton) { LeakServer() }
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<8 {
            let thread = Thread {
                for _ in 0..<100 { _ = r.resolve(LeakServer.self) }
                done.signal()
            }
            thread.start()
        }
        var finished = 0
        for _ in 0..<8 {
            if done.wait(timeout: .now() + 60) == .success { finished += 1 }
        }
        #expect(finished == 8)
    }

    /// A singleton holding an unread `@LazyInject` keeps the container it was created in: the
    /// lazy property holds the container until its first read, and the container holds the
    /// singleton. The test breaks the cycle afterwards (by reading the property) so that the
    /// leak check itself stays clean.
    @Test func singletonWithAnUnreadLazyInjectDoesNotKeepItsContainer() {
        let watch = LeakWatch()
        do {
            let r = Resolver()
            watch.watch("container", r)
            r.register { LeakServer() }
            r.register(lifetime: .singleton) { LeakLazyOwner() }
            watch.watch("owner", r.resolve(LeakLazyOwner.self))
        }
        #expect(watch.alive.isEmpty, "\(watch.alive)")
        // Were there a cycle, the first read would let go of the container; make sure LSan stays quiet.
        if let leaked = watch.object("owner") as? LeakLazyOwner {
            _ = leaked.server
        }
    }

    // MARK: Back-references

    @Test func parentAndChildWithAWeakLazyBackReferenceAreFreed() {
        let watch = LeakWatch()
        do {
            let r = Resolver()
            r.register(lifetime: .graph) { LeakBackParent() }
            r.register { LeakBackChild() }
            let parent: LeakBackParent = r.resolve()
            #expect(parent.child.parent === parent)
            watch.watch("parent", parent)
            watch.watch("child", parent.child)
            watch.watch("container", r)
        }
        #expect(watch.alive.isEmpty, "still alive: \(watch.alive)")
    }

    @Test func singletonsJoinedThroughInitCompletedGoWithTheirContainer() {
        let watch = LeakWatch()
        do {
            let r = Resolver()
            r.register(lifetime: .singleton) { LeakLibrary() }
                .initCompleted { resolver, library in library.catalog = resolver.resolve() as LeakCatalog }
            r.register(lifetime: .singleton) { LeakCatalog(library: $0.resolve()) }
            let library: LeakLibrary = r.resolve()
            #expect(library.catalog?.library === library)
            watch.watch("library", library)
            watch.watch("catalog", library.catalog!)
            watch.watch("container", r)
        }
        #expect(watch.alive.isEmpty, "still alive: \(watch.alive)")
    }
}

private final class LeakBackParent {
    @Inject var child: LeakBackChild
}
private final class LeakBackChild {
    @WeakLazyInject var parent: LeakBackParent?
}
private final class LeakLibrary {
    weak var catalog: LeakCatalog?
}
private final class LeakCatalog {
    let library: LeakLibrary
    init(library: LeakLibrary) { self.library = library }
}
