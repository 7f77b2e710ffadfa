import Foundation
import Syringe
import SyringeTesting
import Testing

// No user code runs while Syringe holds its lock, deinitializers included. Each test lets Syringe
// release an instance (or a registration's factory) whose deinitializer calls back into Syringe:
// it reads, resolves and registers. Each runs in its own process with a watchdog, so a deadlock
// ends that process (exit 70) and fails one test instead of hanging the run. The optimizer
// shortens lifetimes, so CI also runs this file in release mode.

/// Calls into Syringe from its deinitializer: reads `container` and ``Resolver/main``, resolves
/// from `container` and registers into it. Counts its deinitializations.
final class InvToucher {
    let container: Resolver
    let deinits: FxCounter

    init(touching container: Resolver, deinits: FxCounter) {
        self.container = container
        self.deinits = deinits
    }

    deinit {
        _ = container.isRegistered(InvMarker.self)
        _ = Resolver.main.isRegistered(InvMarker.self)
        _ = container.optional(InvMarker.self)
        container.register(name: "registered by a deinitializer") { InvMarker() }
        deinits.increment()
    }
}

final class InvMarker {}

/// What the registrations under test build: it owns a toucher, so releasing it calls into Syringe.
final class InvProbe {
    let toucher: InvToucher
    init(toucher: InvToucher) { self.toucher = toucher }
}

/// A `.graph` instance whose deinitializer resolves a transient and another `.graph` registration
/// from `container`: a top-level resolution of its own, started while the one that built it ends.
final class InvGraphUnit {
    let container: Resolver
    let deinits: FxCounter

    init(container: Resolver, deinits: FxCounter) {
        self.container = container
        self.deinits = deinits
    }

    deinit {
        _ = container.resolve(InvMarker.self)
        _ = container.resolve(InvGraphLeaf.self)
        deinits.increment()
    }
}

final class InvGraphLeaf {}

/// A container with a `.graph` ``InvGraphUnit`` registered, and the counter of its deinitializations.
func invGraphUnitContainer() -> (Resolver, FxCounter) {
    let c = Resolver()
    let deinits = FxCounter()
    c.register { InvMarker() }
    c.register(lifetime: .graph) { InvGraphLeaf() }
    c.register(lifetime: .graph) { InvGraphUnit(container: c, deinits: deinits) }
    return (c, deinits)
}

/// Made by a factory that resolves an ``InvGraphUnit``; its lazy wrapper, made during the
/// resolution, keeps the resolution's `.graph` scope after it ends.
final class InvLazyScreen {
    @LazyInject var later: InvMarker
    init(container: Resolver) { _later = LazyInject(container: container) }
}

/// A `.weak` instance with nothing inside.
final class InvWeakThing {}

enum InvDeinitFlow: Scope {}
enum InvDeinitSession: Scope {
    static var retention: ScopeRetention { .strong }
}

/// A factory for `InvProbe` whose closure also captures a toucher of its own: releasing the
/// registration calls into Syringe even when no instance is cached.
func invTouchyFactory(_ container: Resolver, _ deinits: FxCounter) -> () -> InvProbe {
    let captured = InvToucher(touching: container, deinits: deinits)
    return {
        withExtendedLifetime(captured) { InvProbe(toucher: InvToucher(touching: container, deinits: deinits)) }
    }
}

/// Registers a singleton `InvProbe` in `container` (factory and instance both touch `touched`)
/// and resolves it once, so that the instance is cached.
func invRegisterTouchySingleton(in container: Resolver, touching touched: Resolver, deinits: FxCounter) {
    container.register(lifetime: .singleton, factory: invTouchyFactory(touched, deinits))
    _ = container.resolve(InvProbe.self)
}

/// Stops the child process with `message` unless `condition` holds (checked in release builds too).
func invRequire(_ condition: Bool, _ message: String) {
    if !condition {
        FileHandle.standardError.write(Data("requirement failed: \(message)\n".utf8))
        exit(1)
    }
}

/// A time-to-live instance whose deinitializer resolves the ``InvTokenClient`` that depends on it.
final class InvExpiringToken {
    let container: Resolver
    let resolved: FxCounter

    init(container: Resolver, resolved: FxCounter) {
        self.container = container
        self.resolved = resolved
    }

    deinit {
        if (try? container.tryResolve(InvTokenClient.self)) != nil { resolved.increment() }
    }
}

final class InvTokenClient {
    let token: InvExpiringToken
    init(token: InvExpiringToken) { self.token = token }
}

@Suite struct EngineDeinitTests {
    // MARK: Scope handles and dropped caches

    @Test func endingAScopeHandleReleasesOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let deinits = FxCounter()
            c.register(scopedTo: InvDeinitFlow.self) { InvProbe(toucher: InvToucher(touching: c, deinits: deinits)) }
            let handle = c.beginScope(InvDeinitFlow.self)
            _ = c.resolve(InvProbe.self, scopedTo: InvDeinitFlow.self)
            invRequire(deinits.value == 0, "the open handle keeps the scoped instance")
            handle.end()
            invRequire(deinits.value == 1, "end() released the scoped instance")
        }
    }

    @Test func dropCachedReleasesOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let deinits = FxCounter()
            invRegisterTouchySingleton(in: c, touching: c, deinits: deinits)
            c.dropCached([InvProbe.self])
            invRequire(deinits.value == 1, "dropCached released the singleton")
        }
    }

    @Test func dropAllCachedReleasesOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let deinits = FxCounter()
            invRegisterTouchySingleton(in: c, touching: c, deinits: deinits)
            c.dropAllCached()
            invRequire(deinits.value == 1, "dropAllCached released the singleton")
        }
    }

    @Test func droppingAStrongScopeReleasesOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let deinits = FxCounter()
            c.register(scopedTo: InvDeinitSession.self) {
                InvProbe(toucher: InvToucher(touching: c, deinits: deinits))
            }
            _ = c.resolve(InvProbe.self, scopedTo: InvDeinitSession.self)
            invRequire(deinits.value == 0, "the strong scope keeps its instance")
            c.dropCached(scopedTo: InvDeinitSession.self)
            invRequire(deinits.value == 1, "dropCached(scopedTo:) released the scoped instance")
        }
    }

    // MARK: Removed and replaced registrations

    @Test func clearRegistrationReleasesOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let deinits = FxCounter()
            invRegisterTouchySingleton(in: c, touching: c, deinits: deinits)
            c.clearRegistration(for: InvProbe.self)
            invRequire(deinits.value == 2, "clearing released the singleton and the factory's capture")
        }
    }

    @Test func clearAllRegistrationsReleasesOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let deinits = FxCounter()
            invRegisterTouchySingleton(in: c, touching: c, deinits: deinits)
            c.clearAllRegistrations()
            invRequire(deinits.value == 2, "clearing released the singleton and the factory's capture")
        }
    }

    @Test func reregisteringAKeyReleasesTheOldRegistrationOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let deinits = FxCounter()
            invRegisterTouchySingleton(in: c, touching: c, deinits: deinits)
            c.register(lifetime: .singleton) { InvProbe(toucher: InvToucher(touching: c, deinits: FxCounter())) }
            invRequire(deinits.value == 2, "replacing released the old singleton and the old factory's capture")
        }
    }

    // MARK: Test containers

    @Test func testContainerDropsItsCopyOfAReplacedParentRegistrationOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let parent = Resolver()
            let deinits = FxCounter()
            invRegisterTouchySingleton(in: parent, touching: parent, deinits: deinits)
            let test = Resolver.withContainer(parent) { Resolver.makeTestContainer() }
            _ = test.resolve(InvProbe.self)  // the test container builds and keeps its own copy
            parent.register(lifetime: .singleton) {
                InvProbe(toucher: InvToucher(touching: parent, deinits: FxCounter()))
            }
            invRequire(deinits.value == 0, "the test container's copy keeps the replaced registration")
            test.dropCached([InvProbe.self])
            // The copy, the parent's own instance and the old factory's capture.
            invRequire(deinits.value == 3, "dropCached released the copy and the replaced registration")
        }
    }

    @Test func withTestContainerDropsItsCopyOfAClearedParentRegistrationOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let parent = Resolver()
            let deinits = FxCounter()
            invRegisterTouchySingleton(in: parent, touching: parent, deinits: deinits)
            Resolver.withContainer(parent) {
                Resolver.withTestContainer {
                    _ = Resolver.resolve(InvProbe.self)
                    parent.clearRegistration(for: InvProbe.self)
                    invRequire(deinits.value == 0, "the test container's copy keeps the cleared registration")
                    Resolver.dropCached([InvProbe.self])
                    invRequire(deinits.value == 3, "dropCached released the copy and the cleared registration")
                }
            }
        }
    }

    @Test func testContainerCompactingItsWeakCopiesReleasesOutsideTheLock() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let parent = Resolver()
            let deinits = FxCounter()
            var test: Resolver? = Resolver.withContainer(parent) { Resolver.makeTestContainer() }
            // 100 weak registrations whose factories capture a toucher; their instances die at once.
            for index in 0..<100 {
                let captured = InvToucher(touching: parent, deinits: deinits)
                parent.register(name: "first \(index)", lifetime: .weak) {
                    withExtendedLifetime(captured) { InvWeakThing() }
                }
                _ = test!.resolve(InvWeakThing.self, name: "first \(index)")
            }
            // Only the test container's dead weak copies still hold some of those registrations.
            parent.clearAllRegistrations()
            // More dead weak copies, so that the test container compacts its cache.
            for index in 0..<100 {
                parent.register(name: "second \(index)", lifetime: .weak) { InvWeakThing() }
                _ = test!.resolve(InvWeakThing.self, name: "second \(index)")
            }
            test = nil
            invRequire(deinits.value == 100, "every captured toucher was released")
        }
    }

    // MARK: The end of a resolution

    @Test func aGraphInstanceWhoseDeinitializerResolvesIsReleasedSafely() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let (c, deinits) = invGraphUnitContainer()
            c.register(name: "screen") { (r: Resolver) -> InvWeakThing in
                _ = r.resolve(InvGraphUnit.self)
                return InvWeakThing()
            }
            _ = c.resolve(InvWeakThing.self, name: "screen")
            invRequire(deinits.value == 1, "the end of the resolution released its .graph instance")
            _ = c.resolve(InvWeakThing.self, name: "screen")
            invRequire(deinits.value == 2, "the next resolution built and released its own")
        }
    }

    @Test func aGraphInstanceWhoseDeinitializerResolvesIsReleasedSafelyWhenALazyWrapperKeepsTheScope() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let (c, deinits) = invGraphUnitContainer()
            c.register { (r: Resolver) -> InvLazyScreen in
                _ = r.resolve(InvGraphUnit.self)
                return InvLazyScreen(container: c)
            }
            let screen: InvLazyScreen = c.resolve()
            invRequire(deinits.value == 1, "the end of the resolution released its .graph instance")
            _ = screen.later
            let again: InvLazyScreen = c.resolve()
            invRequire(deinits.value == 2, "the next resolution built and released its own")
            withExtendedLifetime((screen, again)) {}
        }
    }

    /// An expired instance is let go by the resolution that replaces it, after that resolution
    /// ends: its deinitializer resolves what depends on it, which is no cycle.
    @Test func anExpiredInstanceWhoseDeinitializerResolvesItsDependentIsReleasedAfterTheResolution() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let resolved = FxCounter()
            c.register { InvExpiringToken(container: c, resolved: resolved) }.lifetime(.timeToLive(.milliseconds(5)))
            c.register { InvTokenClient(token: $0.resolve()) }
            _ = c.resolve(InvTokenClient.self)
            usleep(30_000)
            let second = c.resolve(InvTokenClient.self)
            invRequire(resolved.value == 1, "the expired token's deinitializer resolved its client")
            withExtendedLifetime(second) {}
        }
    }

    // MARK: Releasing a container

    @Test func releasingAContainerRunsItsSingletonsDeinitializersSafely() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let other = Resolver()
            let deinits = FxCounter()
            var container: Resolver? = Resolver()
            invRegisterTouchySingleton(in: container!, touching: other, deinits: deinits)
            container = nil
            invRequire(deinits.value == 2, "releasing the container released its singleton and factory")
        }
    }

    @Test func releasingATestContainerRunsItsCopiesDeinitializersSafely() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let parent = Resolver()
            let deinits = FxCounter()
            invRegisterTouchySingleton(in: parent, touching: parent, deinits: deinits)
            var test: Resolver? = Resolver.withContainer(parent) { Resolver.makeTestContainer() }
            _ = test!.resolve(InvProbe.self)  // the test container's own copy
            test = nil
            invRequire(deinits.value == 1, "releasing the test container released its copy")
        }
    }

    @Test func aTestContainerLetsGoOfWhatItsParentReplaced() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 30)
            let parent = Resolver()
            let test = Resolver(isolatedChildOf: parent)
            let made = FxCounter()
            let deinits = FxCounter()
            for round in 0..<1_000 {
                parent.register(lifetime: .singleton) { () -> InvCounted in
                    made.increment()
                    return InvCounted(deinits: deinits)
                }
                _ = test.resolve(InvCounted.self)  // the test container's own copy
                if round % 2 == 1 { parent.clearRegistration(for: InvCounted.self) }
            }
            invRequire(made.value == 1_000, "each registration built once")
            invRequire(made.value - deinits.value < 100, "\(made.value - deinits.value) replaced instances alive")
            withExtendedLifetime(test) {}
        }
    }

    // A registration that `.implements` its own type is bound under an alias of itself: its copy is
    // not stale.
    @Test func aTestContainerKeepsItsCopyOfARegistrationImplementingItsOwnType() {
        let parent = Resolver()
        parent.register(lifetime: .singleton) { InvSingleton() }.implements(InvSingleton.self)
        let test = Resolver(isolatedChildOf: parent)
        let first = test.resolve(InvSingleton.self)
        for index in 0..<40 {
            parent.register(name: "other \(index)", lifetime: .singleton) { InvMarker() }
            _ = test.resolve(InvMarker.self, name: "other \(index)")
        }
        #expect(test.resolve(InvSingleton.self) === first)
    }

    // MARK: What a factory lets go

    // A factory that drops a cache, registers anew or ends a scope: what that lets go is released
    // when the resolution ends, so that a deinitializer resolving what is being built (here the
    // transient `InvMarker`, or the singleton itself) is not taken for a cycle.
    @Test func whatAFactoryLetsGoIsReleasedAfterTheResolution() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let resolvedInDeinit = FxCounter()
            let order = FxRecorder<String>()
            c.register(lifetime: .singleton) {
                InvOnDeinit {
                    order.append("deinit")
                    _ = c.resolve(InvMarker.self)
                    resolvedInDeinit.increment()
                }
            }
            c.register(scopedTo: InvDeinitFlow.self) {
                InvOnDeinit {
                    _ = c.resolve(InvMarker.self); resolvedInDeinit.increment()
                }
            }
            c.register { (r: Resolver) -> InvMarker in
                r.dropCached([InvOnDeinit.self])  // the first time, the singleton goes
                order.append("factory returns")
                return InvMarker()
            }
            _ = c.resolve(InvOnDeinit.self)
            _ = c.resolve(InvMarker.self)
            invRequire(resolvedInDeinit.value == 1, "the deinitializer resolved")
            invRequire(
                Array(order.values.prefix(2)) == ["factory returns", "deinit"],
                "released after the resolution: \(order.values)")

            c.register(lifetime: .singleton) {
                InvOnDeinit {
                    _ = c.resolve(InvMarker.self); resolvedInDeinit.increment()
                }
            }
            _ = c.resolve(InvOnDeinit.self)
            c.register { (r: Resolver) -> InvMarker in
                r.register(lifetime: .singleton) { InvOnDeinit {} }  // replaces the singleton
                return InvMarker()
            }
            _ = c.resolve(InvMarker.self)
            invRequire(resolvedInDeinit.value == 2, "the replaced singleton's deinitializer resolved")

            let handle = c.beginScope(InvDeinitFlow.self)
            _ = c.resolve(InvOnDeinit.self, scopedTo: InvDeinitFlow.self)
            c.register { () -> InvMarker in
                handle.end()
                return InvMarker()
            }
            _ = c.resolve(InvMarker.self)
            invRequire(resolvedInDeinit.value == 3, "the scoped instance's deinitializer resolved")
        }
    }

    // The outermost factory fails after letting go of an instance whose deinitializer resolves the
    // same key: the claim on the failed build is given up first, so the key builds.
    @Test func aFailedFactoryLetsGoBeforeItsDeinitializerResolvesTheKey() {
        struct Boom: Error {}
        let c = Resolver()
        let attempts = FxCounter()
        let resolvedInDeinit = FxRecorder<String>()
        c.register(lifetime: .singleton) {
            InvOnDeinit {
                do {
                    _ = try c.tryResolve(InvSingleton.self)
                    resolvedInDeinit.append("resolved")
                } catch {
                    resolvedInDeinit.append("\(error)")
                }
            }
        }
        c.register(lifetime: .singleton) { () throws -> InvSingleton in
            if attempts.increment() == 1 {
                c.dropCached([InvOnDeinit.self])
                throw Boom()
            }
            return InvSingleton()
        }
        _ = c.resolve(InvOnDeinit.self)
        #expect(throws: ResolutionError.self) { try c.tryResolve(InvSingleton.self) }
        #expect(resolvedInDeinit.values == ["resolved"])
    }

    @Test func aSingletonWhoseFactoryLetsGoOfWhatResolvesIt() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let resolvedInDeinit = FxCounter()
            c.register(lifetime: .singleton) {
                InvOnDeinit {
                    _ = c.resolve(InvSingleton.self); resolvedInDeinit.increment()
                }
            }
            c.register(lifetime: .singleton) { (r: Resolver) -> InvSingleton in
                r.dropCached([InvOnDeinit.self])
                return InvSingleton()
            }
            _ = c.resolve(InvOnDeinit.self)
            let singleton = c.resolve(InvSingleton.self)
            invRequire(resolvedInDeinit.value == 1, "the deinitializer resolved the singleton")
            invRequire(c.resolve(InvSingleton.self) === singleton, "one singleton")
        }
    }
}

/// The async twins: what an async factory, or a synchronous factory it resolves, lets go is
/// released when the outermost async build ends.
@Suite struct AsyncFactoryLetGoTests {
    @Test func whatAnAsyncFactoryLetsGoIsReleasedAfterItsBuild() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let resolvedInDeinit = FxCounter()
            invRegisterResolvingOnDeinit(InvAsyncSingleton.self, in: c, counting: resolvedInDeinit)
            c.register(lifetime: .singleton) { (r: Resolver) async -> InvAsyncSingleton in
                r.dropCached([InvOnDeinit.self])
                return InvAsyncSingleton()
            }
            _ = c.resolve(InvOnDeinit.self)
            let singleton: InvAsyncSingleton = await c.resolveAsync()
            invRequire(resolvedInDeinit.value == 1, "the deinitializer resolved the async singleton")
            invRequire(c.resolve(InvAsyncSingleton.self) === singleton, "one singleton")
        }
    }

    @Test func whatASynchronousFactoryLetsGoInsideAnAsyncOneIsReleasedAfterIt() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let resolvedInDeinit = FxCounter()
            invRegisterResolvingOnDeinit(InvAsyncSingleton.self, in: c, counting: resolvedInDeinit)
            c.register { (r: Resolver) -> InvMarker in
                r.dropCached([InvOnDeinit.self])
                return InvMarker()
            }
            c.register(lifetime: .singleton) { (r: Resolver) async -> InvAsyncSingleton in
                _ = r.resolve(InvMarker.self)
                return InvAsyncSingleton()
            }
            _ = c.resolve(InvOnDeinit.self)
            let singleton: InvAsyncSingleton = await c.resolveAsync()
            invRequire(resolvedInDeinit.value == 1, "the deinitializer resolved the async singleton")
            invRequire(c.resolve(InvAsyncSingleton.self) === singleton, "one singleton")
        }
    }
}

final class InvAsyncSingleton: Sendable {}

/// Registers a singleton ``InvOnDeinit`` whose deinitializer resolves `type` from `container` and
/// counts it.
func invRegisterResolvingOnDeinit<T>(_ type: T.Type, in container: Resolver, counting resolved: FxCounter) {
    container.register(lifetime: .singleton) {
        InvOnDeinit {
            _ = container.resolve(T.self)
            resolved.increment()
        }
    }
}

/// Runs `action` when it goes.
final class InvOnDeinit {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
    deinit { action() }
}

final class InvSingleton {}

/// Counts its deinitializations.
final class InvCounted {
    let deinits: FxCounter
    init(deinits: FxCounter) { self.deinits = deinits }
    deinit { deinits.increment() }
}
