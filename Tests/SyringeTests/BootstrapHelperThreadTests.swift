import Foundation
import Testing

@testable import Syringe

/// A `registerAllServices()` that has a helper thread make some of its registrations and waits
/// for it.
enum BaHelperThreadHook: ResolverRegistering {
    static func registerAllServices() {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            Resolver.main.register { BaContributed() }
            done.signal()
        }
        thread.start()
        done.wait()
        Resolver.register { BaEarly(origin: "default") }
    }
}

/// A `registerAllServices()` whose helper thread contributes a module and waits for it.
enum BaHelperThreadModuleHook: ResolverRegistering {
    static func registerAllServices() {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            Resolver.registerOnBootstrap(BaContributedModule())
            done.signal()
        }
        thread.start()
        done.wait()
    }
}

/// A bootstrap may wait for a thread that registers into `main`: the thread's registration is
/// bound when the bootstrap ends (it cannot wait for the bootstrap that waits for it).
@Suite struct BootstrapHelperThreadTests {
    @Test func aBootstrapMayHaveAnotherThreadRegisterForIt() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BaHelperThreadHook.self
            Resolver.registerServices()
            precondition(Resolver.main.isRegistered(BaContributed.self))
            precondition((Resolver.main.resolve() as BaEarly).origin == "default")
        }
    }

    @Test func aBootstrapMayHaveAnotherThreadContributeAModule() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            Resolver.registeringType = BaHelperThreadModuleHook.self
            Resolver.registerServices()
            precondition(Resolver.main.isRegistered(BaContributed.self))
        }
    }
}
