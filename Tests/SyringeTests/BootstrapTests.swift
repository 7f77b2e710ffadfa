import Foundation
import Testing

@testable import Syringe

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

/// A value singleton wider than the slot a kept instance is first copied into.
struct BootWideValue {
    static let seenByTheHook = FxRecorder<String>()
    var numbers = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    var text = "wide value, \(String(repeating: "x", count: 40))"
}
struct BootSmallValue {
    var number = 7
}
struct BootValuesModule: ResolverModule {
    func register(in resolver: Resolver) {
        resolver.register(lifetime: .singleton) { BootWideValue() }
        resolver.register(lifetime: .singleton) { BootSmallValue() }
    }
    /// Keeps the small value, then reads a kept wide one, which grows the thread's slot: the
    /// resolution that ran the bootstrap reads the small one after this.
    func loaded(into resolver: Resolver) {
        _ = resolver.resolve() as BootSmallValue
        _ = resolver.resolve() as BootWideValue
        BootWideValue.seenByTheHook.append((resolver.resolve() as BootWideValue).text)
    }
}

/// Resolves a wide value when it goes.
final class BootTripwire {
    deinit { BootWideValue.seenByTheHook.append((Resolver.main.resolve() as BootWideValue).text) }
}
/// A root container that holds a ``BootTripwire``.
final class BootTrippingResolver: Resolver, @unchecked Sendable {
    let tripwire = BootTripwire()
}
/// Registers the values; its hook resolves them and makes `main` the root again.
struct BootRootReplacingModule: ResolverModule {
    func register(in resolver: Resolver) { BootValuesModule().register(in: resolver) }
    func loaded(into resolver: Resolver) {
        BootValuesModule().loaded(into: resolver)
        _ = resolver.resolve() as BootSmallValue
        Resolver.root = .main
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

/// What a command-line tool registers at launch from its options, and `registerAllServices()`
/// registers with a default.
final class BootFileStore {
    let path: String
    init(path: String) { self.path = path }
}
final class BootLogger {}
protocol BootStoring: AnyObject {}
final class BootDiskStore: BootStoring {}
final class BootModuleService {
    let origin: String
    init(origin: String) { self.origin = origin }
}
struct BootModuleServiceModule: ResolverModule {
    func register(in resolver: Resolver) {
        resolver.register { BootModuleService(origin: "module") }
    }
}

/// An app's `registerAllServices()`: registers a default for what the tool overrides, and uses
/// every registration form inside the bootstrap.
enum BootHook: ResolverRegistering {
    static let runs = FxCounter()
    static func registerAllServices() {
        runs.increment()
        Resolver.register { BootFileStore(path: "default") }
        Resolver.register { BootLogger() }
        Resolver.register { BootDiskStore() }.implements(BootStoring.self)
        Resolver.registerSingleton(BootModuleService(origin: "singleton"))
        Resolver.install(BootModuleServiceModule())
    }
}

/// A `registerAllServices()` that sets the default lifetime of `main`.
enum BootSingletonDefaultHook: ResolverRegistering {
    static func registerAllServices() {
        Resolver.main.defaultLifetime = .singleton
    }
}

/// The same defaults, written as main-actor code.
enum BootMainActorHook: MainActorResolverRegistering {
    static let runs = FxCounter()
    @MainActor static func registerAllServices() {
        runs.increment()
        Resolver.register { BootFileStore(path: "default") }
        Resolver.register { BootLogger() }
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

    /// A resolution whose plan runs the bootstrap first, whose `loaded` hook resolves a value
    /// wider than any before on the thread, still hands back its own value whole.
    @Test func aResolutionThatRunsTheBootstrapGetsItsValueAfterTheHookResolvedAWiderOne() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registerOnBootstrap(BootValuesModule())
            let small: BootSmallValue = Resolver.resolve()
            precondition(small.number == 7)
            precondition(BootWideValue.seenByTheHook.values == [BootWideValue().text])
            precondition((Resolver.main.resolve() as BootWideValue).text == BootWideValue().text)
        }
    }

    /// A resolution whose plan runs the bootstrap, after which the container it began with is
    /// released (the hook replaced the root), gets its own value: the container's deinitializer
    /// resolves a wider value on the same thread before the first one is handed back.
    @Test func aResolutionWhoseContainerIsReleasedByTheBootstrapGetsItsOwnValue() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registerOnBootstrap(BootRootReplacingModule())
            Resolver.root = BootTrippingResolver(parent: .main)
            let small: BootSmallValue = Resolver.resolve()
            precondition(small.number == 7)
            precondition(BootWideValue.seenByTheHook.values.count == 2)
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

    // MARK: A registration made before the bootstrap

    @Test func aRegistrationBeforeTheFirstResolutionWinsOverTheBootstrap() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BootHook.self
            Resolver.register { BootFileStore(path: "from-options") }  // a tool's launch code
            precondition(BootHook.runs.value == 1)
            _ = Resolver.resolve() as BootLogger  // registered by the bootstrap
            precondition((Resolver.resolve() as BootFileStore).path == "from-options")
            precondition(BootHook.runs.value == 1)
        }
    }

    @Test func registrationsMadeByTheBootstrapStillWork() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BootHook.self
            Resolver.main.register(name: "early") { BootLogger() }
            precondition(BootHook.runs.value == 1)
            precondition((Resolver.main.resolve() as BootFileStore).path == "default")
            precondition(Resolver.main.resolve(BootStoring.self) is BootDiskStore)
            // The module is installed after the singleton, so its registration is the one kept.
            precondition((Resolver.main.resolve() as BootModuleService).origin == "module")
            precondition(Resolver.main.isRegistered(BootLogger.self, name: "early"))
        }
    }

    @Test func anAliasRegisteredBeforeTheBootstrapWinsOverIt() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            final class OptionsStore: BootStoring {}
            Resolver.registeringType = BootHook.self
            Resolver.register { OptionsStore() }.implements(BootStoring.self)
            _ = Resolver.resolve() as BootLogger  // registered by the bootstrap
            precondition(Resolver.resolve(BootStoring.self) is OptionsStore)
        }
    }

    @Test func modulesContributedBeforeTheBootstrapRunBeforeAnEarlyRegistration() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BootHook.self
            Resolver.registerOnBootstrap(BootSDKModule())
            precondition(BootSDKService.registrations.value == 0)
            Resolver.register { BootFileStore(path: "from-options") }
            precondition(BootSDKService.registrations.value == 1)
            precondition(Resolver.main.isRegistered(BootSDKService.self))
            precondition((Resolver.resolve() as BootFileStore).path == "from-options")
        }
    }

    @Test func aRegistrationAfterTheBootstrapReplacesAsBefore() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BootHook.self
            Resolver.registerServices()
            precondition((Resolver.resolve() as BootFileStore).path == "default")
            Resolver.register { BootFileStore(path: "late") }
            precondition((Resolver.resolve() as BootFileStore).path == "late")
            precondition(BootHook.runs.value == 1)
        }
    }

    /// A registration made before the bootstrap is made as if after it: the default lifetime the
    /// bootstrap sets applies to it.
    @Test func anEarlyRegistrationTakesTheDefaultLifetimeTheBootstrapSets() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BootSingletonDefaultHook.self
            Resolver.register { BootLogger() }
            precondition((Resolver.resolve() as BootLogger) === (Resolver.resolve() as BootLogger))
        }
    }

    @Test func aMainActorBootstrapRunsBeforeARegistrationOnTheMainActor() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BootMainActorHook.self
            await MainActor.run {
                Resolver.register { BootFileStore(path: "from-options") }
                precondition(BootMainActorHook.runs.value == 1)
                _ = Resolver.resolve() as BootLogger
                precondition((Resolver.resolve() as BootFileStore).path == "from-options")
            }
        }
    }

    /// A main-actor `registerAllServices()` cannot run for a registration made off the main actor:
    /// the registration is made without it, and the bootstrap, run later, replaces it (as before).
    @Test func aRegistrationOffTheMainActorLeavesAMainActorBootstrapPending() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BootMainActorHook.self
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                Resolver.register { BootFileStore(path: "off the main actor") }
                done.signal()
            }
            thread.start()
            done.wait()
            precondition(BootMainActorHook.runs.value == 0)
            await MainActor.run {
                _ = Resolver.resolve() as BootLogger
                precondition(BootMainActorHook.runs.value == 1)
                precondition((Resolver.resolve() as BootFileStore).path == "default")
            }
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
