import Syringe
import Testing

// The process-wide default lifetime, and the static twins of container settings. Whatever
// changes process-wide state runs in an exit test, in a fresh process.

final class GDService {
    init() {}
}
private struct GDModule: ResolverModule {
    func register(in resolver: Resolver) { resolver.register { GDService() } }
}

@Suite struct GlobalDefaultsTests {
    @Test func everyContainerWithoutItsOwnDefaultFollowsTheGlobalOne() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            let before = Resolver()
            let own = Resolver()
            own.defaultLifetime = .transient
            Resolver.globalDefaultLifetime = .singleton
            let after = Resolver()
            for container in [before, after, Resolver.main] {
                precondition(container.defaultLifetime == .singleton)
                container.register { GDService() }
                precondition((container.resolve() as GDService) === (container.resolve() as GDService))
            }
            own.register { GDService() }
            precondition((own.resolve() as GDService) !== (own.resolve() as GDService))
        }
    }

    @Test func aRegistrationKeepsTheLifetimeItWasMadeWith() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { GDService() }
            Resolver.globalDefaultLifetime = .singleton
            precondition((r.resolve() as GDService) !== (r.resolve() as GDService))
        }
    }

    @Test func staticTwinsActOnTheCurrentContainer() {
        let r = Resolver()
        Resolver.withContainer(r) {
            #expect(Resolver.allowsOverrides)
            Resolver.allowsOverrides = false
            Resolver.install([GDModule()])
        }
        #expect(!r.allowsOverrides)
        #expect(r.isRegistered(GDService.self))
    }
}

final class GDNetwork {
    let label: String
    init(_ label: String) { self.label = label }
}
final class GDAssetService {
    let network: GDNetwork
    init(network: GDNetwork) { self.network = network }
}

@Suite struct IsolatedChildTests {
    /// Also the twin of Containers.md, "An isolating child can be root".
    @Test func anIsolatedChildAsRootPutsItsOverridesInsideMainsSingletons() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.main.register { GDNetwork("live") }
            Resolver.main.register(lifetime: .singleton) { GDAssetService(network: $0.resolve()) }
            let mocked = Resolver(isolatedChildOf: .main)
            mocked.register { GDNetwork("mock") }
            Resolver.root = mocked
            let service: GDAssetService = Resolver.resolve()
            precondition(service.network.label == "mock")
            precondition((Resolver.resolve() as GDAssetService) === service)
            precondition(Resolver.main.resolve(GDAssetService.self).network.label == "live")
        }
    }

    @Test func aPlainChildSharesTheParentsSingletonBuiltByTheParent() {
        let parent = Resolver()
        parent.register { GDNetwork("live") }
        parent.register(lifetime: .singleton) { GDAssetService(network: $0.resolve()) }
        let child = Resolver(parent: parent)
        child.register { GDNetwork("mock") }
        let isolated = Resolver(isolatedChildOf: parent)
        isolated.register { GDNetwork("mock") }
        #expect((child.resolve() as GDAssetService).network.label == "live")
        #expect((child.resolve() as GDAssetService) === (parent.resolve() as GDAssetService))
        #expect((isolated.resolve() as GDAssetService).network.label == "mock")
        #expect((isolated.resolve() as GDAssetService) !== (parent.resolve() as GDAssetService))
    }
}
