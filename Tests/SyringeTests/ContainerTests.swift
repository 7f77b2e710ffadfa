import Foundation
import Syringe
import SyringeTesting
import Testing

private final class CtService {
    let serial = FxSerial.next()
    let label: String
    init(_ label: String = "") { self.label = label }
}
private final class CtConsumer {
    let service: CtService
    init(service: CtService) { self.service = service }
}
private final class CtStaticConsumer {
    let service: CtService
    init(service: CtService = Resolver.resolve()) { self.service = service }
}
private final class CtOnlyInParent {}
private final class CtOnlyInChild {}

/// A subclass with its own id, as users write it.
final class CtAppResolver: Resolver, @unchecked Sendable {
    init() { super.init(id: "ContainerTests.CtAppResolver") }
}

@Suite struct ContainerTests {
    // MARK: current, root, withContainer

    @Test func rootDefaultsToMain() {
        #expect(Resolver.root === Resolver.main)
    }

    @Test func currentIsRootOutsideAnyBinding() {
        #expect(Resolver.current === Resolver.root)
    }

    @Test func withContainerBindsCurrentSynchronously() {
        let r = Resolver()
        let inside = Resolver.withContainer(r) { Resolver.current }
        #expect(inside === r)
        #expect(Resolver.current !== r)
    }

    /// README, "Containers", and the Containers article: work a parent's singleton starts in a
    /// `Task { }` inherits the binding of what asked for it first (a request's container) and
    /// resolves from it; in `Task.detached` with the factory's container bound, from the parent.
    @Test func aSingletonsBackgroundWorkBelongsInADetachedTaskBindingItsContainer() async {
        let app = Resolver()
        app.register { CtService("app") }
        let inTask = FxRecorder<String>()
        let inDetached = FxRecorder<String>()
        let taskDone = AfGate()
        let detachedDone = AfGate()
        app.register(lifetime: .singleton) { (r: Resolver) -> CtConsumer in
            Task {
                inTask.append((Resolver.resolve() as CtService).label)
                taskDone.open()
            }
            Task.detached {
                await Resolver.withContainer(r) {
                    await Task.yield()
                    inDetached.append((Resolver.resolve() as CtService).label)
                }
                detachedDone.open()
            }
            return CtConsumer(service: r.resolve())
        }
        let request = Resolver(parent: app)
        request.register { CtService("request") }
        let consumer = Resolver.withContainer(request) { Resolver.resolve(CtConsumer.self) }
        await taskDone.wait()
        await detachedDone.wait()
        #expect(consumer.service.label == "app")
        #expect(inTask.values == ["request"])
        #expect(inDetached.values == ["app"])
    }

    /// `Resolver()` and `MockResolver()` have registrations of their own, whatever ids other
    /// containers were made with: their names ("resolver 12") are not ids another container can
    /// take, before or after.
    @Test func aContainerMadeWithoutAnIdSharesNoRegistry() {
        let probe = Resolver()
        let number = Int(probe.name.split(separator: " ").last ?? "") ?? 0
        // Ids that the next anonymous containers would have had, taken first.
        let squatters = (number + 1...number + 50).map { Resolver(id: "resolver \($0)") }
        for squatter in squatters { squatter.register(name: "squatter") { "squatter" } }
        let fresh = Resolver()
        #expect(fresh.optional(String.self, name: "squatter") == nil)
        #expect(fresh.name.hasPrefix("resolver "))
        // And a container made later with an anonymous one's name.
        fresh.register(name: "fresh") { "fresh" }
        #expect(Resolver(id: fresh.name).optional(String.self, name: "fresh") == nil)
        let mock = MockResolver { $0.register(name: "mock") { "mock" } }
        #expect(mock.name.hasPrefix("mock "))
        #expect(Resolver(id: mock.name).optional(String.self, name: "mock") == nil)
        withExtendedLifetime(squatters) {}
    }

    @Test func withContainerNests() {
        let outer = Resolver()
        let inner = Resolver()
        Resolver.withContainer(outer) {
            #expect(Resolver.current === outer)
            Resolver.withContainer(inner) {
                #expect(Resolver.current === inner)
            }
            #expect(Resolver.current === outer)
        }
    }

    @Test func withContainerRethrowsAndRestores() {
        struct Marker: Error {}
        let r = Resolver()
        #expect(throws: Marker.self) {
            try Resolver.withContainer(r) { throw Marker() }
        }
        #expect(Resolver.current !== r)
    }

    @Test func withContainerBindsCurrentAcrossAwaits() async {
        let r = Resolver()
        r.register { CtService("async") }
        let label = await Resolver.withContainer(r) { () async -> String in
            await Task.yield()
            #expect(Resolver.current === r)
            let service: CtService = Resolver.resolve()
            return service.label
        }
        #expect(label == "async")
    }

    @Test func childTasksInheritTheBinding() async {
        let r = Resolver()
        r.register { CtService("child task") }
        let labels = await Resolver.withContainer(r) { () async -> [String] in
            await withTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask { (Resolver.resolve() as CtService).label }
                }
                var result: [String] = []
                for await label in group { result.append(label) }
                return result
            }
        }
        #expect(labels == Array(repeating: "child task", count: 4))
    }

    @Test func concurrentTasksSeeTheirOwnContainers() async {
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let r = Resolver()
                    r.register { CtService("\(index)") }
                    return await Resolver.withContainer(r) { () async -> Bool in
                        await Task.yield()
                        return (Resolver.resolve() as CtService).label == "\(index)"
                    }
                }
            }
            var all: [Bool] = []
            for await ok in group { all.append(ok) }
            return all
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 })
    }

    @Test func staticCallsInsideAFactoryUseTheResolvingContainer() {
        let r = Resolver()
        r.register { CtService("from r") }
        r.register { CtStaticConsumer() }
        // No binding: CtStaticConsumer's default argument calls Resolver.resolve() while r resolves it.
        let consumer: CtStaticConsumer = r.resolve()
        #expect(consumer.service.label == "from r")
    }

    @Test func defaultArgumentInjectionInsideWithContainer() {
        let r = Resolver()
        r.register { CtService("default argument") }
        let consumer = Resolver.withContainer(r) { CtStaticConsumer() }
        #expect(consumer.service.label == "default argument")
    }

    @Test func staticRegisterDoesNotTouchMain() {
        let r = Resolver()
        _ = Resolver.withContainer(r) { Resolver.register { CtOnlyInChild() } }
        #expect((r.optional() as CtOnlyInChild?) != nil)
        #expect((Resolver.main.optional() as CtOnlyInChild?) == nil)
    }

    // MARK: parent and child

    @Test func childFallsThroughToTheParent() {
        let parent = Resolver()
        parent.register { CtOnlyInParent() }
        let child = Resolver(parent: parent)
        #expect((child.optional() as CtOnlyInParent?) != nil)
    }

    @Test func childRegistrationsShadowAndStayInvisibleToTheParent() {
        let parent = Resolver()
        parent.register { CtService("parent") }
        let child = Resolver(parent: parent)
        child.register { CtService("child") }
        child.register { CtOnlyInChild() }
        #expect((child.resolve() as CtService).label == "child")
        #expect((parent.resolve() as CtService).label == "parent")
        #expect((parent.optional() as CtOnlyInChild?) == nil)
    }

    @Test func parentSingletonStaysTheParents() {
        let parent = Resolver()
        parent.register(lifetime: .singleton) { CtService("parent") }
        let child = Resolver(parent: parent)
        let viaChild: CtService = child.resolve()
        let viaParent: CtService = parent.resolve()
        #expect(viaChild === viaParent)
        let sibling = Resolver(parent: parent)
        #expect((sibling.resolve() as CtService) === viaParent)
    }

    @Test func grandchildFallsThroughTwoLevels() {
        let grandparent = Resolver()
        grandparent.register(lifetime: .singleton) { CtService("top") }
        let parent = Resolver(parent: grandparent)
        let child = Resolver(parent: parent)
        #expect((child.resolve() as CtService) === (grandparent.resolve() as CtService))
    }

    @Test func childLocalDependencyIsUsedByItsOwnFactories() {
        let parent = Resolver()
        parent.register { CtService("parent") }
        let child = Resolver(parent: parent)
        child.register { CtService("child") }
        child.register { CtConsumer(service: $0.resolve()) }
        #expect((child.resolve() as CtConsumer).service.label == "child")
    }

    @Test func childDoesNotKeepTheParentAliveOrViceVersa() {
        let parent = Resolver()
        parent.register(lifetime: .singleton) { CtService("parent") }
        let weakChild = FxWeak<Resolver>()
        do {
            let child = Resolver(parent: parent)
            weakChild.object = child
            _ = child.resolve() as CtService
        }
        #expect(weakChild.object == nil)
        #expect((parent.resolve() as CtService).label == "parent")
    }

    // MARK: ids

    @Test func sameIdSharesOneRegistry() {
        let id = "ContainerTests.shared.\(UUID().uuidString)"
        let a = Resolver(id: id)
        a.register(lifetime: .singleton) { CtService("shared") }
        let b = Resolver(id: id)
        let fromB: CtService = b.resolve()
        #expect(fromB.label == "shared")
        #expect(fromB === (a.resolve() as CtService))
        b.register { CtOnlyInChild() }
        #expect((a.optional() as CtOnlyInChild?) != nil)
    }

    @Test func differentIdsDoNotShare() {
        let a = Resolver(id: "ContainerTests.a.\(UUID().uuidString)")
        let b = Resolver(id: "ContainerTests.b.\(UUID().uuidString)")
        a.register { CtService() }
        #expect((b.optional() as CtService?) == nil)
    }

    @Test func anonymousContainersDoNotShare() {
        let a = Resolver()
        let b = Resolver()
        a.register { CtService() }
        #expect((b.optional() as CtService?) == nil)
    }

    @Test func sameIdOnDifferentThreadsSharesOneRegistry() {
        let id = "ContainerTests.threads.\(UUID().uuidString)"
        let made = FxRecorder<Resolver>()
        let finished = fxRunThreads(4) { index in
            let r = Resolver(id: id)
            r.register(name: "t\(index)") { CtService("t\(index)") }
            made.append(r)
        }
        #expect(finished)
        let any = Resolver(id: id)
        for index in 0..<4 {
            #expect((any.optional(name: "t\(index)") as CtService?)?.label == "t\(index)")
        }
        for r in made.values {
            #expect((r.optional(name: "t0") as CtService?) != nil)
        }
    }

    // MARK: subclass

    @Test func subclassWithItsOwnId() {
        let mine = CtAppResolver()
        mine.register { CtService("mine") }
        #expect((mine.resolve() as CtService).label == "mine")
        let again = CtAppResolver()
        #expect((again.optional() as CtService?)?.label == "mine")
        #expect((Resolver(id: "ContainerTests.CtAppResolver").optional() as CtService?) != nil)
    }

    @Test func subclassWorksWithWithContainer() {
        let mine = CtAppResolver()
        mine.register(qualifiedBy: CtQualifier.self) { CtService("subclass") }
        let label = Resolver.withContainer(mine) {
            (Resolver.resolve(qualifiedBy: CtQualifier.self) as CtService).label
        }
        #expect(label == "subclass")
    }

    // MARK: MockResolver

    @Test func mockResolverWithoutParent() {
        let mock = MockResolver { r in
            r.register { CtService("mock") }
            r.register { CtConsumer(service: $0.resolve()) }
        }
        #expect((mock.resolve() as CtConsumer).service.label == "mock")
        #expect((mock.optional() as CtOnlyInParent?) == nil)
    }

    @Test func mockResolverWithParentOverridesAndFallsThrough() {
        let parent = Resolver()
        parent.register { CtService("real") }
        parent.register { CtOnlyInParent() }
        let mock = MockResolver(parent: parent) { r in
            r.register { CtService("mock") }
        }
        #expect((mock.resolve() as CtService).label == "mock")
        #expect((mock.optional() as CtOnlyInParent?) != nil)
        #expect((parent.resolve() as CtService).label == "real")
    }

    @Test func mockResolverWorksAsTheCurrentContainer() {
        let mock = MockResolver { r in r.register { CtService("mock") } }
        let consumer = Resolver.withContainer(mock) { CtStaticConsumer() }
        #expect(consumer.service.label == "mock")
    }

    // MARK: deallocation

    @Test func deallocatingAContainerReleasesItsSingletons() {
        let weakService = FxWeak<CtService>()
        let weakContainer = FxWeak<Resolver>()
        do {
            let r = Resolver()
            weakContainer.object = r
            r.register(lifetime: .singleton) { CtService() }
            r.register(scopedTo: Global.self) { CtConsumer(service: CtService()) }
            let service: CtService = r.resolve()
            weakService.object = service
            _ = r.resolve(scopedTo: Global.self) as CtConsumer
        }
        #expect(weakContainer.object == nil)
        #expect(weakService.object == nil)
    }

    @Test func factoryUsingItsResolverArgumentDoesNotLeakTheContainer() {
        let weakContainer = FxWeak<Resolver>()
        do {
            let r = Resolver()
            weakContainer.object = r
            r.register(lifetime: .singleton) { CtService() }
            r.register { CtConsumer(service: $0.resolve()) }
            _ = r.resolve() as CtConsumer
        }
        #expect(weakContainer.object == nil)
    }

    @Test func containerWithAnOpenScopeHandleStillDeallocates() {
        let weakContainer = FxWeak<Resolver>()
        do {
            let r = Resolver()
            weakContainer.object = r
            r.register(scopedTo: CtFlow.self) { CtService() }
            let flow = r.beginScope(CtFlow.self)
            _ = r.resolve(scopedTo: CtFlow.self) as CtService
            flow.end()
        }
        #expect(weakContainer.object == nil)
    }

    // MARK: Sendable

    @Test func resolverCrossesIsolationBoundaries() async {
        let r = Resolver()
        r.register { CtService("detached") }
        let label = await Task.detached { (r.resolve() as CtService).label }.value
        #expect(label == "detached")
    }

    // MARK: root (process-wide: only inside an exit test, which has its own process)

    @Test func settingRootRedirectsStaticCalls() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            let custom = Resolver()
            let original = Resolver.root
            Resolver.root = custom
            Resolver.register { CtService("root") }
            let service: CtService = Resolver.resolve()
            precondition(service.label == "root")
            precondition(Resolver.current === custom)
            precondition((custom.optional() as CtService?) != nil)
            precondition((Resolver.main.optional() as CtService?) == nil)
            let other = Resolver()
            Resolver.withContainer(other) { precondition(Resolver.current === other) }
            Resolver.root = original
            precondition(Resolver.current === Resolver.main)
        }
    }

    // The first Syringe call of a process initializes the static state; it must not deadlock
    // whichever entry point comes first (each case runs in a fresh process).

    @Test func freshProcessFirstCallIsAStaticResolve() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { CtService("fresh") }
            let service: CtService = Resolver.withContainer(r) { Resolver.resolve() }
            precondition(service.label == "fresh")
        }
    }

    @Test func freshProcessFirstCallReadsRoot() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            precondition(Resolver.root === Resolver.main)
        }
    }

    @Test func freshProcessFirstCallReadsCurrent() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            precondition(Resolver.current === Resolver.main)
        }
    }

    @Test func freshProcessFirstCallIsAPropertyWrapper() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { CtService("wrapped") }
            let holder = Resolver.withContainer(r) { CtInjected() }
            precondition(holder.service.label == "wrapped")
        }
    }

    @Test func registerAllServicesRunsOnceInMain() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            let test = Resolver()
            // The first resolution from main happens while a test container is current.
            Resolver.withContainer(test) {
                let marker: CtRegisteredAtStartup = Resolver.main.resolve()
                precondition(marker.value == "main")
                precondition((test.optional() as CtRegisteredAtStartup?) == nil)
            }
            _ = Resolver.main.resolve() as CtRegisteredAtStartup
            precondition(CtRegisteredAtStartup.registrations.value == 1)
        }
    }

    /// Resolver's `reset()`: main's registrations and instances go, the root is main again, and
    /// `registerAllServices()` runs again before the next resolution.
    @Test func resetStartsTheProcessWideContainersOver() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.main.register(lifetime: .singleton) { CtService("registered later") }
            let before: CtService = Resolver.resolve()
            let startup: CtRegisteredAtStartup = Resolver.resolve()
            Resolver.root = Resolver(parent: .main)
            Resolver.main.defaultLifetime = .singleton
            Resolver.main.allowsOverrides = false
            Resolver.reset()
            precondition(Resolver.main.allowsOverrides)
            precondition(Resolver.main.defaultLifetime == Resolver.globalDefaultLifetime)
            precondition(Resolver.root === Resolver.main)
            precondition(Resolver.main.optional(CtService.self) == nil)
            let again: CtRegisteredAtStartup = Resolver.resolve()
            precondition(CtRegisteredAtStartup.registrations.value == 2)
            precondition(again !== startup)
            Resolver.register(lifetime: .singleton) { CtService("after the reset") }
            precondition(Resolver.resolve(CtService.self) !== before)
        }
    }
}

private enum CtQualifier: Qualifier {}
private final class CtInjected {
    @Inject var service: CtService
}
private enum CtFlow: Scope {}

/// Registered by `registerAllServices` below; nothing else registers it.
final class CtRegisteredAtStartup {
    static let registrations = FxCounter()
    let value: String
    init(value: String) { self.value = value }
}

extension Resolver: ResolverRegistering {
    public static func registerAllServices() {
        CtRegisteredAtStartup.registrations.increment()
        register { CtRegisteredAtStartup(value: "main") }
    }
}
