import Foundation
import Syringe
import SyringeTesting
import Testing

// Twins of the code snippets in the DocC articles (Sources/Syringe/Syringe.docc) and the README.
// Each test names the article and section its snippet comes from, and runs the snippet's code
// with `Doc`-prefixed types, in a container of its own: snippets that use static calls run
// inside `Resolver.withContainer(r) { … }`, so nothing here registers into `Resolver.main`.

// MARK: - Shared fixtures (the tutorial's chain)

private protocol DocNetworkServiceProtocol {
    func fetch(_ path: String) -> String
}

private final class DocNetworkService: DocNetworkServiceProtocol {
    let serial = FxSerial.next()
    func fetch(_ path: String) -> String { "[{\"id\": \"bitcoin\"}]" }
}

private final class DocMockNetworkService: DocNetworkServiceProtocol {
    var result = ""
    func fetch(_ path: String) -> String { result }
}

private final class DocURLComponentsService {
    func assetsPath(limit: Int) -> String { "/v2/assets?limit=\(limit)" }
}

private final class DocAssetService {
    @Inject private var network: DocNetworkServiceProtocol
    @Inject private var urls: DocURLComponentsService

    func fetchAssets() -> String { network.fetch(urls.assetsPath(limit: 10)) }
}

private final class DocAssetListViewModel {
    private let service: DocAssetService

    init(service: DocAssetService = Resolver.resolve()) {
        self.service = service
    }

    func load() -> String { service.fetchAssets() }
}

/// The autowired variant of `AssetService` (ArgumentsAndAutowiring, Containers).
private final class DocAutoAssetService {
    let network: DocNetworkServiceProtocol
    let urls: DocURLComponentsService
    init(network: DocNetworkServiceProtocol, urls: DocURLComponentsService) {
        self.network = network
        self.urls = urls
    }
}

private enum DocStaging: Qualifier {}
private enum DocAdmin: Qualifier {}
private enum DocRegistrationFlow: Scope {}

private final class DocAPIClient {
    let url: String
    init(url: String) { self.url = url }
}

private final class DocUser {
    let serial = FxSerial.next()
    var name = ""
}

/// Replaces the container's name in a message, so that texts copied from runs against `main`
/// can be compared with the same message from a test's own container (and lines of this file
/// with the app's lines the documentation shows, as ``docText(_:sites:)`` does).
private func docMessage(_ error: ResolutionError, container: Resolver, sites: [Int: String] = [:]) -> String {
    docText(
        error.description.replacingOccurrences(of: "in container \(container.name)", with: "in container main"),
        sites: sites)
}

/// Replaces each line of this file in `sites` with the app's line the documentation shows in
/// its place (`MyApp/Services.swift:3`), and drops the suite's name from the types declared
/// inside it: messages name a type with its enclosing types, and the documentation declares
/// these types at the top level.
private func docText(_ text: String, sites: [Int: String] = [:]) -> String {
    var text = text
    for (line, site) in sites {
        text = text.replacingOccurrences(of: "SyringeTests/DocumentationExamplesTests.swift:\(line)", with: site)
    }
    return text.replacingOccurrences(of: "DocumentationExamplesTests.", with: "")
}

@Suite struct DocumentationExamplesTests {
    // MARK: Syringe.md (landing page)

    private final class LandingAssetService {
        @Inject var network: DocNetworkServiceProtocol
    }

    /// Syringe.md, Overview: register a singleton that implements a protocol, inject it.
    @Test func landingOverview() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(lifetime: .singleton) { DocNetworkService() }
                .implements(DocNetworkServiceProtocol.self)
            Resolver.register { LandingAssetService() }

            let service: LandingAssetService = Resolver.resolve()
            let again: LandingAssetService = Resolver.resolve()
            #expect(service.network.fetch("/") == "[{\"id\": \"bitcoin\"}]")
            #expect((service.network as? DocNetworkService) === (again.network as? DocNetworkService))
        }
    }

    private final class LandingDebugMenu {
        @Inject(DocStaging.self) var api: DocAPIClient
        @Inject(DocRegistrationFlow.self) var user: DocUser
    }

    /// Syringe.md, Overview: qualifier and scope markers in property wrappers.
    @Test func landingQualifierAndScope() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(qualifiedBy: DocStaging.self) { DocAPIClient(url: "https://staging.example.com") }
            Resolver.register(scopedTo: DocRegistrationFlow.self) { DocUser() }
            let first = LandingDebugMenu()
            let second = LandingDebugMenu()
            #expect(first.api.url == "https://staging.example.com")
            #expect(first.user === second.user)
        }
    }

    private final class LandingAssetListViewModel {
        @Inject var service: DocAutoAssetService
    }

    /// Syringe.md and Diagnostics.md, "Anatomy of a message": the missing-protocol message.
    /// (The copy in the docs comes from a run whose chain was built by a stopping `resolve()`;
    /// the same text is thrown here through `autoregister`.)
    @Test func landingMessage() throws {
        let r = Resolver()
        r.register { DocNetworkService() }
        r.register { DocURLComponentsService() }
        let line = #line + 1
        r.autoregister(DocAutoAssetService.init)
        r.autoregister(Holder.init)
        let error = try #require(throws: ResolutionError.self) { try r.tryResolve(Holder.self) }
        #expect(
            docMessage(error, container: r, sites: [line: "MyApp/AssetService.swift:6"]) == """
                Syringe: no registration for DocNetworkServiceProtocol
                  while resolving Holder → DocAutoAssetService → DocNetworkServiceProtocol
                  in container main
                  requested at MyApp/AssetService.swift:6
                  DocNetworkService is registered; to serve DocNetworkServiceProtocol add \
                .implements(DocNetworkServiceProtocol.self) to its registration
                """)
    }

    private final class Holder {
        init(service: DocAutoAssetService) {}
    }

    // MARK: GettingStarted.md

    /// GettingStarted.md, "Describe the services", "Register them", "Resolve".
    @Test func gettingStartedChain() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
            Resolver.register { DocURLComponentsService() }
            Resolver.register { DocAssetService() }
            Resolver.register { DocAssetListViewModel() }

            let model: DocAssetListViewModel = Resolver.resolve()
            #expect(model.load() == "[{\"id\": \"bitcoin\"}]")
        }
    }

    /// GettingStarted.md, "Register them": the body of `registerAllServices()`. The
    /// `extension Resolver: @retroactive ResolverRegistering` itself cannot be declared here (this
    /// test module already conforms in ContainerTests, and a process holds one conformance); the
    /// bare `register` calls resolve to the static API, as inside that extension.
    @Test func gettingStartedRegisterAllServicesBody() {
        let r = Resolver()
        Resolver.withContainer(r) {
            DocRegistrations.registerAllServices()
        }
        let model: DocAssetListViewModel = Resolver.withContainer(r) { Resolver.resolve() }
        #expect(model.load() == "[{\"id\": \"bitcoin\"}]")
        #expect(r.verify().isValid)
    }

    /// GettingStarted.md, "Resolve": `optional`, `tryResolve` and `resolveAll`.
    @Test func gettingStartedRelatedCalls() throws {
        let r = Resolver()
        try Resolver.withContainer(r) {
            Resolver.register { DocURLComponentsService() }
            let missing: DocAPIClient? = Resolver.optional()
            #expect(missing == nil)
            #expect(throws: ResolutionError.self) { try Resolver.tryResolve(DocAPIClient.self) }
            let urls: DocURLComponentsService = try Resolver.tryResolve()
            #expect(urls.assetsPath(limit: 1) == "/v2/assets?limit=1")
            #expect((Resolver.resolveAll() as [DocURLComponentsService]).count == 1)
        }
    }

    /// GettingStarted.md, "Check the whole container at once": `expectValid()` on a sound container.
    @Test func gettingStartedExpectValid() {
        let r = Resolver()
        Resolver.withContainer(r) { DocRegistrations.registerAllServices() }
        let report = r.expectValid()
        #expect(report.isValid)
        #expect(report.failures.isEmpty)
    }

    // MARK: LifetimesAndScopes.md

    private final class Database {
        let serial = FxSerial.next()
    }
    private final class ImageCache {}
    private final class AppClock: Singleton {}

    /// LifetimesAndScopes.md, "Choose a lifetime".
    @Test func lifetimesChoose() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(lifetime: .singleton) { Database() }
            Resolver.register { ImageCache() }.lifetime(.weak)
            #expect((Resolver.resolve() as Database) === (Resolver.resolve() as Database))
            let cache: ImageCache = Resolver.resolve()
            #expect(cache === (Resolver.resolve() as ImageCache))
        }

        let resolver = Resolver()
        resolver.defaultLifetime = .singleton
        resolver.register { Database() }
        #expect((resolver.resolve() as Database) === (resolver.resolve() as Database))

        let clocks = Resolver()
        Resolver.withContainer(clocks) {
            Resolver.register { AppClock() }
            #expect((Resolver.resolve() as AppClock) === (Resolver.resolve() as AppClock))
        }
    }

    /// LifetimesAndScopes.md, "Choose a lifetime": `.implements` shares the singleton.
    @Test func lifetimesImplementsSharesInstance() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(lifetime: .singleton) { DocNetworkService() }
                .implements(DocNetworkServiceProtocol.self)
            let concrete: DocNetworkService = Resolver.resolve()
            let abstract: DocNetworkServiceProtocol = Resolver.resolve()
            #expect((abstract as? DocNetworkService) === concrete)
        }
    }

    private final class UnitOfWork {}
    private final class OrderRepository { @Inject var work: UnitOfWork }
    private final class CustomerRepository { @Inject var work: UnitOfWork }
    private final class CheckoutModel {
        @Inject var orders: OrderRepository
        @Inject var customers: CustomerRepository
    }

    /// LifetimesAndScopes.md, "Share within one resolution: graph".
    @Test func lifetimesGraph() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(lifetime: .graph) { UnitOfWork() }
            Resolver.register { OrderRepository() }
            Resolver.register { CustomerRepository() }
            Resolver.register { CheckoutModel() }

            let checkout: CheckoutModel = Resolver.resolve()
            #expect(checkout.orders.work === checkout.customers.work)
            let other: CheckoutModel = Resolver.resolve()
            #expect(other.orders.work !== checkout.orders.work)

            let handMade = CheckoutModel()
            #expect(handMade.orders.work !== handMade.customers.work)
        }
    }

    /// LifetimesAndScopes.md, "Share while in use: weak".
    @Test func lifetimesWeak() {
        let r = Resolver()
        r.register(lifetime: .weak) { DocUser() }
        let serial: Int = {
            let held: DocUser = r.resolve()
            let again: DocUser = r.resolve()
            #expect(held === again)
            return held.serial
        }()
        let later: DocUser = r.resolve()
        #expect(later.serial != serial)
    }

    private final class UsernameScreen { @Inject(DocRegistrationFlow.self) var user: DocUser }
    private final class PasswordScreen { @Inject(DocRegistrationFlow.self) var user: DocUser }

    /// LifetimesAndScopes.md, "Name a sharing group: scopes".
    @Test func lifetimesScopes() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(scopedTo: DocRegistrationFlow.self) { DocUser() }

            let firstSerial: Int = {
                let username = UsernameScreen()
                let password = PasswordScreen()
                #expect(password.user === username.user)
                let viaCall: DocUser = Resolver.resolve(scopedTo: DocRegistrationFlow.self)
                #expect(viaCall === username.user)
                return username.user.serial
            }()
            #expect((Resolver.optional() as DocUser?) == nil)  // the scope is part of the key

            let nextFlow = UsernameScreen()
            #expect(nextFlow.user.serial != firstSerial)
        }
    }

    /// LifetimesAndScopes.md, "Keep a scope alive between screens".
    @Test func lifetimesBeginScope() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(scopedTo: DocRegistrationFlow.self) { DocUser() }

            let flow = Resolver.beginScope(DocRegistrationFlow.self)
            let firstSerial: Int = {
                let first: DocUser = Resolver.resolve(scopedTo: DocRegistrationFlow.self)
                first.name = "ada"
                return first.serial
            }()
            let second: DocUser = Resolver.resolve(scopedTo: DocRegistrationFlow.self)
            #expect(second.serial == firstSerial)
            #expect(second.name == "ada")
            flow.end()
        }
        let afterEnd: Int = Resolver.withContainer(r) {
            (Resolver.resolve(scopedTo: DocRegistrationFlow.self) as DocUser).name.count
        }
        #expect(afterEnd == 0)
    }

    private enum Session: Scope {
        static var retention: ScopeRetention { .strong }
    }
    private final class AuthenticatedUser {
        let serial = FxSerial.next()
    }

    /// LifetimesAndScopes.md, "Keep instances until told: strong scopes".
    @Test func lifetimesStrongScope() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(scopedTo: Session.self) { AuthenticatedUser() }
            func logOut() {
                Resolver.dropCached(scopedTo: Session.self)
            }

            let serial = (Resolver.resolve(scopedTo: Session.self) as AuthenticatedUser).serial
            #expect((Resolver.resolve(scopedTo: Session.self) as AuthenticatedUser).serial == serial)
            logOut()
            #expect((Resolver.resolve(scopedTo: Session.self) as AuthenticatedUser).serial != serial)
        }
        #expect(Global.retention == .strong)
    }

    /// LifetimesAndScopes.md, "Drop cached instances".
    @Test func lifetimesDrop() {
        let resolver = Resolver()
        resolver.register(lifetime: .singleton) { Database() }
        resolver.register { AppClock() }
        resolver.register(scopedTo: Session.self) { AuthenticatedUser() }
        let database: Database = resolver.resolve()
        let clock: AppClock = resolver.resolve()
        let user: AuthenticatedUser = resolver.resolve(scopedTo: Session.self)

        resolver.dropCached([Database.self])
        #expect((resolver.resolve() as Database) !== database)
        resolver.dropAllCached(except: [AppClock.self])
        #expect((resolver.resolve() as AppClock) === clock)
        resolver.dropCached(scopedTo: Session.self)
        #expect((resolver.resolve(scopedTo: Session.self) as AuthenticatedUser) !== user)
    }

    /// LifetimesAndScopes.md, "Lifetimes and runtime arguments": a non-transient lifetime stops.
    @Test func lifetimesArgumentsMustBeTransient() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver()
            docRegisterSingletonWithArguments(in: r)
        }
    }

    /// LifetimesAndScopes.md, "Lifetimes in child and test containers".
    @Test func lifetimesInChildAndTestContainers() {
        let parent = Resolver()
        parent.register(lifetime: .singleton) { Database() }
        let shared = DocUser()
        parent.registerSingleton(DocUser.self, shared)
        let parentDatabase: Database = parent.resolve()

        let child = Resolver(parent: parent)
        #expect((child.resolve() as Database) === parentDatabase)

        Resolver.withContainer(parent) {
            Resolver.withTestContainer {
                #expect((Resolver.resolve() as Database) !== parentDatabase)
                #expect((Resolver.resolve() as DocUser) === shared)
            }
        }
    }

    // MARK: QualifiersAndNames.md

    private final class DebugMenu {
        @Inject(DocStaging.self) var api: DocAPIClient
        @LazyInject(DocStaging.self) var lazyAPI: DocAPIClient
        @OptionalInject(DocStaging.self) var maybeAPI: DocAPIClient?
    }

    private final class SyncService {
        let api: DocAPIClient
        init(api: DocAPIClient = Resolver.resolve(qualifiedBy: DocStaging.self)) { self.api = api }
    }

    /// QualifiersAndNames.md, "Qualifiers".
    @Test func qualifiers() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { DocAPIClient(url: "https://api.example.com") }
            Resolver.register(qualifiedBy: DocStaging.self) { DocAPIClient(url: "https://staging.example.com") }

            let live: DocAPIClient = Resolver.resolve()
            let staging: DocAPIClient = Resolver.resolve(qualifiedBy: DocStaging.self)
            #expect(live.url == "https://api.example.com")
            #expect(staging.url == "https://staging.example.com")

            let menu = DebugMenu()
            #expect(menu.api.url == "https://staging.example.com")
            #expect(menu.lazyAPI.url == "https://staging.example.com")
            #expect(menu.maybeAPI?.url == "https://staging.example.com")
            #expect(SyncService().api.url == "https://staging.example.com")
        }
    }

    private protocol Bread {}
    private protocol Chocolate {}
    private struct Croissant: Bread {}
    private struct PainAuChocolat: Bread, Chocolate {}

    private final class Bakery {
        @Inject var bread: Bread
        @Inject(name: "🥐") var croissant: Bread
    }

    /// QualifiersAndNames.md, "Names".
    @Test func names() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { PainAuChocolat() as Bread }
            Resolver.register(name: "🥐") { Croissant() as Bread }
            Resolver.register(name: "🥐") { PainAuChocolat() as Chocolate }

            let bakery = Bakery()
            #expect(bakery.bread is PainAuChocolat)
            #expect(bakery.croissant is Croissant)
            #expect((Resolver.resolve(name: "🥐") as Chocolate) is PainAuChocolat)
        }
    }

    private final class AdminScreen {
        @Inject(DocRegistrationFlow.self, DocAdmin.self) var admin: DocUser
    }

    /// QualifiersAndNames.md, "Combining selectors".
    @Test func combiningSelectors() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(DocAPIClient.self, qualifiedBy: DocStaging.self, lifetime: .singleton) {
                DocAPIClient(url: "https://staging.example.com")
            }
            Resolver.register(DocUser.self, scopedTo: DocRegistrationFlow.self, qualifiedBy: DocAdmin.self) {
                DocUser()
            }
            let first: DocAPIClient = Resolver.resolve(qualifiedBy: DocStaging.self)
            #expect(first === (Resolver.resolve(qualifiedBy: DocStaging.self) as DocAPIClient))
            let screen = AdminScreen()
            let other = AdminScreen()
            #expect(screen.admin === other.admin)
            #expect((Resolver.optional(scopedTo: DocRegistrationFlow.self) as DocUser?) == nil)
        }
    }

    private protocol Plugin { var name: String { get } }
    private struct Logging: Plugin { let name = "logging" }
    private struct Metrics: Plugin { let name = "metrics" }

    /// QualifiersAndNames.md, "One instance from every registration".
    @Test func resolveAllPlugins() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(name: "logging") { Logging() as Plugin }
            Resolver.register(name: "metrics") { Metrics() as Plugin }
            let plugins: [Plugin] = Resolver.resolveAll()
            #expect(plugins.map(\.name) == ["logging", "metrics"])
        }
    }

    /// QualifiersAndNames.md, "When the selector does not match" (and Diagnostics.md).
    @Test func qualifierMismatchMessage() throws {
        let r = Resolver()
        r.register(qualifiedBy: DocStaging.self) { DocAPIClient(url: "https://staging.example.com") }
        let line = #line + 1
        let error = try #require(throws: ResolutionError.self) { try r.tryResolve(DocAPIClient.self) }
        #expect(
            docMessage(error, container: r, sites: [line: "MyApp/DebugMenu.swift:12"]) == """
                Syringe: no registration for DocAPIClient
                  in container main
                  requested at MyApp/DebugMenu.swift:12
                  DocAPIClient is registered under qualifier DocStaging; resolve it with (qualifiedBy: DocStaging.self)
                """)
    }

    // MARK: ArgumentsAndAutowiring.md

    private final class ClassD {
        let environment: String
        let timestamp: Int
        init(environment: String, timestamp: Int) {
            self.environment = environment
            self.timestamp = timestamp
        }
    }

    /// ArgumentsAndAutowiring.md, "Runtime arguments".
    @Test func argumentsTwo() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(arguments: String.self, Int.self) { env, ts in
                ClassD(environment: env, timestamp: ts)
            }
            let d: ClassD = Resolver.resolve(arguments: "stage", 1200)
            #expect(d.environment == "stage")
            #expect(d.timestamp == 1200)
        }
    }

    private struct Asset { let id: String }
    private final class AssetViewModel {
        let asset: Asset
        init(asset: Asset) { self.asset = asset }
    }

    /// ArgumentsAndAutowiring.md, "Runtime arguments": a single argument.
    @Test func argumentsSingle() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(arguments: Asset.self) { AssetViewModel(asset: $0) }
            let model: AssetViewModel = Resolver.resolve(arguments: Asset(id: "bitcoin"))
            #expect(model.asset.id == "bitcoin")
        }
    }

    private final class ClassE {
        let value: String?
        init(value: String?) { self.value = value }
    }

    /// ArgumentsAndAutowiring.md, "Optional arguments".
    @Test func argumentsOptional() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(arguments: String?.self) { ClassE(value: $0) }
            let none: ClassE = Resolver.resolve()
            let some: ClassE = Resolver.resolve(arguments: "SOME_VALUE")
            #expect(none.value == nil)
            #expect(some.value == "SOME_VALUE")
        }
    }

    private final class ClassA {}
    private final class ClassB {
        let classA: ClassA
        init(classA: ClassA) { self.classA = classA }
    }
    private final class ClassC {
        let classA: ClassA
        let classB: ClassB
        init(classA: ClassA, classB: ClassB) {
            self.classA = classA
            self.classB = classB
        }
    }

    /// ArgumentsAndAutowiring.md, "Resolving other dependencies inside an argument factory".
    @Test func argumentsPassedOn() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(arguments: ClassA.self) { ClassB(classA: $0) }
            Resolver.register(arguments: ClassA.self) { a in
                ClassC(classA: a, classB: Resolver.resolve(arguments: a))
            }
            let c: ClassC = Resolver.resolve(arguments: ClassA())
            #expect(c.classB.classA === c.classA)
        }
    }

    /// ArgumentsAndAutowiring.md, "When arguments do not match".
    @Test func argumentsMismatch() throws {
        let r = Resolver()
        r.register(arguments: String.self, Int.self) { env, ts in ClassD(environment: env, timestamp: ts) }
        let line = #line + 1  // a call in #require's body is at the macro's line
        let error = try #require(throws: ResolutionError.self) {
            try r.tryResolve(ClassD.self, arguments: "stage")
        }
        #expect(
            docMessage(error, container: r, sites: [line: "MyApp/Stage.swift:21"]) == """
                Syringe: no registration for ClassD with arguments (String)
                  in container main
                  requested at MyApp/Stage.swift:21
                  ClassD is registered with arguments (String, Int), called with (String): pass 2 arguments
                """)
        let report = r.verify()
        #expect(report.isValid)
        #expect(report.skipped.map { docText($0) } == ["ClassD with arguments (String, Int)"])
    }

    private protocol PinCodeRoutes: AnyObject {}
    private final class PinCodeRouter: PinCodeRoutes {}
    private final class PinCodeScreen {
        init(routes: any PinCodeRoutes) {}
    }

    /// ArgumentsAndAutowiring.md, "When arguments do not match": a value of a conforming class
    /// matches; a value of another type is named.
    @Test func argumentsOfAConformingClass() throws {
        let r = Resolver()
        r.register(arguments: (any PinCodeRoutes).self) { PinCodeScreen(routes: $0) }
        let router = PinCodeRouter()
        _ = try r.tryResolve(PinCodeScreen.self, arguments: router)
        let routes: any PinCodeRoutes = router
        _ = try r.tryResolve(PinCodeScreen.self, arguments: routes)
        let line = #line + 1  // a call in #require's body is at the macro's line
        let error = try #require(throws: ResolutionError.self) {
            try r.tryResolve(PinCodeScreen.self, arguments: "home")
        }
        #expect(
            docMessage(error, container: r, sites: [line: "MyApp/PinCodeRouter.swift:17"]) == """
                Syringe: no registration for PinCodeScreen with arguments (String)
                  in container main
                  requested at MyApp/PinCodeRouter.swift:17
                  PinCodeScreen is registered with arguments (PinCodeRoutes), called with (String): \
                a String is not a PinCodeRoutes; pass a value of the registered type
                """)
    }

    private final class Analytics {}
    private final class TrackedService {
        let analytics: Analytics?
        init(analytics: Analytics?) { self.analytics = analytics }
    }

    /// ArgumentsAndAutowiring.md, "Autowiring initializers".
    @Test func autowiring() throws {
        let r = Resolver()
        try Resolver.withContainer(r) {
            Resolver.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
            Resolver.register { DocURLComponentsService() }
            Resolver.autoregister(DocAutoAssetService.init)
            let service: DocAutoAssetService = Resolver.resolve()
            #expect(service.network is DocNetworkService)

            Resolver.autoregister(DocAutoAssetService.init(network:urls:), name: "explicit", lifetime: .singleton)
            let named: DocAutoAssetService = Resolver.resolve(name: "explicit")
            #expect(named === (Resolver.resolve(name: "explicit") as DocAutoAssetService))

            Resolver.autoregister(TrackedService.init)
            let tracked: TrackedService = try Resolver.tryResolve()
            #expect(tracked.analytics == nil)
        }
    }

    /// ArgumentsAndAutowiring.md, "Autowiring initializers": the two advantages, and the
    /// `try $0.tryResolve()` factory.
    @Test func autowiringAdvantages() throws {
        let r = Resolver()
        r.register { DocURLComponentsService() }
        r.autoregister(DocAutoAssetService.init)

        let report = r.verify()
        #expect(report.failures.map(\.requested) == ["DocNetworkServiceProtocol"])
        let graph = r.dependencyGraph()
        #expect(graph.mermaid.contains("DocNetworkServiceProtocol<br/>(missing)"))

        let thrown = try #require(throws: ResolutionError.self) { try r.tryResolve(DocAutoAssetService.self) }
        #expect(thrown.path == ["DocAutoAssetService", "DocNetworkServiceProtocol"])

        let byHand = Resolver()
        byHand.register { DocURLComponentsService() }
        byHand.register { DocAutoAssetService(network: try $0.tryResolve(), urls: try $0.tryResolve()) }
        let again = try #require(throws: ResolutionError.self) { try byHand.tryResolve(DocAutoAssetService.self) }
        #expect(again.requested == "DocNetworkServiceProtocol")
    }

    // MARK: Containers.md

    /// Containers.md, "Bind a container for a piece of work": `Resolver(parent: .current)` is
    /// the test's own container here.
    @Test func containersWithContainer() {
        let app = Resolver()
        app.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
        app.register { DocURLComponentsService() }
        app.register { DocAssetService() }
        app.register { DocAssetListViewModel() }

        let preview = Resolver.withContainer(app) { Resolver(parent: .current) }
        #expect(preview.parent === app)
        let mock = DocMockNetworkService()
        mock.result = "mock"
        preview.register { mock }.implements(DocNetworkServiceProtocol.self)

        let model: DocAssetListViewModel = Resolver.withContainer(preview) {
            Resolver.resolve()
        }
        #expect(model.load() == "mock")
        #expect((app.resolve() as DocAssetListViewModel).load() == "[{\"id\": \"bitcoin\"}]")
    }

    /// Containers.md, "Bind a container for a piece of work": `Task { }` inherits the binding,
    /// `Task.detached` does not, and the container can be carried across.
    @Test func containersTaskLocalBinding() async {
        let r = Resolver()
        r.register { DocURLComponentsService() }
        await Resolver.withContainer(r) {
            let inherited = await Task { Resolver.current === r }.value
            #expect(inherited)
            let detached = await Task.detached { Resolver.current === r }.value
            #expect(!detached)

            let container = Resolver.current
            let carried = await Task.detached {
                Resolver.withContainer(container) {
                    let service: DocURLComponentsService = Resolver.resolve()
                    return service.assetsPath(limit: 2)
                }
            }.value
            #expect(carried == "/v2/assets?limit=2")
        }
    }

    private final class OnlyInChild {}

    /// Containers.md, "Standalone, shared and child containers".
    @Test func containersKinds() {
        let standalone = Resolver()
        standalone.register { ClassA() }
        let first = Resolver(id: "DocumentationExamples.Resolver_1")
        first.register { ClassA() }
        let second = Resolver(id: "DocumentationExamples.Resolver_1")
        #expect(second.optional(ClassA.self) != nil)

        let parent = Resolver()
        parent.register { DocAPIClient(url: "parent") }
        let child = Resolver(parent: parent)
        #expect((child.resolve() as DocAPIClient).url == "parent")
        child.register { DocAPIClient(url: "child") }
        child.register { OnlyInChild() }
        #expect((child.resolve() as DocAPIClient).url == "child")
        #expect((parent.resolve() as DocAPIClient).url == "parent")
        #expect(parent.optional(OnlyInChild.self) == nil)
        withExtendedLifetime(first) {}
    }

    /// Containers.md, "Standalone, shared and child containers": a parent's transient factory
    /// resolves through the child, and a parent's singleton stays the parent's, built by it.
    @Test func containersParentFactoriesAndSingletons() {
        let parent = Resolver()
        parent.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
        parent.register { DocURLComponentsService() }
        parent.autoregister(DocAutoAssetService.init)
        parent.register(lifetime: .singleton) { Database() }

        let child = Resolver(parent: parent)
        child.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
        let throughChild: DocAutoAssetService = child.resolve()
        #expect(throughChild.network is DocMockNetworkService)
        #expect((parent.resolve() as DocAutoAssetService).network is DocNetworkService)

        let database: Database = parent.resolve()
        #expect((child.resolve() as Database) === database)
        #expect((Resolver(parent: parent).resolve() as Database) === database)

        // A parent's singleton is built by the parent, even when a child asks first.
        parent.autoregister(DocAutoAssetService.init, name: "shared", lifetime: .singleton)
        let first: DocAutoAssetService = child.resolve(name: "shared")
        #expect(first.network is DocNetworkService)
        #expect((parent.resolve(name: "shared") as DocAutoAssetService) === first)

        // A test container keeps its own copy, so the parent's stays untouched.
        let app = Resolver()
        app.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
        app.register { DocURLComponentsService() }
        app.autoregister(DocAutoAssetService.init, lifetime: .singleton)
        let overriding = Resolver(parent: app)
        overriding.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
        let inTest: DocAutoAssetService = Resolver.withContainer(overriding) {
            Resolver.withTestContainer { Resolver.resolve() }
        }
        #expect(inTest.network is DocMockNetworkService)
        #expect((app.resolve() as DocAutoAssetService).network is DocNetworkService)
    }

    private final class MyAppResolver: Resolver, @unchecked Sendable {
        init() { super.init(id: "DocumentationExamples.MyAppResolver") }
    }

    /// Containers.md, "Name your containers: subclasses".
    @Test func containersSubclass() {
        let resolver = MyAppResolver()
        resolver.register { ClassA() }
        let classA: ClassA? = MyAppResolver().optional()
        #expect(classA != nil)
        withExtendedLifetime(resolver) {}
    }

    /// Containers.md, "Quick containers: MockResolver" (with a parent of the test's own).
    @Test func containersMockResolver() {
        let app = Resolver()
        app.register { DocURLComponentsService() }
        let mock = MockResolver(parent: app) { r in
            r.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
        }
        #expect((mock.resolve() as DocNetworkServiceProtocol) is DocMockNetworkService)
        #expect(mock.optional(DocURLComponentsService.self) != nil)
        #expect(MockResolver { $0.register { ClassA() } }.optional(ClassA.self) != nil)
    }

    private struct NetworkModule: ResolverModule {
        func register(in resolver: Resolver) {
            resolver.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
            resolver.register { DocURLComponentsService() }
        }
    }

    private struct AssetsModule: ResolverModule {
        func register(in resolver: Resolver) {
            resolver.autoregister(DocAutoAssetService.init)
        }
    }

    /// Containers.md, "Modules" (and the `registerAllServices()` body that installs them).
    @Test func containersModules() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.install(NetworkModule(), AssetsModule())
            let service: DocAutoAssetService = Resolver.resolve()
            #expect(service.network is DocNetworkService)
        }
        #expect(r.verify().isValid)
    }

    /// Containers.md, "Replacing and forbidding overrides": the last registration wins by default.
    @Test func containersLastRegistrationWins() {
        let r = Resolver()
        r.register { DocAPIClient(url: "first") }
        r.register { DocAPIClient(url: "second") }
        #expect((r.resolve() as DocAPIClient).url == "second")

        r.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
        r.register(DocNetworkServiceProtocol.self) { DocNetworkService() }
        #expect((r.resolve() as DocNetworkServiceProtocol) is DocNetworkService)
        r.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
        #expect((r.resolve() as DocNetworkServiceProtocol) is DocMockNetworkService)
    }

    /// Containers.md, "Replacing and forbidding overrides": with overrides off, a duplicate stops.
    @Test func containersOverridesOff() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let resolver = Resolver()
            resolver.allowsOverrides = false
            resolver.register { ClassA() }
            resolver.register { ClassA() }
        }
        let stderr = fxStderr(result)
        #expect(stderr.contains("is already registered in container"))
        #expect(stderr.contains("first registered at"))
        #expect(stderr.contains("registered again at"))
    }

    /// Containers.md, "Removing registrations".
    @Test func containersRemoving() {
        let resolver = Resolver()
        resolver.register { ClassA() }
        resolver.register { ClassB(classA: ClassA()) }
        resolver.register { DocAPIClient(url: "live") }
        resolver.register(qualifiedBy: DocStaging.self) { DocAPIClient(url: "staging") }
        resolver.register(name: "x") { DocAPIClient(url: "x") }
        resolver.register(scopedTo: DocRegistrationFlow.self) { DocUser() }

        resolver.clearRegistration(for: ClassA.self)
        #expect(resolver.optional(ClassA.self) == nil)
        resolver.clearRegistration(for: DocAPIClient.self, qualifiedBy: DocStaging.self)
        #expect(resolver.optional(DocAPIClient.self, qualifiedBy: DocStaging.self) == nil)
        #expect(resolver.optional(DocAPIClient.self) != nil)
        resolver.clearRegistration(for: DocUser.self, scopedTo: DocRegistrationFlow.self)
        #expect(resolver.optional(DocUser.self, scopedTo: DocRegistrationFlow.self) == nil)
        resolver.clearAllRegistrations(for: DocAPIClient.self)
        #expect(resolver.optional(DocAPIClient.self, name: "x") == nil)
        #expect(resolver.optional(DocAPIClient.self) == nil)

        resolver.register(qualifiedBy: DocStaging.self) { DocAPIClient(url: "staging") }
        resolver.clearAllRegistrations(qualifiedBy: DocStaging.self)
        #expect(resolver.optional(DocAPIClient.self, qualifiedBy: DocStaging.self) == nil)
        resolver.register(scopedTo: DocRegistrationFlow.self) { DocUser() }
        resolver.clearAllRegistrations(scopedTo: DocRegistrationFlow.self)
        #expect(resolver.optional(DocUser.self, scopedTo: DocRegistrationFlow.self) == nil)

        resolver.register { ClassA() }
        resolver.clearAllRegistrations(except: [ClassB.self])
        #expect(resolver.optional(ClassA.self) == nil)
        #expect(resolver.optional(ClassB.self) != nil)

        let child = Resolver(parent: resolver)
        child.register { ClassA() }
        child.clearAllRegistrations()
        #expect(child.optional(ClassA.self) == nil)
        #expect(child.optional(ClassB.self) != nil)
    }

    @MainActor private final class AssetListScreenModel {
        @Inject var service: DocURLComponentsService
    }

    /// README.md and ConcurrencyAndTheMainActor.md, "Main-actor types": the snippet, compiled and run (on Linux
    /// too, where the main actor runs on another thread than the process's main one).
    private static let registerScreensLine = #line + 2
    @MainActor private static func registerScreens() {
        Resolver.register { AssetListScreenModel() }  // main-actor-bound
    }

    private static func registerScreensFromNonisolatedCode() {
        Resolver.register { @MainActor in AssetListScreenModel() }  // the same, said explicitly
    }

    @MainActor private static func makeAssetListScreen() -> AssetListScreenModel {
        Resolver.resolve()
    }

    /// README.md and ConcurrencyAndTheMainActor.md, "Main-actor types": main-actor code resolves; a detached
    /// task gets the message shown there.
    @Test func mainActorTypes() async throws {
        let r = Resolver()
        r.register { DocURLComponentsService() }
        Resolver.withContainer(r) { Self.registerScreensFromNonisolatedCode() }
        await MainActor.run {
            Resolver.withContainer(r) {
                _ = Self.makeAssetListScreen()
                Self.registerScreens()
                _ = Self.makeAssetListScreen()
            }
        }

        let message = await Task.detached {
            let line = #line + 2
            do throws(ResolutionError) {
                _ = try r.tryResolve(AssetListScreenModel.self)
                return ""
            } catch {
                return docMessage(
                    error, container: r,
                    sites: [Self.registerScreensLine: "MyApp/Screens.swift:12", line: "MyApp/Prefetch.swift:8"])
            }
        }.value
        #expect(
            message == """
                Syringe: AssetListScreenModel is bound to the main actor and was resolved off it
                  in container main
                  requested at MyApp/Prefetch.swift:8
                  its factory, registered at MyApp/Screens.swift:12, is isolated to the main actor (written in @MainActor code, or a @MainActor function)
                  resolve it from @MainActor code, or hop there first: await MainActor.run { … }
                  a factory that need not run on the main actor can be registered from nonisolated code (a ResolverModule, say), with no @MainActor on its closure or initializer
                """)
    }

    @MainActor private final class WalletScreenModel {
        let walletID: String
        init(walletID: String) { self.walletID = walletID }
    }

    @MainActor private final class PortfolioScreenModel {
        let service: DocURLComponentsService
        init(service: DocURLComponentsService) { self.service = service }
    }

    private struct ScreensModule: ResolverModule {
        func register(in resolver: Resolver) {
            resolver.register { @MainActor in AssetListScreenModel() }
            resolver.register(arguments: String.self) { @MainActor id in WalletScreenModel(walletID: id) }
            resolver.autoregister(PortfolioScreenModel.init)  // a @MainActor initializer
        }
    }

    /// ConcurrencyAndTheMainActor.md, "Main-actor types": the forms whose factory type says
    /// `@MainActor`, installed from nonisolated code; main-actor code resolves them, and no other.
    @Test func concurrencyScreensModule() async throws {
        let r = Resolver()
        r.register { DocURLComponentsService() }
        r.install(ScreensModule())
        let walletID = try await MainActor.run {
            _ = try r.tryResolve(AssetListScreenModel.self)
            _ = try r.tryResolve(PortfolioScreenModel.self)
            return try r.tryResolve(WalletScreenModel.self, arguments: "main").walletID
        }
        #expect(walletID == "main")
        let refused = await Task.detached { () -> Bool in
            do throws(ResolutionError) {
                _ = try r.tryResolve(PortfolioScreenModel.self)
                return false
            } catch {
                return error.description.contains("is bound to the main actor and was resolved off it")
            }
        }.value
        #expect(refused)
    }

    /// README.md and ConcurrencyAndTheMainActor.md: the body of a `@MainActor`
    /// `registerAllServices()`, as the conformance of a type of its own.
    private enum MainActorRegistrations: MainActorResolverRegistering {
        @MainActor static func registerAllServices() {
            Resolver.register { AssetListScreenModel() }
            Resolver.install(NetworkModule(), AssetsModule())
        }
    }

    /// README.md and ConcurrencyAndTheMainActor.md, "Registering everything from main-actor code":
    /// it runs on the first resolution from main-actor code (in a process of its own, since
    /// it registers into `Resolver.main`).
    @Test func concurrencyMainActorRegisterAllServices() async {
        await #expect(processExitsWith: .success) {
            msgUseRegisteringHook(MainActorRegistrations.self)
            await MainActor.run {
                let screen: AssetListScreenModel = Resolver.main.resolve()
                _ = screen.service
            }
            let isLive = await Task.detached {
                (Resolver.main.resolve() as DocAutoAssetService).network is DocNetworkService
            }
            .value
            precondition(isLive)
        }
    }

    private protocol PriceAPI: AnyObject {
        func price() -> Double
    }

    private final class LivePriceAPI: PriceAPI {
        func price() -> Double { 67_012.45 }
    }

    private actor PriceStore {
        let api: any PriceAPI
        init(api: sending any PriceAPI) { self.api = api }
        func price() -> Double { api.price() }
    }

    /// ConcurrencyAndTheMainActor.md, "Passing resolved values to actors".
    @Test func concurrencyPassingResolvedValuesToActors() async throws {
        let r = Resolver()
        r.register(PriceAPI.self) { LivePriceAPI() }
        let store = Resolver.withContainer(r) { PriceStore(api: Resolver.resolve()) }
        #expect(await store.price() == 67_012.45)
        Resolver.withContainer(r) { Resolver.autoregister(PriceStore.init) }
        let autowired: PriceStore = try r.tryResolve()
        #expect(await autowired.price() == 67_012.45)
    }

    // MARK: Testing.md

    /// Testing.md, "Swift Testing: the isolatedResolver trait" (also the README's testing guide).
    @Test(.isolatedResolver) func testingIsolatedResolver() {
        Resolver.register { DocURLComponentsService() }
        Resolver.register { DocAssetService() }
        Resolver.register(lifetime: .singleton) { DocMockNetworkService() }
            .implements(DocNetworkServiceProtocol.self)
        let network: DocMockNetworkService = Resolver.resolve()
        network.result = "[{\"id\": \"bitcoin\"}]"

        let sut: DocAssetService = Resolver.resolve()
        #expect(sut.fetchAssets() == "[{\"id\": \"bitcoin\"}]")
        #expect(Resolver.current.name.hasPrefix("test container"))
    }

    /// Testing.md, "XCTest and plain code: withTestContainer": the closure form, sync and async.
    @Test func testingWithTestContainer() async {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.withTestContainer {
                Resolver.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
                #expect(Resolver.current.parent === r)
                #expect(Resolver.optional(DocNetworkServiceProtocol.self) != nil)
            }
            #expect(Resolver.optional(DocNetworkServiceProtocol.self) == nil)
        }
        await Resolver.withContainer(r) {
            await Resolver.withTestContainer {
                await Task.yield()
                #expect(Resolver.current.parent === r)
            }
        }
    }

    /// Diagnostics.md: inside a closure, the error is caught as a `ResolutionError`.
    @Test func aTypedCatchInsideAClosure() {
        let requested = Resolver.withContainer(Resolver()) { () -> String? in
            do {
                let service: DocAssetService = try Resolver.tryResolve()
                _ = service
                return nil
            } catch let error as ResolutionError {
                return error.requested
            } catch {
                return "\(error)"
            }
        }
        #expect(requested == "DocAssetService")
    }

    /// Testing.md, "Swift Testing: the isolatedResolver trait": the form that registers first.
    @Test(
        .isolatedResolver { $0.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self) })
    func fetchesWithTheTraitsMock() {
        Resolver.register { DocURLComponentsService() }
        Resolver.register { DocAssetService() }
        let sut: DocAssetService = Resolver.resolve()
        #expect(sut.fetchAssets() == "")
        #expect(Resolver.current.isRegistered(DocNetworkServiceProtocol.self))
        #expect(!Resolver.root.isRegistered(DocNetworkServiceProtocol.self))
    }

    /// Testing.md, "Swift Testing: the isolatedResolver trait": on a suite, every test runs in a
    /// test container of its own, and the suite's `init()` runs inside it.
    @Suite(.isolatedResolver) struct SuiteExample {
        let containerAtInit: Resolver

        init() {
            Resolver.register { DocURLComponentsService() }
            Resolver.register { DocAssetService() }
            containerAtInit = Resolver.current
        }

        @Test func fetchesAssets() {
            Resolver.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
            let sut: DocAssetService = Resolver.resolve()
            #expect(sut.fetchAssets() == "")
            #expect(containerAtInit === Resolver.current)
            #expect(Resolver.current.name.hasPrefix("test container"))
        }

        @Test func anotherTestGetsAnotherContainer() {
            #expect(Resolver.optional(DocNetworkServiceProtocol.self) == nil)
            #expect(containerAtInit === Resolver.current)
        }
    }

    /// Testing.md, "Threads and detached tasks".
    @Test(.isolatedResolver) func testingResolvesOnAnotherThread() async {
        Resolver.register { DocURLComponentsService() }
        let container = Resolver.current
        let path = await Task.detached {
            Resolver.withContainer(container) {
                (Resolver.resolve() as DocURLComponentsService).assetsPath(limit: 1)
            }
        }.value
        #expect(path == "/v2/assets?limit=1")
    }

    /// Testing.md, "Swapping the root container": the `MockResolver` the tutorial's `setUp`
    /// assigns to `Resolver.root` (the assignment itself is process-wide, so it runs in an exit
    /// test, which has a process of its own).
    @Test func testingSwapRoot() async {
        await #expect(processExitsWith: .success) {
            Resolver.root = MockResolver(parent: Resolver()) { r in
                r.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
            }
            precondition(Resolver.resolve(DocNetworkServiceProtocol.self) is DocMockNetworkService)
            Resolver.root = .main
            precondition(Resolver.current === Resolver.main)
        }
    }

    // MARK: Migrating.md

    private protocol VariantA {}
    private protocol VariantB {}
    private final class VariantClass: VariantA, VariantB {}
    private protocol OpaqueProtocol {
        associatedtype Value
        func getValue() -> Value
    }
    private final class OpaqueClassA: OpaqueProtocol {
        func getValue() -> String { "hello" }
    }
    private protocol Worker {}
    private final class MySingleton: Worker, Sendable {
        static let shared = MySingleton()
    }
    private final class StringHolder {
        @Inject("🥐") var text: String
    }

    /// Migrating.md: the Syringe spellings of the tables that are not twinned elsewhere.
    @Test func migratingSpellings() {
        let resolver = Resolver()
        resolver.register(lifetime: .singleton) { ClassA() }
        resolver.register { ClassB(classA: $0.resolve()) }
        let b: ClassB = resolver.resolve()
        #expect(b.classA === (resolver.resolve() as ClassA))
        let missing: DocAPIClient? = resolver.optional()
        #expect(missing == nil)
        let asOptional: DocAPIClient? = resolver.resolve()
        #expect(asOptional == nil)

        resolver.register { VariantClass() }.implements(VariantA.self).implements(VariantB.self)
        #expect(resolver.optional(VariantA.self) != nil)
        #expect(resolver.optional(VariantB.self) != nil)
        let variant: VariantA = resolver.resolve(VariantClass.self)
        #expect(variant is VariantClass)

        resolver.register(lifetime: .singleton) { OpaqueClassA() }
        let some: some OpaqueProtocol = resolver.resolve(OpaqueClassA.self)
        #expect(some.getValue() as? String == "hello")

        let trifork = Resolver()
        Resolver.withContainer(trifork) {
            Resolver.registerSingleton(Worker.self, MySingleton.shared)
            #expect((Resolver.resolve() as Worker) as? MySingleton === MySingleton.shared)
            Resolver.register(Worker.self) { MySingleton.shared }
            #expect((Resolver.resolve() as Worker) as? MySingleton === MySingleton.shared)
        }

        let firebolt = Resolver(id: "DocumentationExamples.MyAppResolver.ids")
        firebolt.register { ClassA() }
        let byID: ClassA? = Resolver(id: "DocumentationExamples.MyAppResolver.ids").optional()
        #expect(byID != nil)
        withExtendedLifetime(firebolt) {}

        // An unlabelled string is the "use this value" form: on a String property it is the value.
        #expect(StringHolder().text == "🥐")
    }

    /// Migrating.md, "From Resolver": `defaultScope = .graph` becomes `defaultLifetime = .graph`
    /// inside a static method of `Resolver`, as in `registerAllServices()`.
    @Test func migratingDefaultLifetimeInStaticContext() {
        let r = Resolver()
        Resolver.withContainer(r) { Resolver.docRegisterWithGraphDefault() }
        #expect(r.defaultLifetime == .graph)
        #expect(r.dependencyGraph().nodes.first?.lifetime == "graph")
    }

    // MARK: README.md

    private protocol Greeter {
        func greet(_ name: String) -> String
    }
    private final class EnglishGreeter: Greeter {
        func greet(_ name: String) -> String { "Hello, \(name)!" }
    }
    private final class WelcomeScreen {
        @Inject var greeter: Greeter
        func show() -> String { greeter.greet("Syringe") }
    }
    private enum Formal: Qualifier {}

    /// README.md, "Quick start": the program and the three things it prints.
    @Test func readmeQuickStart() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(lifetime: .singleton) { EnglishGreeter() }
                .implements(Greeter.self)
            Resolver.register { WelcomeScreen() }

            let screen: WelcomeScreen = Resolver.resolve()
            #expect(screen.show() == "Hello, Syringe!")
            #expect(r.verify().description == "Syringe: all 3 keys resolve (2 registrations, 1 alias)")

            let line = #line + 2
            do throws(ResolutionError) {
                let formal: Greeter = try Resolver.tryResolve(qualifiedBy: Formal.self)
                Issue.record("unexpected \(formal.greet("Syringe"))")
            } catch {
                #expect(
                    docMessage(error, container: r, sites: [line: "QuickStart/main.swift:27"]) == """
                        Syringe: no registration for Greeter qualified by Formal
                          in container main
                          requested at QuickStart/main.swift:27
                          Greeter is registered without qualifier, scope or name; resolve it without selectors, \
                        or register it with the ones asked for
                        """)
            }
        }
    }

    private final class ReadmeAssetService {
        let network: DocNetworkServiceProtocol
        init(network: DocNetworkServiceProtocol) throws { self.network = network }
    }
    private protocol Bread2 {}
    private struct Croissant2: Bread2 {}
    private final class Database2 {}
    private protocol Worker2 {}
    private final class MySingleton2: Worker2, Sendable {
        static let shared = MySingleton2()
    }

    /// README.md, "Registering": every line of the block.
    @Test func readmeRegistering() throws {
        let stagingURL = "https://staging.example.com"
        let r = Resolver()
        try Resolver.withContainer(r) {
            Resolver.register { DocNetworkService() }
            Resolver.register { DocAutoAssetService(network: $0.resolve(), urls: DocURLComponentsService()) }
            Resolver.register(DocNetworkServiceProtocol.self) { DocNetworkService() }
            Resolver.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
            Resolver.register(qualifiedBy: DocStaging.self) { DocAPIClient(url: stagingURL) }
            Resolver.register(name: "🥐") { Croissant2() as Bread2 }
            Resolver.register(lifetime: .singleton) { Database2() }
            Resolver.register(scopedTo: DocRegistrationFlow.self) { DocUser() }
            Resolver.registerSingleton(Worker2.self, MySingleton2.shared)
            Resolver.register { try ReadmeAssetService(network: $0.tryResolve()) }
            let device = (identifier: String?.none, unused: 0)
            Resolver.register(String.self, name: "idfv") { device.identifier }  // may yield no value (a String?)
            #expect(Resolver.optional(String.self, name: "idfv") == nil)

            Resolver.register { DocURLComponentsService() }
                .lifetime(.singleton)
                .register { DocAPIClient(url: "chained") }

            #expect(r.verify().isValid)
            let service: ReadmeAssetService = try Resolver.tryResolve()
            #expect(service.network is DocNetworkService)
            #expect((Resolver.resolve() as DocAPIClient).url == "chained")
        }
    }

    private final class Analytics2 {}
    private final class ImageCache2 {}
    private final class AppCoordinator {}
    private final class ReadmeViewModel {
        @Inject private var assetService: DocAutoAssetService
        @LazyInject private var images: ImageCache2
        @WeakInject private var coordinator: AppCoordinator?
        @OptionalInject private var analytics: Analytics2?
        @Inject(DocStaging.self) private var stagingAPI: DocAPIClient

        var summary: String {
            "\(stagingAPI.url) \(coordinator != nil) \(analytics == nil) \(type(of: images)) \(type(of: assetService))"
        }
    }

    /// README.md, "Resolving" and "Property wrappers".
    @Test func readmeResolvingAndWrappers() throws {
        let r = Resolver()
        let coordinator = AppCoordinator()
        try Resolver.withContainer(r) {
            Resolver.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
            Resolver.register { DocURLComponentsService() }
            Resolver.autoregister(DocAutoAssetService.init)
            Resolver.register(qualifiedBy: DocStaging.self) { DocAPIClient(url: "staging") }
            Resolver.register(scopedTo: DocRegistrationFlow.self) { DocUser() }
            Resolver.register(name: "🥐") { Croissant2() as Bread2 }
            Resolver.register { ImageCache2() }
            Resolver.register { coordinator }

            let service: DocAutoAssetService = Resolver.resolve()
            let user: DocUser = Resolver.resolve(scopedTo: DocRegistrationFlow.self)
            let bread: Bread2 = Resolver.resolve(name: "🥐")
            let maybe: Analytics2? = Resolver.optional()
            let checked: DocAutoAssetService = try Resolver.tryResolve()
            let all: [DocAPIClient] = Resolver.resolveAll()
            let variant: DocNetworkServiceProtocol = Resolver.resolve(DocNetworkService.self)
            #expect(service !== checked)
            #expect(user.serial > 0 && bread is Croissant2 && maybe == nil)
            #expect(all.map(\.url) == ["staging"])
            #expect(variant is DocNetworkService)

            let model = ReadmeViewModel()
            #expect(model.summary == "staging true true ImageCache2 DocAutoAssetService")
        }
        withExtendedLifetime(coordinator) {}
    }

    private final class AuthenticatedUser2 {}
    private enum Session2: Scope { static var retention: ScopeRetention { .strong } }

    /// README.md, "Scopes".
    @Test func readmeScopes() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(scopedTo: DocRegistrationFlow.self) { DocUser() }
            Resolver.register(scopedTo: Session2.self) { AuthenticatedUser2() }

            let flow = Resolver.beginScope(DocRegistrationFlow.self)
            let serial = UsernameScreen().user.serial
            #expect(PasswordScreen().user.serial == serial)
            flow.end()
            #expect(PasswordScreen().user.serial != serial)

            let session: AuthenticatedUser2 = Resolver.resolve(scopedTo: Session2.self)
            Resolver.dropCached(scopedTo: Session2.self)
            #expect((Resolver.resolve(scopedTo: Session2.self) as AuthenticatedUser2) !== session)
        }
    }

    /// README.md, "Containers" (with a parent of the test's own instead of `.main`).
    @Test func readmeContainers() {
        let app = Resolver()
        app.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
        app.register { DocURLComponentsService() }
        app.register { DocAssetService() }
        app.register { DocAssetListViewModel() }

        let preview = Resolver(parent: app)
        preview.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
        let model: DocAssetListViewModel = Resolver.withContainer(preview) {
            Resolver.resolve()
        }
        #expect(model.load() == "")

        let shared = Resolver(id: "DocumentationExamples.README.Resolver_1")
        shared.register { ClassA() }
        #expect(Resolver(id: "DocumentationExamples.README.Resolver_1").optional(ClassA.self) != nil)
        let mock = MockResolver(parent: app) { r in
            r.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
        }
        #expect((mock.resolve() as DocNetworkServiceProtocol) is DocMockNetworkService)
    }

    // MARK: Diagnostics.md

    private final class A { init(b: B) {} }
    private final class B { init(a: A) {} }
    private struct Offline: Error {}
    private final class Feed { init() throws { throw Offline() } }

    /// Diagnostics.md: cycles, factory errors, `tryResolve`'s fields, and the verification report.
    @Test func diagnostics() throws {
        let r = Resolver()
        r.register { DocNetworkService() }
        r.register { DocURLComponentsService() }
        let line = #line + 1  // the documentation's MyApp/Services.swift:3, :4 and :5
        r.autoregister(DocAutoAssetService.init)
        r.register { A(b: try $0.tryResolve()) }
        r.register { B(a: try $0.tryResolve()) }
        r.register { try Feed() }
        r.register(qualifiedBy: DocStaging.self) { DocAPIClient(url: "https://staging.example.com") }
        r.register(arguments: String.self, Int.self) { env, ts in ClassD(environment: env, timestamp: ts) }

        let sites = [
            line: "MyApp/Services.swift:3", line + 1: "MyApp/Services.swift:4", line + 2: "MyApp/Services.swift:5",
        ]

        let cycle = try #require(throws: ResolutionError.self) { try r.tryResolve(A.self) }
        #expect(
            docMessage(cycle, container: r, sites: sites) == """
                Syringe: dependency cycle while resolving A
                  cycle: A → B → A
                  in container main
                  requested at MyApp/Services.swift:5
                  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created
                """)

        let feedLine = #line + 1
        let failed = try #require(throws: ResolutionError.self) { try r.tryResolve(Feed.self) }
        #expect(
            docMessage(failed, container: r, sites: [feedLine: "MyApp/FeedScreen.swift:9"]) == """
                Syringe: the factory for Feed threw an error: Offline()
                  in container main
                  requested at MyApp/FeedScreen.swift:9
                """)
        #expect(failed.underlyingError is Offline)

        do {
            let service: DocAutoAssetService = try r.tryResolve()
            _ = service
            Issue.record("expected an error")
        } catch {
            #expect(error.requested == "DocNetworkServiceProtocol")
            #expect(error.path == ["DocAutoAssetService", "DocNetworkServiceProtocol"])
            #expect(error.suggestions.first?.hasPrefix("DocNetworkService is registered; to serve") == true)
        }

        let report = r.verify()
        #expect(!report.isValid)
        let text = docText(
            report.description.replacingOccurrences(of: "verification of \(r.name)", with: "verification of main"),
            sites: sites)
        #expect(
            text == """
                Syringe: 4 of 7 keys cannot be resolved (8 registrations, 0 aliases)

                Syringe: no registration for DocNetworkServiceProtocol
                  while resolving DocAutoAssetService → DocNetworkServiceProtocol
                  in container verification of main
                  requested at MyApp/Services.swift:3
                  DocNetworkService is registered; to serve DocNetworkServiceProtocol add \
                .implements(DocNetworkServiceProtocol.self) to its registration

                Syringe: dependency cycle while resolving A
                  cycle: A → B → A
                  in container verification of main
                  requested at MyApp/Services.swift:5
                  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created

                Syringe: dependency cycle while resolving B
                  cycle: B → A → B
                  in container verification of main
                  requested at MyApp/Services.swift:4
                  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created

                Syringe: the factory for Feed threw an error: Offline()
                  in container verification of main

                skipped (they need runtime arguments): ClassD with arguments (String, Int)
                """)

        let graph = r.dependencyGraph()
        #expect(graph.mermaid.hasPrefix("graph LR"))
        #expect(graph.dot.hasPrefix("digraph Dependencies {"))
        #expect(graph.mermaid.contains("DocNetworkServiceProtocol<br/>(missing)"))
    }

    /// Diagnostics.md, "Verify a container": a missing dependency asked for by a property
    /// wrapper and a plain `$0.resolve()` (which used to stop `verify()`) is reported.
    @Test func diagnosticsVerifyReportsWhatUsedToStop() {
        let r = Resolver(id: "DocumentationExamples.verify")
        Resolver.withContainer(r) {
            Resolver.register { DocNetworkService() }  // no .implements(NetworkServiceProtocol.self)
            Resolver.register { VerifyAssetService(network: $0.resolve()) }
            Resolver.register { VerifyAssetListViewModel() }
        }
        let report = r.verify()
        #expect(!report.isValid)
        #expect(report.failedRegistrationCount == 2)
        #expect(
            report.failures.map { $0.path } == [
                ["VerifyAssetService", "DocNetworkServiceProtocol"],
                ["VerifyAssetListViewModel", "VerifyAssetService", "DocNetworkServiceProtocol"],
            ])
        #expect(
            report.failures.allSatisfy { $0.suggestions.first?.hasPrefix("DocNetworkService is registered") == true })
    }

    /// Diagnostics.md, "Verify a container": values known only at run time.
    @Test func diagnosticsVerifySkippingAndProviding() {
        let r = Resolver(id: "DocumentationExamples.verify-runtime")
        r.register { VerifyErrorViewModel(error: $0.resolve()) }
        r.register { VerifyProfile(user: $0.resolve()) }
        let report = r.verify(
            skipping: [VerifyErrorViewModel.self],  // not built; listed as skipped
            providing: { $0.register { VerifyTestUser() } })  // a stand-in, only for this run
        #expect(report.isValid, "\(report)")
        #expect(report.skipped == ["VerifyErrorViewModel"])
        #expect(report.verified == ["VerifyProfile"])
    }
}

private final class VerifyAssetService {
    init(network: DocNetworkServiceProtocol) {}
}

private final class VerifyAssetListViewModel {
    @Inject var assetService: VerifyAssetService
}

private final class VerifyErrorViewModel {
    init(error: any Error) {}
}

private final class VerifyTestUser {}

private final class VerifyProfile {
    init(user: VerifyTestUser) {}
}

/// The snippet of `lifetimesArgumentsMustBeTransient`, in a function of its own:
/// `register(arguments:)` called right in an exit test's (async) body crashes the compiler in
/// release builds (Swift 6.3.1, LLVM's function-attrs pass).
@inline(never)
private func docRegisterSingletonWithArguments(in r: Resolver) {
    r.register(lifetime: .singleton, arguments: String.self) { DocAPIClient(url: $0) }
}

/// GettingStarted.md, "Register them": the body of `registerAllServices()`, as a static
/// function of a type of its own.
private enum DocRegistrations {
    static func registerAllServices() {
        Resolver.register { DocNetworkService() }.implements(DocNetworkServiceProtocol.self)
        Resolver.register { DocURLComponentsService() }
        Resolver.register { DocAssetService() }
        Resolver.register { DocAssetListViewModel() }
    }
}

extension Resolver {
    /// Migrating.md, "From Resolver": `defaultLifetime = .graph` as the first line of a static
    /// registration method.
    fileprivate static func docRegisterWithGraphDefault() {
        defaultLifetime = .graph
        register { DocURLComponentsService() }
    }
}

#if canImport(XCTest)
    import XCTest

    /// Testing.md, "XCTest and plain code: withTestContainer": `SyringeTestCase`.
    final class DocumentationExamplesXCTests: SyringeTestCase {
        override func setUp() {
            super.setUp()
            Resolver.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
            Resolver.register { DocURLComponentsService() }
            Resolver.register { DocAssetService() }
        }

        func testFetchAssets() {
            let service: DocAssetService = Resolver.resolve()
            XCTAssertEqual(service.fetchAssets(), "")
            XCTAssertTrue(Resolver.current.name.hasPrefix("test container"))
        }

        func testWithoutSubclassing() {
            Resolver.withTestContainer {
                Resolver.register { DocMockNetworkService() }.implements(DocNetworkServiceProtocol.self)
                XCTAssertNotNil(Resolver.optional(DocNetworkServiceProtocol.self))
            }
        }
    }
#endif
