import Syringe
import SyringeTesting
import Testing

// Twins of Migrating.md: each table's Syringe spellings, with the behaviour the article states.

private protocol MigNetworkServiceProtocol: AnyObject {}
private final class MigNetworkService: MigNetworkServiceProtocol {}
private final class MigMockNetworkService: MigNetworkServiceProtocol {}
private final class MigLoggingNetworkService: MigNetworkServiceProtocol {
    let wrapped: MigNetworkServiceProtocol
    init(wrapping wrapped: MigNetworkServiceProtocol) { self.wrapped = wrapped }
}
private final class MigAutoNetworkService: MigNetworkServiceProtocol {
    let database: MigDatabase
    init(database: MigDatabase) { self.database = database }
}
private final class MigAssetService {
    let network: MigNetworkServiceProtocol
    init(network: MigNetworkServiceProtocol) { self.network = network }
}
private final class MigDatabase {}
private final class MigAuthService {}
private final class MigB {}
private final class MigA {
    var b: MigB?
}
private final class MigScreen {
    @Inject var network: MigNetworkServiceProtocol
    @LazyInject var assets: MigAssetService
    @WeakLazyInject var database: MigDatabase?
    @OptionalInject var auth: MigAuthService?
    @Inject(name: "fred") var fred: MigB
    @Inject(MigFred.self) var qualified: MigB
}
private enum MigFred: Qualifier {}
private enum MigCached: Scope {}
private enum MigSession: Scope {}
private final class MigViewController {
    @Inject var service: MigAssetService
}
private struct MigAsset { let id: String }
private final class MigAssetViewModel {
    let asset: MigAsset
    init(asset: MigAsset) { self.asset = asset }
}
private final class MigPair {
    let id: Int
    let name: String
    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}
private final class MigBucket {}
private final class MigStore {
    var bucket: MigBucket?
}
private class MigBase {}
private final class MigDerived: MigBase {}
private final class MigHolder {
    let base: MigBase
    init(base: MigBase) { self.base = base }
}
private final class MigAnalytics {
    var isStarted = false
}
private struct MigNetworkModule: ResolverModule {
    func register(in resolver: Resolver) {
        resolver.register(MigNetworkServiceProtocol.self) { MigNetworkService() }
    }
}
private struct MigAnalyticsModule: ResolverModule {
    func register(in resolver: Resolver) { resolver.register(lifetime: .singleton) { MigAnalytics() } }
    func loaded(into resolver: Resolver) { (resolver.resolve() as MigAnalytics).isStarted = true }
}
private struct MigAPIClient {
    let name: String
    static let live = MigAPIClient(name: "live")
    static let mock = MigAPIClient(name: "mock")
}
private final class MigModel {
    @Inject var api: MigAPIClient
    @LazyInject var lazyAPI: MigAPIClient
}
@MainActor private final class MigViewModel {
    init() {}
}

@Suite struct MigratingExamplesTests {
    @Test func fromResolver() {
        let r = Resolver()
        r.register { MigNetworkService() }.implements(MigNetworkServiceProtocol.self)
        r.register { MigAssetService(network: $0.resolve()) }
        r.register(lifetime: .singleton) { MigDatabase() }
        r.register(name: "fred") { MigB() }
        r.register(qualifiedBy: MigFred.self) { MigB() }

        // @Inject, @LazyInject, @WeakLazyInject, @OptionalInject, names and qualifiers.
        let database: MigDatabase = r.resolve()
        let screen = Resolver.withContainer(r) { MigScreen() }
        #expect(screen.network is MigNetworkService)
        #expect(!screen.$assets.isResolved)
        _ = screen.assets
        #expect(screen.$assets.isResolved)
        screen.$assets.release()
        #expect(!screen.$assets.isResolved)
        #expect(screen.$assets.container === r)
        #expect(screen.database === database)
        #expect(screen.auth == nil)
        #expect(screen.fred !== screen.qualified)

        // A factory that may yield nil registers the wrapped type; an Optional itself is written.
        let store = MigStore()
        r.register(name: "bucket") { () -> MigBucket? in store.bucket }
        #expect((r.optional(name: "bucket") as MigBucket?) == nil)
        store.bucket = MigBucket()
        #expect((r.resolve(name: "bucket") as MigBucket) === store.bucket)
        r.register((MigBucket?).self) { store.bucket }
        r.register(Optional<MigBucket>.self, name: "long") { store.bucket }
        #expect(r.isRegistered(MigBucket?.self) && !r.isRegistered(MigBucket.self))
        #expect(r.isRegistered(MigBucket?.self, name: "long"))
        #expect((r.resolve() as MigBucket?) === store.bucket)

        // resolveProperties → initCompleted.
        r.register { MigA() }.initCompleted { resolver, a in a.b = resolver.resolve(name: "fred") }
        #expect((r.resolve() as MigA).b != nil)

        // Storyboard view controllers: property wrappers resolve from the current container.
        let controller = Resolver.withContainer(r) { MigViewController() }
        #expect(controller.service.network is MigNetworkService)

        // .scope(.cached) and its reset, which spares singletons.
        r.register(lifetime: .singleton) { MigAuthService() }
        r.register { MigAsset(id: "cached") }
        r.register(lifetime: .cached(in: MigCached.self)) { MigHolder(base: MigBase()) }
        let cached: MigHolder = r.resolve()
        #expect((r.resolve() as MigHolder) === cached)
        let singleton: MigAuthService = r.resolve()
        r.dropCached(scopedTo: MigCached.self)
        #expect((r.resolve() as MigHolder) !== cached)
        #expect((r.resolve() as MigAuthService) === singleton)

        // A custom ResolverScopeCache: a named cache, resolved plainly.
        r.register { MigAnalytics() }.lifetime(.cached(in: MigSession.self))
        let session: MigAnalytics = r.resolve()
        #expect((r.resolve() as MigAnalytics) === session)
        r.dropCached(scopedTo: MigSession.self)
        #expect((r.resolve() as MigAnalytics) !== session)

        // .shared → .weak, .graph, .unique → .transient.
        r.register(lifetime: .weak) { MigPair(id: 1, name: "weak") }
        let held: MigPair = r.resolve()
        #expect((r.resolve() as MigPair) === held)
        r.register { MigB() }.lifetime(.graph)
        r.register { MigA() }.lifetime(.transient)
        #expect((r.resolve() as MigA) !== (r.resolve() as MigA))

        // resolver.defaultLifetime for one container.
        let graphDefault = Resolver()
        graphDefault.defaultLifetime = .graph
        graphDefault.register { MigB() }
        #expect(graphDefault.defaultLifetime == .graph)

        // .container → a singleton per container.
        let first = Resolver()
        let second = Resolver()
        for container in [first, second] { container.register(lifetime: .singleton) { MigDatabase() } }
        #expect((first.resolve() as MigDatabase) === (first.resolve() as MigDatabase))
        #expect((first.resolve() as MigDatabase) !== (second.resolve() as MigDatabase))

        // Arguments are typed, positional and part of the key.
        r.register(arguments: MigAsset.self) { MigAssetViewModel(asset: $0) }
        #expect((r.resolve(arguments: MigAsset(id: "btc")) as MigAssetViewModel).asset.id == "btc")
        r.register(arguments: Int.self, String.self) { MigPair(id: $0, name: $1) }
        let pair: MigPair = r.resolve(arguments: 1, "x")
        #expect(pair.id == 1 && pair.name == "x")
        #expect((r.optional(arguments: "not registered") as MigDatabase?) == nil)
        r.register(arguments: MigBase.self) { MigHolder(base: $0) }
        let derived = MigDerived()
        #expect((r.resolve(arguments: derived) as MigHolder).base === derived)
        #expect((r.optional() as MigAssetViewModel?) == nil)

        // Resolver(parent:) shares the parent's singleton; an isolated child keeps its own.
        let child = Resolver(parent: r)
        #expect((child.resolve() as MigDatabase) === database)
        let isolated = Resolver(isolatedChildOf: r)
        #expect((isolated.resolve() as MigDatabase) !== database)
        let mock = MockResolver(parent: r) {
            $0.register { MigMockNetworkService() }.implements(MigNetworkServiceProtocol.self)
        }
        #expect((mock.resolve() as MigAssetService).network is MigMockNetworkService)

        // decorate → wrap in the factory.
        let decorated = Resolver()
        decorated.register(MigNetworkServiceProtocol.self) { MigLoggingNetworkService(wrapping: MigNetworkService()) }
        #expect((decorated.resolve() as MigNetworkServiceProtocol) is MigLoggingNetworkService)
    }

    @Test func fromResolverProcessWide() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            // Resolver.defaultScope → Resolver.globalDefaultLifetime.
            Resolver.globalDefaultLifetime = .graph
            let r = Resolver()
            precondition(r.defaultLifetime == .graph)
            // Resolver.registerServices() runs registerAllServices() now.
            Resolver.registerServices()
            precondition(Resolver.main.isRegistered(CtRegisteredAtStartup.self))
            // Resolver.root = mock.
            let mock = Resolver(parent: .main)
            mock.register { CtRegisteredAtStartup(value: "mock") }
            Resolver.root = mock
            precondition((Resolver.resolve() as CtRegisteredAtStartup).value == "mock")
            precondition((Resolver.optional() as MigDatabase?) == nil)
        }
    }

    @Test func fromSwinject() {
        let resolver = Resolver()
        resolver.register(MigNetworkServiceProtocol.self) { MigNetworkService() }
        resolver.register(lifetime: .singleton) { MigAssetService(network: $0.resolve()) }
        #expect((resolver.resolve() as MigAssetService) === (resolver.resolve() as MigAssetService))
        resolver.register(name: "x") { MigB() }
        #expect(resolver.isRegistered(MigB.self, name: "x"))
        #expect((resolver.optional() as MigB?) == nil)

        resolver.register { MigDatabase() }.lifetime(.weak)
        let held: MigDatabase = resolver.resolve()
        #expect((resolver.resolve() as MigDatabase) === held)
        resolver.register { MigNetworkService() }.implements(MigNetworkServiceProtocol.self)
        #expect((resolver.resolve() as MigNetworkServiceProtocol) is MigNetworkService)

        resolver.register { MigA() }.initCompleted { r, a in a.b = r.resolve(name: "x") }
        #expect((resolver.resolve() as MigA).b != nil)

        resolver.register(arguments: String.self, Int.self) { s, i in MigPair(id: i, name: s) }
        #expect((resolver.resolve(arguments: "x", 1) as MigPair).id == 1)
        resolver.register(arguments: String.self) { MigAsset(id: $0) }
        #expect((resolver.resolve(arguments: "x") as MigAsset).id == "x")

        // Container(parent:)
        let child = Resolver(parent: resolver)
        #expect((child.resolve() as MigAssetService) === (resolver.resolve() as MigAssetService))

        // Assembly / Assembler / loaded(resolver:)
        let assembled = Resolver()
        assembled.install(MigNetworkModule(), MigAnalyticsModule())
        #expect(assembled.isRegistered(MigNetworkServiceProtocol.self))
        #expect((assembled.resolve() as MigAnalytics).isStarted)

        // SwinjectAutoregistration
        assembled.autoregister(MigAssetService.init)
        #expect((assembled.resolve() as MigAssetService).network is MigNetworkService)
        assembled.register { MigDatabase() }
        assembled.autoregister(MigAutoNetworkService.init).implements(MigNetworkServiceProtocol.self)
        #expect((assembled.resolve() as MigNetworkServiceProtocol) is MigAutoNetworkService)

        // resetObjectScope / removeAll
        let singleton: MigAssetService = resolver.resolve()
        resolver.dropAllCached()
        #expect((resolver.resolve() as MigAssetService) !== singleton)
        resolver.clearAllRegistrations()
        #expect(!resolver.isRegistered(MigAssetService.self))
    }

    @MainActor @Test func fromFactory() {
        let r = Resolver(id: "MigAppContainer")
        r.register(MigNetworkServiceProtocol.self, lifetime: .singleton) { MigNetworkService() }
        r.register { MigAPIClient.live }
        r.register(qualifiedBy: MigFred.self) { MigAPIClient(name: "staging") }
        #expect((r.resolve() as MigAPIClient).name == "live")
        #expect((r.resolve(qualifiedBy: MigFred.self) as MigAPIClient).name == "staging")
        #expect((Resolver(id: "MigAppContainer").resolve() as MigAPIClient).name == "live")

        // .singleton is per registration, not process-wide.
        let other = Resolver()
        other.register(MigNetworkServiceProtocol.self, lifetime: .singleton) { MigNetworkService() }
        #expect((r.resolve() as MigNetworkServiceProtocol) !== (other.resolve() as MigNetworkServiceProtocol))

        // Scopes: .cached with a reset, .timeToLive, .shared → .weak.
        r.register { MigDatabase() }.lifetime(.cached(in: MigSession.self))
        let cached: MigDatabase = r.resolve()
        r.dropCached(scopedTo: MigSession.self)
        #expect((r.resolve() as MigDatabase) !== cached)
        r.register { MigAuthService() }.lifetime(.timeToLive(.seconds(60)))
        #expect((r.resolve() as MigAuthService) === (r.resolve() as MigAuthService))

        // An override: the last registration wins (with its own lifetime: see the next test).
        r.register(MigNetworkServiceProtocol.self, lifetime: .singleton) { MigMockNetworkService() }
        #expect((r.resolve() as MigNetworkServiceProtocol) is MigMockNetworkService)

        // ParameterFactory → arguments.
        r.register(arguments: Int.self) { MigPair(id: $0, name: "model") }
        #expect((r.resolve(arguments: 42) as MigPair).id == 42)

        // A main-actor factory, resolved from main-actor code.
        r.register { MigViewModel() }
        r.register { @MainActor in MigViewModel() }
        let model: MigViewModel = r.resolve()
        _ = model

        // @Injected / @LazyInjected / @WeakLazyInjected by type.
        r.register(lifetime: .singleton) { MigDatabase() }
        r.register { MigAssetService(network: $0.resolve()) }
        let screen = Resolver.withContainer(r) {
            r.register { MigB() }
            r.register(name: "fred") { MigB() }
            r.register(qualifiedBy: MigFred.self) { MigB() }
            return MigScreen()
        }
        #expect(screen.assets.network is MigMockNetworkService)
        #expect(screen.database === (r.resolve() as MigDatabase))
    }

    /// Factory keeps the definition's scope on `register { Mock() }`; a Syringe override is a new
    /// registration, transient unless it restates `lifetime:`.
    @Test func fromFactoryAnOverrideRestatesItsLifetime() {
        let r = Resolver()
        r.register(MigNetworkServiceProtocol.self, lifetime: .singleton) { MigNetworkService() }
        #expect((r.resolve() as MigNetworkServiceProtocol) === (r.resolve() as MigNetworkServiceProtocol))

        r.register(MigNetworkServiceProtocol.self) { MigMockNetworkService() }
        let first: MigNetworkServiceProtocol = r.resolve()
        #expect(first is MigMockNetworkService)
        #expect((r.resolve() as MigNetworkServiceProtocol) !== first)  // built anew each time

        r.register(MigNetworkServiceProtocol.self, lifetime: .singleton) { MigMockNetworkService() }
        let kept: MigNetworkServiceProtocol = r.resolve()
        #expect(kept is MigMockNetworkService)
        #expect((r.resolve() as MigNetworkServiceProtocol) === kept)
    }

    @Test(.isolatedResolver) func fromFactoryContainerTrait() {
        Resolver.register { MigAPIClient.mock }
        #expect((Resolver.resolve() as MigAPIClient).name == "mock")
    }

    @Test func fromBlade() {
        let r = Resolver()
        enum Flow: Scope {}
        r.register(scopedTo: Flow.self) { MigDatabase() }
        r.register(qualifiedBy: MigFred.self) { MigB() }
        let first: MigDatabase = r.resolve(scopedTo: Flow.self)
        #expect((r.resolve(scopedTo: Flow.self) as MigDatabase) === first)
        #expect(r.isRegistered(MigB.self, qualifiedBy: MigFred.self))
    }

    @Test func fromSwiftDependencies() async {
        let r = Resolver()
        r.register(lifetime: .singleton) { MigAPIClient.live }
        let model = Resolver.withContainer(r) { MigModel() }
        #expect(model.api.name == "live")

        // withDependencies { … } operation: { … }
        let child = Resolver.withContainer(r) { Resolver(parent: .current) }
        child.register { MigAPIClient.mock }
        let overridden = Resolver.withContainer(child) { MigModel() }
        #expect(overridden.api.name == "mock")
        #expect(overridden.lazyAPI.name == "mock")
        #expect(model.lazyAPI.name == "live")

        // withEscapedDependencies: capture the container and bind it again.
        let escaped = await Resolver.withContainer(child) { () async -> String in
            let container = Resolver.current
            return await Task.detached {
                Resolver.withContainer(container) { (Resolver.resolve() as MigAPIClient).name }
            }.value
        }
        #expect(escaped == "mock")
    }
}
