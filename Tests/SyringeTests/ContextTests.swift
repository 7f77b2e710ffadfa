import Syringe
import SyringeTesting
import Testing

// Context factories (`.onTest`, `.onPreview`, `.onDebug`, `.onArgument`, `.onSimulator`,
// `.onDevice`): which factory builds, in which container, with which lifetime.

protocol ContextAPI: AnyObject { var kind: String { get } }
final class ContextAPIImpl: ContextAPI {
    let kind: String
    init(_ kind: String) { self.kind = kind }
}
final class ContextLog {
    let value: String
    init(_ value: String) { self.value = value }
}
final class ContextClient {
    let api: ContextAPI
    var completed = false
    init(api: ContextAPI) { self.api = api }
}

/// A context where nothing holds (so the registration's own factory builds), with what is given.
private func context(
    arguments: [String] = [], preview: Bool = false, test: Bool = false, simulator: Bool = false, debug: Bool = false
) -> Resolver.Context {
    Resolver.Context(arguments: arguments, isPreview: preview, isTest: test, isSimulator: simulator, isDebug: debug)
}

/// Every kind of context factory on one registration of `ContextAPI`.
private func registerEveryContext(in resolver: Resolver, lifetime: Lifetime? = nil) {
    resolver.register(ContextAPI.self, lifetime: lifetime) { ContextAPIImpl("live") }
        .onDebug { ContextAPIImpl("debug") }
        .onSimulator { ContextAPIImpl("simulator") }
        .onTest { ContextAPIImpl("test") }
        .onPreview { ContextAPIImpl("preview") }
        .onArgument("-mockAPI") { ContextAPIImpl("argument") }
}

@Suite struct ContextTests {
    // Migrating.md: an override is a new registration, without the definition's context factories;
    // giving a registration a context factory, the first time too, drops what it kept.
    @Test func anOverrideHasNoneOfTheDefinitionsContextFactories() {
        let r = Resolver()
        r.context = context(debug: true)
        r.register(ContextAPI.self) { ContextAPIImpl("live") }.onDebug { ContextAPIImpl("debug") }
        #expect(r.resolve(ContextAPI.self).kind == "debug")
        r.register(ContextAPI.self) { ContextAPIImpl("registered") }
        #expect(r.resolve(ContextAPI.self).kind == "registered")
        r.register(ContextAPI.self) { ContextAPIImpl("registered") }.onDebug { ContextAPIImpl("debug") }
        #expect(r.resolve(ContextAPI.self).kind == "debug")
    }

    @Test func aFirstContextFactoryDropsWhatTheRegistrationKept() {
        let r = Resolver()
        r.context = context()
        let registration = r.register(ContextAPI.self, lifetime: .singleton) { ContextAPIImpl("live") }
        let first = r.resolve(ContextAPI.self)
        registration.onTest { ContextAPIImpl("test") }
        let second = r.resolve(ContextAPI.self)
        #expect(second !== first)
        #expect(second.kind == "live")
    }

    @Test func theProcessIsATestProcess() {
        let process = Resolver.Context.process
        #expect(process.isTest)
        #expect(!process.isPreview)
        #expect(process.arguments == CommandLine.arguments)
        #if DEBUG
            #expect(process.isDebug)
        #else
            #expect(!process.isDebug)
        #endif
        #expect(Resolver().context == process)
    }

    @Test func onTestBuildsInATestProcess() {
        let resolver = Resolver()
        resolver.register { ContextAPIImpl("live") as ContextAPI }
            .onTest { ContextAPIImpl("test") as ContextAPI }
        let api: ContextAPI = resolver.resolve()
        #expect(api.kind == "test")
    }

    @Test(arguments: [
        (context(arguments: ["-mockAPI"], preview: true, test: true, simulator: true, debug: true), "argument"),
        (context(preview: true, test: true, simulator: true, debug: true), "preview"),
        (context(test: true, simulator: true, debug: true), "test"),
        (context(simulator: true, debug: true), "simulator"),
        (context(debug: true), "debug"),
        (context(arguments: ["-other"]), "live"),
        (context(), "live"),
    ])
    func theMostSpecificContextWins(context: Resolver.Context, expected: String) {
        let resolver = Resolver()
        resolver.context = context
        registerEveryContext(in: resolver)
        let api: ContextAPI = resolver.resolve()
        #expect(api.kind == expected)
    }

    @Test func aDeviceFactoryAppliesOutsideASimulator() {
        let resolver = Resolver()
        resolver.register { ContextAPIImpl("live") as ContextAPI }
            .onDevice { ContextAPIImpl("device") as ContextAPI }
            .onDebug { ContextAPIImpl("debug") as ContextAPI }
        resolver.context = context(debug: true)
        #expect((resolver.resolve() as ContextAPI).kind == "device")
        resolver.context = context(simulator: true, debug: true)
        #expect((resolver.resolve() as ContextAPI).kind == "debug")
    }

    @Test func ofSeveralArgumentsTheFirstGivenAFactoryWins() {
        let resolver = Resolver()
        resolver.register { ContextAPIImpl("live") as ContextAPI }
            .onArgument("-b") { ContextAPIImpl("b") as ContextAPI }
            .onArgument("-a") { ContextAPIImpl("a") as ContextAPI }
        resolver.context = context(arguments: ["-a", "-b"])
        #expect((resolver.resolve() as ContextAPI).kind == "b")
        resolver.context = context(arguments: ["-a"])
        #expect((resolver.resolve() as ContextAPI).kind == "a")
    }

    @Test func givingAContextAFactoryAgainReplacesIt() {
        let resolver = Resolver()
        resolver.context = context(test: true)
        resolver.register { ContextAPIImpl("live") as ContextAPI }
            .onTest { ContextAPIImpl("first") as ContextAPI }
            .onTest { ContextAPIImpl("second") as ContextAPI }
        #expect((resolver.resolve() as ContextAPI).kind == "second")
    }

    @Test func aContextFactoryMayTakeTheResolver() {
        let resolver = Resolver()
        resolver.context = context(test: true)
        resolver.register { ContextLog("from the container") }
        resolver.register { ContextAPIImpl("live") as ContextAPI }
            .onTest { r in ContextAPIImpl((r.resolve() as ContextLog).value) as ContextAPI }
        #expect((resolver.resolve() as ContextAPI).kind == "from the container")
    }

    @Test func theLifetimeAliasesAndStepsApplyToTheChosenFactory() {
        let resolver = Resolver()
        resolver.context = context(test: true)
        resolver.register { ContextAPIImpl("live") }
            .implements(ContextAPI.self)
            .lifetime(.singleton)
            .onTest { ContextAPIImpl("test") }
        resolver.register { ContextClient(api: $0.resolve()) }
            .onTest { ContextClient(api: $0.resolve()) }
            .initCompleted { $0.completed = true }
        let first: ContextAPI = resolver.resolve()
        let second: ContextAPIImpl = resolver.resolve()
        #expect(first.kind == "test")
        #expect(first === second)
        let client: ContextClient = resolver.resolve()
        #expect(client.completed)
        #expect(client.api === first)
    }

    @Test func addingAContextDropsWhatWasKept() {
        let resolver = Resolver()
        resolver.context = context(test: true)
        let registration = resolver.register(lifetime: .singleton) { ContextAPIImpl("live") as ContextAPI }
        #expect((resolver.resolve() as ContextAPI).kind == "live")
        registration.onTest { ContextAPIImpl("test") as ContextAPI }
        #expect((resolver.resolve() as ContextAPI).kind == "test")
    }

    @Test func aContainersContextReachesItsChildrenButNotItsParent() {
        let parent = Resolver()
        parent.context = context()
        registerEveryContext(in: parent)
        let child = Resolver(isolatedChildOf: parent)
        child.context.arguments = ["-mockAPI"]
        let grandchild = Resolver(isolatedChildOf: child)
        #expect((child.resolve() as ContextAPI).kind == "argument")
        #expect((grandchild.resolve() as ContextAPI).kind == "argument")
        #expect((parent.resolve() as ContextAPI).kind == "live")
        #expect(parent.context.arguments.isEmpty)
    }

    @Test func aSharedInstanceIsBuiltInTheContextOfTheContainerThatKeepsIt() {
        let parent = Resolver()
        parent.context = context()
        registerEveryContext(in: parent, lifetime: .singleton)
        // A plain child shares the parent's singleton, built in the parent's context.
        let plain = Resolver(parent: parent)
        plain.context = context(test: true)
        #expect((plain.resolve() as ContextAPI).kind == "live")
        // An isolating child (a test container) keeps its own, built in its own context.
        let isolated = Resolver(isolatedChildOf: parent)
        isolated.context = context(test: true)
        let own: ContextAPI = isolated.resolve()
        #expect(own.kind == "test")
        #expect(own === isolated.resolve() as ContextAPI)
        #expect((parent.resolve() as ContextAPI).kind == "live")
    }

    @Test func aTransientInAPlainChildIsBuiltInTheChildsContext() {
        let parent = Resolver()
        parent.context = context()
        registerEveryContext(in: parent)
        let child = Resolver(parent: parent)
        child.context = context(preview: true)
        #expect((child.resolve() as ContextAPI).kind == "preview")
    }

    @Test func asyncResolutionsUseTheContextFactory() async throws {
        let resolver = Resolver()
        resolver.context = context(test: true)
        resolver.register(lifetime: .singleton) { () async throws -> ContextAPI in ContextAPIImpl("live async") }
            .onTest { ContextAPIImpl("test") as ContextAPI }
        let api: ContextAPI = try await resolver.tryResolveAsync()
        #expect(api.kind == "test")
        resolver.context = context()
        let other = Resolver(isolatedChildOf: resolver)
        let live: ContextAPI = try await other.tryResolveAsync()
        #expect(live.kind == "live async")
    }

    @Test func aMainActorContextFactoryBindsTheRegistration() async {
        let resolver = Resolver()
        resolver.context = context(test: true)
        let registration = resolver.register { ContextAPIImpl("live") as ContextAPI }
        await MainActor.run {
            _ = registration.onTest { ContextAPIImpl("test on the main actor") as ContextAPI }
        }
        let offMain = await Task.detached { () -> ResolutionError? in
            do {
                let _: ContextAPI = try resolver.tryResolve()
                return nil
            } catch {
                return error as? ResolutionError
            }
        }.value
        #expect(offMain?.description.contains("bound to the main actor") == true)
        let onMain = await MainActor.run { (resolver.resolve() as ContextAPI).kind }
        #expect(onMain == "test on the main actor")
    }

    @Test func verifySaysWhichContextAndFactoryItUsed() {
        let resolver = Resolver()
        resolver.context = context(test: true, debug: true)
        registerEveryContext(in: resolver)
        resolver.register { ContextLog("no contexts") }
        let report = resolver.verify()
        #expect(report.isValid)
        #expect(report.context == context(test: true, debug: true))
        #expect(report.contextFactories == ["ContextAPI: its test factory"])
        #expect(report.description.contains("context: test, debug; built with context factories:"))
        #expect(report.description.contains("- ContextAPI: its test factory"))
        resolver.context = context()
        #expect(resolver.verify().contextFactories == ["ContextAPI: its own factory"])
    }

    @Test func verifyBuildsAnAsyncRegistrationWhoseContextFactoryIsSynchronous() {
        let resolver = Resolver()
        resolver.context = context(test: true)
        resolver.register(lifetime: .singleton) { () async throws -> ContextAPI in ContextAPIImpl("live async") }
            .onTest { ContextAPIImpl("test") as ContextAPI }
        let report = resolver.verify()
        #expect(report.verified == ["ContextAPI"])
        #expect(report.skipped.isEmpty)
        resolver.context = context()
        #expect(resolver.verify().skipped == ["ContextAPI"])  // its own factory is async
    }

    @Test func theGraphMarksContextFactories() {
        let resolver = Resolver()
        registerEveryContext(in: resolver)
        resolver.register { ContextLog("no contexts") }
        let graph = resolver.dependencyGraph()
        let api = graph.nodes.first { $0.title == "ContextAPI" }
        #expect(api?.contexts == ["debug", "simulator", "test", "preview", "argument -mockAPI"])
        #expect(graph.nodes.first { $0.title == "ContextLog" }?.contexts == [])
        #expect(graph.mermaid.contains("on debug, simulator, test, preview, argument -mockAPI"))
    }

    @Test func aContextFactoryOnARegistrationWithArgumentsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let resolver = Resolver()
            resolver.register(arguments: String.self) { ContextLog($0) }
                .onTest { ContextLog("no argument") }
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("a test factory cannot build ContextLog with arguments (String)"))
    }
}

/// Parallel tests, each with its own context in its own test container over one shared
/// registration: no test sees another's.
@Suite(.isolatedResolver) struct ParallelContextTests {
    static let shared: Resolver = {
        let resolver = Resolver(id: "ParallelContextTests")
        registerEveryContext(in: resolver, lifetime: .singleton)
        return resolver
    }()

    @Test(arguments: 0..<24)
    func eachTestSeesItsOwnContext(number: Int) async {
        let container = Resolver(isolatedChildOf: Self.shared)
        let contexts = [context(arguments: ["-mockAPI"]), context(preview: true), context(test: true), context()]
        let expected = ["argument", "preview", "test", "live"][number % 4]
        container.context = contexts[number % 4]
        await Resolver.withContainer(container) {
            for _ in 0..<50 {
                let api: ContextAPI = Resolver.resolve()
                #expect(api.kind == expected)
                await Task.yield()
            }
        }
    }

    @Test func theTestContainersContextChangesOnlyThisTest() {
        Resolver.current.context.arguments.append("-mockAPI")
        Resolver.register { ContextAPIImpl("live") as ContextAPI }
            .onArgument("-mockAPI") { ContextAPIImpl("argument") as ContextAPI }
        #expect((Resolver.resolve() as ContextAPI).kind == "argument")
        #expect(!Resolver.main.context.arguments.contains("-mockAPI"))
    }
}

// Twins of the Contexts sections of Testing.md and README.md.

protocol API: AnyObject {}
final class LiveAPI: API {}
final class MockAPI: API {}
final class PreviewAPI: API {}
final class DebugAPI: API {}

@Suite(.isolatedResolver) struct ContextDocumentationTests {
    init() {
        Resolver.register(lifetime: .singleton) { LiveAPI() as API }
            .onTest { MockAPI() as API }  // running under XCTest or Swift Testing
            .onPreview { PreviewAPI() as API }  // SwiftUI previews
            .onDebug { DebugAPI() as API }  // DEBUG builds
            .onArgument("-mockAPI") { MockAPI() as API }  // launched with that argument
    }

    @Test func inATestProcessTheTestFactoryBuilds() {
        let api: API = Resolver.resolve()
        #expect(api is MockAPI)
        #expect(api === Resolver.resolve() as API)  // the lifetime applies
    }

    @Test func launchedWithMockAPI() {
        Resolver.current.context.arguments.append("-mockAPI")
        let api: API = Resolver.resolve()
        #expect(api is MockAPI)
    }

    @Test func theLiveAPI() {
        Resolver.current.context = Resolver.Context()  // nothing holds: the registration's own factory
        let api: API = Resolver.resolve()
        #expect(api is LiveAPI)
    }

    @Test func aPreview() {
        Resolver.current.context.isPreview = true
        let api: API = Resolver.resolve()
        #expect(api is PreviewAPI)
    }

    @Test func aDebugBuildOutsideTests() {
        Resolver.current.context = Resolver.Context(isDebug: true)
        let api: API = Resolver.resolve()
        #expect(api is DebugAPI)
    }
}
