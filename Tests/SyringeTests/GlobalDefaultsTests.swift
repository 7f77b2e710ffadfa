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
