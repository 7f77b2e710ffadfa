import Foundation
import Testing

@testable import Syringe

// The bootstrap met by registrations from elsewhere: several threads at once, the bootstrap's own
// helpers, modules contributed while it runs, a container that refuses overrides. Each test that
// touches `Resolver.main` runs in a fresh process.

final class BaEarly {
    let origin: String
    init(origin: String) { self.origin = origin }
}
final class BaContributed {}
struct BaContributedModule: ResolverModule {
    func register(in resolver: Resolver) {
        resolver.register { BaContributed() }
    }
}

/// A `registerAllServices()` with a default for each of eight keys that threads register at launch.
enum BaDefaultsHook: ResolverRegistering {
    static let runs = FxCounter()
    static func registerAllServices() {
        runs.increment()
        for index in 0..<8 { Resolver.register(name: "\(index)") { BaEarly(origin: "default") } }
    }
}

/// A `registerAllServices()` that contributes a module, as a library's configure call made from it.
enum BaContributingHook: ResolverRegistering {
    static func registerAllServices() {
        Resolver.register { BaEarly(origin: "default") }
        Resolver.registerOnBootstrap(BaContributedModule())
    }
}

/// A `registerAllServices()` whose registration is resolved while it runs, by a factory that
/// registers in `main` too.
enum BaResolvingHook: ResolverRegistering {
    static func registerAllServices() {
        Resolver.register { () -> BaEarly in
            Resolver.register { BaContributed() }
            return BaEarly(origin: "default")
        }
        _ = Resolver.resolve() as BaEarly
    }
}

/// A `registerAllServices()` that, the first time, waits for a thread that calls `reset()`.
enum BaResettingHook: ResolverRegistering {
    static let runs = FxCounter()
    static func registerAllServices() {
        Resolver.register(name: "before") { BaEarly(origin: "default") }
        if runs.increment() == 1 {
            let reset = DispatchSemaphore(value: 0)
            fxStartThread(reset) { Resolver.reset() }
            reset.wait()
        }
        Resolver.register(name: "after") { BaEarly(origin: "default") }
    }
}

/// A `registerAllServices()` that waits, the first time, between its two registrations.
enum BaPausingHook: ResolverRegistering {
    static let started = DispatchSemaphore(value: 0)
    static let resume = DispatchSemaphore(value: 0)
    static let runs = FxCounter()
    static func registerAllServices() {
        runs.increment()
        Resolver.register(name: "first") { BaEarly(origin: "default") }
        if runs.value == 1 {
            started.signal()
            resume.wait()
        }
        Resolver.register(name: "second") { BaEarly(origin: "default") }
    }
}

@Suite struct BootstrapAttackTests {
    /// `reset()` while the bootstrap runs on another thread leaves it pending: the next resolution
    /// runs it again whole, so `main` is never left with half of `registerAllServices()`.
    @Test func resetDuringTheBootstrapLeavesItPending() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BaPausingHook.self
            let bootstrapped = DispatchSemaphore(value: 0)
            fxStartThread(bootstrapped) { _ = Resolver.main.optional(BaEarly.self, name: "first") }
            BaPausingHook.started.wait()
            let reset = DispatchSemaphore(value: 0)
            fxStartThread(reset) { Resolver.reset() }
            usleep(20_000)
            BaPausingHook.resume.signal()
            bootstrapped.wait()
            reset.wait()
            precondition(Resolver.main.optional(BaEarly.self, name: "first") != nil)
            precondition(Resolver.main.optional(BaEarly.self, name: "second") != nil)
            precondition(BaPausingHook.runs.value == 2)
        }
    }

    /// `reset()` on a thread the bootstrap waits for returns (it waits for no lock the bootstrap
    /// holds), and the bootstrap stays pending: what the reset removed is registered again by the
    /// bootstrap that the first miss runs.
    @Test func resetFromAThreadTheBootstrapWaitsForReturns() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BaResettingHook.self
            precondition(Resolver.main.optional(BaEarly.self, name: "after") != nil)
            precondition(Resolver.main.optional(BaEarly.self, name: "before") != nil)
            precondition(BaResettingHook.runs.value == 2)
        }
    }
    @Test func registrationsFromSeveralThreadsBeforeTheBootstrapAllWin() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BaDefaultsHook.self
            let finished = fxRunThreads(8) { index in
                Resolver.main.register(name: "\(index)") { BaEarly(origin: "thread \(index)") }
            }
            precondition(finished)
            precondition(BaDefaultsHook.runs.value == 1)
            for index in 0..<8 {
                precondition((Resolver.main.resolve(name: "\(index)") as BaEarly).origin == "thread \(index)")
            }
        }
    }

    @Test func aModuleContributedFromInsideTheBootstrapIsInstalled() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BaContributingHook.self
            Resolver.registerServices()
            precondition(Resolver.main.isRegistered(BaContributed.self))
        }
    }

    @Test func aFactoryRunDuringTheBootstrapRegistersInMain() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BaResolvingHook.self
            Resolver.register { BaEarly(origin: "launch") }
            precondition((Resolver.main.resolve() as BaEarly).origin == "launch")
            precondition(Resolver.main.isRegistered(BaContributed.self))
        }
    }

    /// With overrides off, a key registered at launch and by `registerAllServices()` is registered
    /// twice, which the container refuses: the program stops at the launch registration, naming
    /// both places.
    @Test func withOverridesOffAnEarlyRegistrationOfABootstrapKeyStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            Resolver.registeringType = BaDefaultsHook.self
            Resolver.main.allowsOverrides = false
            Resolver.register(name: "3") { BaEarly(origin: "launch") }
        }
        let text = fxStderr(result)
        #expect(text.contains("BaEarly named \"3\" is already registered in container main"), "\(text)")
        #expect(text.contains("BootstrapAttackTests.swift"))
        #expect(!text.contains("watchdog"))
    }
}
