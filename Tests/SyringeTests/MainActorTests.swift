import Foundation
import Syringe
import SyringeTesting
import Testing

// Main-actor types (SPEC.md §9), in Swift 6 language mode: registered and resolved from
// @MainActor code with no warnings, with `register` or the main-actor-bound
// `registerMainActor`; resolving a main-actor-bound registration anywhere else throws
// Syringe's message instead of hitting the runtime's isolation trap.

final class MAService: Sendable {
    let name: String
    init(name: String = "live") { self.name = name }
}

@MainActor final class MAViewModel {
    let service: MAService
    var title = "Assets"
    init(service: MAService) { self.service = service }
}

@MainActor final class MAScreen {
    @Inject var service: MAService
    @Inject var model: MAViewModel
    var headline: String { "\(model.title) from \(service.name)" }
}

/// Created directly (not resolved) in main-actor code.
@MainActor final class MADirectScreen {
    @Inject var model: MAViewModel
}

@MainActor final class MALazyScreen {
    @LazyInject var model: MAViewModel
}

/// A nonisolated type that needs a main-actor-bound one.
final class MAConsumer {
    let model: MAViewModel
    init(model: MAViewModel) { self.model = model }
}

/// Holds what a background thread saw.
private final class MABox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    var value: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

private func maOffMainMessage(_ type: String, container: String, path: String? = nil) -> String {
    var lines = [
        "Syringe: \(type) is registered with registerMainActor and was resolved off the main actor",
        "  resolve it from @MainActor code, or hop there first: await MainActor.run { … }",
    ]
    if let path { lines.append("  while resolving \(path)") }
    lines.append("  in container \(container)")
    return lines.joined(separator: "\n")
}

/// Registers `MAConsumer` from nonisolated code, so that its factory is nonisolated.
private func maRegisterConsumer(in resolver: Resolver) {
    resolver.register { try MAConsumer(model: $0.tryResolve()) }
}

/// Resolves `MAViewModel` from `resolver` without any actor, and describes the outcome.
private func maResolveWithoutIsolation(_ resolver: Resolver) -> String {
    do {
        let model: MAViewModel = try resolver.tryResolve()
        _ = model
        return "resolved"
    } catch {
        return error.description
    }
}

@Suite struct MainActorTests {
    // MARK: On the main actor

    @Test(.isolatedResolver) @MainActor func registerMainActorResolvesFromMainActorCode() throws {
        Resolver.register { MAService(name: "main") }
        Resolver.registerMainActor { MAViewModel(service: Resolver.resolve()) }
        let model: MAViewModel = try Resolver.tryResolve()
        #expect(model.service.name == "main")
        model.title = "Portfolio"
        #expect(model.title == "Portfolio")
    }

    @Test(.isolatedResolver) @MainActor func registerMainActorWithALifetimeSharesOneInstance() throws {
        Resolver.register { MAService() }
        Resolver.registerMainActor(lifetime: .singleton) { MAViewModel(service: Resolver.resolve()) }
        let first: MAViewModel = try Resolver.tryResolve()
        let second: MAViewModel = try Resolver.tryResolve()
        #expect(first === second)
    }

    @Test(.isolatedResolver) @MainActor func plainRegisterFromMainActorCode() {
        Resolver.register { MAService(name: "plain") }
        Resolver.register { MAViewModel(service: $0.resolve()) }
        let model: MAViewModel = Resolver.resolve()
        #expect(model.service.name == "plain")
        let other: MAViewModel = Resolver.resolve()
        #expect(other !== model)
    }

    @Test(.isolatedResolver) @MainActor func wrappersInAResolvedMainActorTypeReachMainActorBoundRegistrations() {
        Resolver.register { MAService(name: "wrapped") }
        Resolver.registerMainActor { MAViewModel(service: Resolver.resolve()) }
        Resolver.register { MAScreen() }
        let screen: MAScreen = Resolver.resolve()
        #expect(screen.headline == "Assets from wrapped")
    }

    /// `@Inject` in a main-actor type created directly in main-actor code: the wrapper's
    /// `isolation: #isolation` default is evaluated in the stored property's initializer, where
    /// it is nil, so the main-actor-bound registration is refused (reported).
    @Test func injectInAMainActorTypeCreatedOnTheMainActor() async {
        await withKnownIssue("@Inject in a @MainActor type does not know it is on the main actor (reported)") {
            await #expect(processExitsWith: .success) {
                let r = Resolver(id: "ma-direct-inject")
                r.register { MAService() }
                r.registerMainActor { MAViewModel(service: r.resolve()) }
                await MainActor.run {
                    let screen = Resolver.withContainer(r) { MADirectScreen() }
                    precondition(screen.model.title == "Assets")
                }
            }
        }
    }

    /// `@LazyInject` in a main-actor type, first read from main-actor code (reported, as above).
    @Test func lazyInjectReadOnTheMainActor() async {
        await withKnownIssue("@LazyInject's first read does not know it is on the main actor (reported)") {
            await #expect(processExitsWith: .success) {
                let r = Resolver(id: "ma-lazy-inject")
                r.register { MAService() }
                r.registerMainActor { MAViewModel(service: r.resolve()) }
                await MainActor.run {
                    let screen = Resolver.withContainer(r) { MALazyScreen() }
                    precondition(screen.model.title == "Assets")
                }
            }
        }
    }

    @Test(.isolatedResolver) @MainActor func aNonisolatedFactoryMayNeedAMainActorBoundOne() throws {
        Resolver.register { MAService() }
        Resolver.registerMainActor { MAViewModel(service: Resolver.resolve()) }
        maRegisterConsumer(in: Resolver.current)
        let consumer: MAConsumer = try Resolver.tryResolve()
        #expect(consumer.model.service.name == "live")
    }

    @Test func hoppingToTheMainActorResolves() async throws {
        let r = Resolver(id: "ma-hop")
        r.register { MAService(name: "hopped") }
        r.registerMainActor { MAViewModel(service: r.resolve()) }
        let name = try await MainActor.run {
            let model: MAViewModel = try r.tryResolve()
            return model.service.name
        }
        #expect(name == "hopped")
    }

    // MARK: Off the main actor

    @Test func resolvingFromADetachedTaskThrowsSyringesMessage() async {
        let r = Resolver(id: "ma-detached")
        r.register { MAService() }
        r.registerMainActor { MAViewModel(service: r.resolve()) }
        let outcome = await Task.detached { maResolveWithoutIsolation(r) }.value
        #expect(outcome == maOffMainMessage("MAViewModel", container: "ma-detached"))
    }

    @Test func resolvingFromABackgroundThreadThrowsSyringesMessage() {
        let r = Resolver(id: "ma-thread")
        r.register { MAService() }
        r.registerMainActor { MAViewModel(service: r.resolve()) }
        let outcome = MABox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome.value = maResolveWithoutIsolation(r)
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(outcome.value == maOffMainMessage("MAViewModel", container: "ma-thread"))
    }

    @Test func resolvingThroughANonisolatedConsumerOffTheMainActorNamesThePath() async {
        let r = Resolver(id: "ma-path")
        r.register { MAService() }
        r.registerMainActor { MAViewModel(service: r.resolve()) }
        maRegisterConsumer(in: r)
        let outcome = await Task.detached { () -> String in
            do {
                _ = try r.tryResolve(MAConsumer.self)
                return "resolved"
            } catch {
                return "\(error)"
            }
        }.value
        #expect(
            outcome == maOffMainMessage("MAViewModel", container: "ma-path", path: "MAConsumer → MAViewModel"))
    }

    @Test func resolveOffTheMainActorStopsWithSyringesMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "ma-trap")
            r.register { MAService() }
            r.registerMainActor { MAViewModel(service: r.resolve()) }
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = r.resolve(MAViewModel.self)
                done.signal()
            }
            thread.start()
            done.wait()
        }
        #expect(fxStderr(result).contains(maOffMainMessage("MAViewModel", container: "ma-trap")))
    }
}
