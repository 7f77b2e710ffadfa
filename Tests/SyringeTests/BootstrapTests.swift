import Syringe
import Testing

// Bootstrap control: running `registerAllServices()` on demand, modules that libraries
// contribute without owning the app's conformance, and the `loaded` hook of modules. What
// touches `Resolver.main` runs in exit tests, each in a fresh process.

final class BootSDKService {
    static let registrations = FxCounter()
    init() {}
}
struct BootSDKModule: ResolverModule {
    func register(in resolver: Resolver) {
        BootSDKService.registrations.increment()
        resolver.register(lifetime: .singleton) { BootSDKService() }
    }
}

private final class BootClock {
    var started = false
}
private final class BootAnalytics {
    let clock: BootClock
    init(clock: BootClock) { self.clock = clock }
}
private struct BootClockModule: ResolverModule {
    let log: FxRecorder<String>
    func register(in resolver: Resolver) {
        log.append("register clock")
        resolver.register(lifetime: .singleton) { BootClock() }
    }
    func loaded(into resolver: Resolver) {
        log.append("loaded clock")
        (resolver.resolve() as BootClock).started = true
    }
}
private struct BootAnalyticsModule: ResolverModule {
    let log: FxRecorder<String>
    func register(in resolver: Resolver) {
        log.append("register analytics")
        resolver.register { BootAnalytics(clock: $0.resolve()) }
    }
}

@Suite struct BootstrapTests {
    @Test func registerServicesRunsTheBootstrapOnceBeforeAnyResolution() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            precondition(CtRegisteredAtStartup.registrations.value == 0)
            Resolver.registerServices()
            precondition(CtRegisteredAtStartup.registrations.value == 1)
            Resolver.registerServices()
            _ = Resolver.main.resolve() as CtRegisteredAtStartup
            precondition(CtRegisteredAtStartup.registrations.value == 1)
        }
    }

    @Test func modulesContributedBeforeTheBootstrapAreInstalledWithIt() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registerOnBootstrap(BootSDKModule())
            precondition(BootSDKService.registrations.value == 0)
            let service: BootSDKService = Resolver.main.resolve()
            precondition(BootSDKService.registrations.value == 1)
            precondition((Resolver.main.resolve() as BootSDKService) === service)
            precondition((Resolver.main.resolve() as CtRegisteredAtStartup).value == "main")
        }
    }

    @Test func modulesContributedAfterTheBootstrapAreInstalledAtOnce() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registerServices()
            Resolver.registerOnBootstrap(BootSDKModule())
            precondition(BootSDKService.registrations.value == 1)
            precondition(Resolver.main.isRegistered(BootSDKService.self))
        }
    }

    @Test func loadedRunsAfterEveryModuleOfTheInstallRegistered() {
        let log = FxRecorder<String>()
        let r = Resolver()
        r.install(BootClockModule(log: log), BootAnalyticsModule(log: log))
        #expect(log.values == ["register clock", "register analytics", "loaded clock"])
        #expect((r.resolve() as BootAnalytics).clock.started)
    }
}

/// The twin of Containers.md, "Register everything in one place": a library contributes a
/// module with `registerOnBootstrap`.
@Suite struct BootstrapDocumentationTests {
    @Test func aLibraryContributesAModule() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            enum PaymentsSDK {
                static func configure() {
                    Resolver.registerOnBootstrap(BootSDKModule())
                }
            }
            PaymentsSDK.configure()
            precondition(Resolver.main.isRegistered(BootSDKService.self))
        }
    }
}
