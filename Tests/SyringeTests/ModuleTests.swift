import Syringe
import Testing

private protocol ModNetworking: AnyObject { var baseURL: String { get } }
private final class ModNetwork: ModNetworking {
    let baseURL: String
    init(baseURL: String) { self.baseURL = baseURL }
}
private final class ModRepository {
    let network: ModNetworking
    init(network: ModNetworking) { self.network = network }
}
private final class ModDatabase {}
private enum ModStaging: Qualifier {}

private struct NetworkModule: ResolverModule {
    var baseURL = "https://api.example.com"
    func register(in resolver: Resolver) {
        resolver.register(ModNetworking.self, lifetime: .singleton) { ModNetwork(baseURL: baseURL) }
        resolver.register(ModNetworking.self, qualifiedBy: ModStaging.self) { ModNetwork(baseURL: "https://staging") }
    }
}

private struct DataModule: ResolverModule {
    func register(in resolver: Resolver) {
        resolver.register(lifetime: .singleton) { ModDatabase() }
        resolver.register { ModRepository(network: $0.resolve()) }
    }
}

private struct MockNetworkModule: ResolverModule {
    func register(in resolver: Resolver) {
        resolver.register(ModNetworking.self) { ModNetwork(baseURL: "mock://") }
    }
}

@Suite struct ModuleTests {
    @Test func installOneModule() {
        let r = Resolver()
        r.install(NetworkModule())
        let network: ModNetworking = r.resolve()
        #expect(network.baseURL == "https://api.example.com")
        #expect((r.resolve(qualifiedBy: ModStaging.self) as ModNetworking).baseURL == "https://staging")
    }

    @Test func installSeveralModulesThatDependOnEachOther() {
        let r = Resolver()
        r.install(NetworkModule(), DataModule())
        let repository: ModRepository = r.resolve()
        #expect(repository.network === (r.resolve() as ModNetworking))
        #expect((r.resolve() as ModDatabase) === (r.resolve() as ModDatabase))
    }

    @Test func moduleOrderDecidesOverrides() {
        let real = Resolver()
        real.install(NetworkModule(), MockNetworkModule())
        #expect((real.resolve() as ModNetworking).baseURL == "mock://")
        let mocked = Resolver()
        mocked.install(MockNetworkModule(), NetworkModule())
        #expect((mocked.resolve() as ModNetworking).baseURL == "https://api.example.com")
    }

    @Test func modulesCarryConfiguration() {
        let r = Resolver()
        r.install(NetworkModule(baseURL: "https://eu.example.com"))
        #expect((r.resolve() as ModNetworking).baseURL == "https://eu.example.com")
    }

    @Test func staticInstallUsesTheCurrentContainer() {
        let r = Resolver()
        Resolver.withContainer(r) { Resolver.install(NetworkModule(), DataModule()) }
        #expect((r.optional() as ModRepository?) != nil)
        #expect((Resolver.main.optional() as ModRepository?) == nil)
    }

    @Test func moduleInstalledInAParentServesTheChild() {
        let parent = Resolver()
        parent.install(NetworkModule())
        let child = Resolver(parent: parent)
        child.install(DataModule())
        let repository: ModRepository = child.resolve()
        #expect(repository.network === (parent.resolve() as ModNetworking))
        #expect((parent.optional() as ModRepository?) == nil)
    }
}
