import Foundation
import SyringeTesting
import Testing

@testable import Syringe

// Main-actor types (SPEC.md §9, §13), in Swift 6 language mode on Swift Testing's async runner,
// where (on Linux) the main actor runs on a thread that is not the process's main thread.
//
// A registration whose factory is isolated to the main actor is main-actor-bound, whatever the
// register form: written in main-actor code, a @MainActor function, a `{ @MainActor in … }`
// closure, an autoregistered @MainActor initializer. Main-actor code resolves it; anything else
// gets Syringe's message instead of running main-actor code on another thread.

final class MAService: Sendable {
    let name: String
    init(name: String = "live") { self.name = name }
}

@MainActor final class MAViewModel: MAModel {
    let service: MAService
    var title = "Assets"
    init(service: MAService) { self.service = service }
}

@MainActor final class MAPlainModel {
    var title = "Plain"
    init() {}
}

@MainActor final class MATitled {
    let title: String
    init(title: String) { self.title = title }
}

protocol MAModel: AnyObject {}

enum MAFlow: Scope {}

@MainActor final class MAScreen {
    @Inject var service: MAService
    @Inject var model: MAViewModel
    var headline: String { "\(model.title) from \(service.name)" }
}

/// Created directly (not resolved) in main-actor code.
@MainActor final class MADirectScreen {
    @Inject var model: MAViewModel
    @OptionalInject var optionalModel: MAViewModel?
}

@MainActor final class MALazyScreen {
    @LazyInject var model: MAViewModel
}

/// A nonisolated type that needs a main-actor-bound one.
final class MAConsumer {
    let model: MAViewModel
    init(model: MAViewModel) { self.model = model }
}

/// A nonisolated type whose lazy dependency is main-actor-bound: its first read decides.
final class MALazyConsumer: @unchecked Sendable {
    @LazyInject var model: MAViewModel
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

/// Whether `text` is Syringe's off-main-actor message for `type`.
func maIsOffMainMessage(_ text: String, type: String, container: String) -> Bool {
    text.hasPrefix("Syringe: \(type) is bound to the main actor and was resolved off it\n")
        && text.contains("\n  in container \(container)\n")
        && text.contains("\n  resolve it from @MainActor code, or hop there first: await MainActor.run { … }")
}

/// Registers the nonisolated service every form needs, from nonisolated code.
func maRegisterService(in resolver: Resolver, name: String = "live") {
    resolver.register { MAService(name: name) }
}

/// Registers `MAConsumer` from nonisolated code, so that its factory is nonisolated.
private func maRegisterConsumer(in resolver: Resolver) {
    resolver.register { try MAConsumer(model: $0.tryResolve()) }
}

/// Resolves `MAViewModel` from `resolver` in nonisolated code (the compiler gives no isolation),
/// and describes the outcome.
private func maResolveWithoutIsolation(_ resolver: Resolver) -> String {
    do {
        _ = try resolver.tryResolve(MAViewModel.self)
        return "resolved"
    } catch {
        return error.description
    }
}

/// Every register form that yields a main-actor-bound registration.
enum MAForm: String, Codable, Sendable, CaseIterable {
    // Written in main-actor code: the plain forms see it through their `isolation` argument.
    case plain, receivingContainer, arguments, scoped, scopedReceivingContainer, chained, singleton, implemented
    case autoregisteredService, autoregisteredScoped
    // Typed @MainActor factories, registered from nonisolated code.
    case mainActorClosure, mainActorFunction, mainActorReceivingContainer, mainActorArguments
    case mainActorScoped, mainActorChained, autoregistered, mainActorAutoregisteredService
    case mainActorAutoregisteredScoped

    var isWrittenInMainActorCode: Bool {
        switch self {
        case .plain, .receivingContainer, .arguments, .scoped, .scopedReceivingContainer, .chained, .singleton,
            .implemented, .autoregisteredService, .autoregisteredScoped:
            return true
        default:
            return false
        }
    }

    /// The type the form registers, as messages name it.
    var typeName: String {
        switch self {
        case .arguments, .mainActorArguments: return "MATitled named \"\(rawValue)\" with arguments (String)"
        case .scoped, .scopedReceivingContainer, .mainActorScoped, .autoregisteredScoped,
            .mainActorAutoregisteredScoped:
            return "MAViewModel in scope MAFlow"
        case .mainActorFunction: return "MAPlainModel named \"\(rawValue)\""
        case .implemented, .autoregisteredService, .mainActorAutoregisteredService:
            return "MAModel named \"\(rawValue)\""
        default: return "MAViewModel named \"\(rawValue)\""
        }
    }

    /// Registers the form in `resolver` (and the nonisolated service it needs).
    func register(in resolver: Resolver) async {
        maRegisterService(in: resolver)
        if isWrittenInMainActorCode {
            await maRegisterInMainActorCode(self, in: resolver)
        } else {
            maRegisterTyped(self, in: resolver)
        }
    }

    /// Resolves the form's registration with `tryResolve`; the caller's isolation is this
    /// function's (`isolated`), so main-actor callers are known statically.
    func tryResolve(from resolver: Resolver, isolation: isolated (any Actor)? = #isolation) throws(ResolutionError) {
        switch self {
        case .arguments, .mainActorArguments:
            _ = try resolver.tryResolve(MATitled.self, name: rawValue, arguments: "Wallet")
        case .scoped, .scopedReceivingContainer, .mainActorScoped, .autoregisteredScoped,
            .mainActorAutoregisteredScoped:
            _ = try resolver.tryResolve(MAViewModel.self, scopedTo: MAFlow.self)
        case .mainActorFunction:
            _ = try resolver.tryResolve(MAPlainModel.self, name: rawValue)
        case .implemented, .autoregisteredService, .mainActorAutoregisteredService:
            _ = try resolver.tryResolve((any MAModel).self, name: rawValue)
        default:
            _ = try resolver.tryResolve(MAViewModel.self, name: rawValue)
        }
    }

    /// Resolves the form's registration with `resolve()`, which stops on failure.
    func resolve(from resolver: Resolver) {
        switch self {
        case .arguments, .mainActorArguments:
            _ = resolver.resolve(MATitled.self, name: rawValue, arguments: "Wallet")
        case .scoped, .scopedReceivingContainer, .mainActorScoped, .autoregisteredScoped,
            .mainActorAutoregisteredScoped:
            _ = resolver.resolve(MAViewModel.self, scopedTo: MAFlow.self)
        case .mainActorFunction:
            _ = resolver.resolve(MAPlainModel.self, name: rawValue)
        case .implemented, .autoregisteredService, .mainActorAutoregisteredService:
            _ = resolver.resolve((any MAModel).self, name: rawValue)
        default:
            _ = resolver.resolve(MAViewModel.self, name: rawValue)
        }
    }
}

/// The forms written in main-actor code: plain `register` calls, nothing marked.
@MainActor func maRegisterInMainActorCode(_ form: MAForm, in r: Resolver) {
    let name = form.rawValue
    switch form {
    case .plain:
        r.register(name: name) { MAViewModel(service: r.resolve()) }
    case .receivingContainer:
        r.register(name: name) { MAViewModel(service: $0.resolve()) }
    case .arguments:
        r.register(name: name, arguments: String.self) { MATitled(title: $0) }
    case .scoped:
        r.register(scopedTo: MAFlow.self) { MAViewModel(service: r.resolve()) }
    case .scopedReceivingContainer:
        r.register(scopedTo: MAFlow.self) { MAViewModel(service: $0.resolve()) }
    case .chained:
        r.register(name: "chain start") { MAPlainModel() }
            .register(name: name) { MAViewModel(service: $0.resolve()) }
    case .singleton:
        r.register(name: name, lifetime: .singleton) { MAViewModel(service: $0.resolve()) }
    case .implemented:
        r.register(name: name) { MAViewModel(service: $0.resolve()) }.implements((any MAModel).self)
    case .autoregisteredService:
        r.autoregister((any MAModel).self, initializer: MAViewModel.init(service:), name: name)
    case .autoregisteredScoped:
        r.autoregister(MAViewModel.init(service:), scopedTo: MAFlow.self)
    default:
        preconditionFailure("\(form) is registered from nonisolated code")
    }
}

/// The typed forms, registered from nonisolated code.
func maRegisterTyped(_ form: MAForm, in r: Resolver) {
    let name = form.rawValue
    switch form {
    case .mainActorClosure:
        r.register(name: name) { @MainActor in MAViewModel(service: r.resolve()) }
    case .mainActorFunction:
        r.register(name: name, factory: MAPlainModel.init)
    case .mainActorReceivingContainer:
        r.register(name: name) { @MainActor (resolver: Resolver) in MAViewModel(service: resolver.resolve()) }
    case .mainActorArguments:
        r.register(name: name, arguments: String.self, factory: MATitled.init(title:))
    case .mainActorScoped:
        r.register(scopedTo: MAFlow.self) { @MainActor in MAViewModel(service: r.resolve()) }
    case .mainActorChained:
        r.register(name: "chain start") { MAService() }
            .register(name: name) { @MainActor in MAViewModel(service: r.resolve()) }
    case .autoregistered:
        r.autoregister(MAViewModel.init(service:), name: name)
    case .mainActorAutoregisteredService:
        r.autoregister((any MAModel).self, initializer: MAViewModel.init(service:), name: name)
    case .mainActorAutoregisteredScoped:
        r.autoregister(MAViewModel.init(service:), scopedTo: MAFlow.self)
    default:
        preconditionFailure("\(form) is written in main-actor code")
    }
}

@Suite struct MainActorTests {
    // MARK: Every form, from main-actor code

    @Test(arguments: MAForm.allCases)
    func mainActorCodeResolvesEveryForm(form: MAForm) async throws {
        let r = Resolver()
        await form.register(in: r)
        try await MainActor.run { try form.tryResolve(from: r) }
    }

    @Test(arguments: MAForm.allCases)
    func everyFormOffTheMainActorThrowsSyringesMessage(form: MAForm) async {
        let r = Resolver(id: "ma-forms-\(form.rawValue)")
        await form.register(in: r)
        let outcome = await Task.detached { () -> String in
            do throws(ResolutionError) {
                try form.tryResolve(from: r)
                return "resolved"
            } catch {
                return error.description
            }
        }.value
        #expect(
            maIsOffMainMessage(outcome, type: form.typeName, container: "ma-forms-\(form.rawValue)"),
            "\(outcome)")
    }

    @Test(arguments: MAForm.allCases)
    func everyFormOffTheMainActorStopsWithSyringesMessage(form: MAForm) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [form] in
            let r = Resolver(id: "ma-stop")
            await form.register(in: r)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                form.resolve(from: r)
                done.signal()
            }
            thread.start()
            done.wait()
        }
        let stderr = fxStderr(result)
        #expect(
            stderr.contains("Syringe: \(form.typeName) is bound to the main actor and was resolved off it\n"),
            "\(stderr)")
        #expect(stderr.contains("  resolve it from @MainActor code, or hop there first: await MainActor.run { … }"))
    }

    @Test(.isolatedResolver) @MainActor func theFormsBuildWhatTheirFactoriesSay() throws {
        let r = Resolver.current
        maRegisterService(in: r, name: "main")
        maRegisterInMainActorCode(.receivingContainer, in: r)
        maRegisterInMainActorCode(.arguments, in: r)
        maRegisterTyped(.autoregistered, in: r)
        maRegisterTyped(.mainActorFunction, in: r)
        let model: MAViewModel = try r.tryResolve(name: "receivingContainer")
        #expect(model.service.name == "main")
        let titled: MATitled = try r.tryResolve(name: "arguments", arguments: "Wallet")
        #expect(titled.title == "Wallet")
        let autowired: MAViewModel = try r.tryResolve(name: "autoregistered")
        #expect(autowired.service.name == "main")
        let plain: MAPlainModel = try r.tryResolve(name: "mainActorFunction")
        #expect(plain.title == "Plain")
    }

    @Test(.isolatedResolver) @MainActor func aMainActorBoundSingletonIsBuiltOnceAndCheckedEveryTime() async throws {
        let r = Resolver(id: "ma-singleton")
        maRegisterService(in: r)
        maRegisterInMainActorCode(.singleton, in: r)
        let first: MAViewModel = try r.tryResolve(name: "singleton")
        let second: MAViewModel = try r.tryResolve(name: "singleton")
        #expect(first === second)
        // Already built, and still refused off the main actor: the outcome never depends on timing.
        let outcome = await Task.detached { () -> String in
            do throws(ResolutionError) {
                _ = try r.tryResolve(MAViewModel.self, name: "singleton")
                return "resolved"
            } catch {
                return error.description
            }
        }.value
        #expect(maIsOffMainMessage(outcome, type: "MAViewModel named \"singleton\"", container: "ma-singleton"))
    }

    @Test(.isolatedResolver) func registrationsFromNonisolatedCodeStayUsableEverywhere() async throws {
        let r = Resolver.current
        maRegisterService(in: r, name: "anywhere")
        let name = await Task.detached { (r.resolve() as MAService).name }.value
        #expect(name == "anywhere")
    }

    @available(*, deprecated, message: "exercises the deprecated spelling")
    @Test(.isolatedResolver) @MainActor func registerMainActorStillRegistersAMainActorBoundFactory() async throws {
        let r = Resolver(id: "ma-deprecated")
        maRegisterService(in: r)
        r.registerMainActor { MAViewModel(service: r.resolve()) }
        Resolver.registerMainActor(name: "static") { MAPlainModel() }
        _ = try r.tryResolve(MAViewModel.self)
        _ = try Resolver.tryResolve(MAPlainModel.self, name: "static")
        let outcome = await Task.detached { maResolveWithoutIsolation(r) }.value
        #expect(maIsOffMainMessage(outcome, type: "MAViewModel", container: "ma-deprecated"))
    }

    // MARK: Main-actor code, wherever the compiler cannot say so

    @Test(.isolatedResolver) @MainActor func wrappersInAResolvedMainActorTypeReachMainActorBoundRegistrations() {
        Resolver.register { MAService(name: "wrapped") }
        Resolver.register { MAViewModel(service: Resolver.resolve()) }
        Resolver.register { MAScreen() }
        let screen: MAScreen = Resolver.resolve()
        #expect(screen.headline == "Assets from wrapped")
    }

    /// `@Inject` in a main-actor type created directly in main-actor code: the wrapper's
    /// `isolation: #isolation` default is nil in a stored property's initializer, and the main
    /// actor does not run on the main thread here; the main queue tells.
    @Test func injectInAMainActorTypeCreatedOnTheMainActor() async {
        await #expect(processExitsWith: .success) {
            let r = Resolver(id: "ma-direct-inject")
            maRegisterService(in: r)
            await MainActor.run {
                r.register { MAViewModel(service: r.resolve()) }
                let screen = Resolver.withContainer(r) { MADirectScreen() }
                precondition(screen.model.title == "Assets")
                precondition(screen.optionalModel?.title == "Assets")
            }
        }
    }

    /// `@LazyInject` in a main-actor type, first read from main-actor code.
    @Test func lazyInjectReadOnTheMainActor() async {
        await #expect(processExitsWith: .success) {
            let r = Resolver(id: "ma-lazy-inject")
            maRegisterService(in: r)
            await MainActor.run {
                r.register { MAViewModel(service: r.resolve()) }
                let screen = Resolver.withContainer(r) { MALazyScreen() }
                precondition(screen.model.title == "Assets")
            }
        }
    }

    @Test(.isolatedResolver) @MainActor func aNonisolatedFunctionCalledFromMainActorCodeResolves() {
        let r = Resolver(id: "ma-nonisolated-call")
        maRegisterService(in: r)
        r.register { MAViewModel(service: r.resolve()) }
        #expect(maResolveWithoutIsolation(r) == "resolved")
    }

    @Test func aMainQueueCallbackResolves() async {
        let r = Resolver(id: "ma-main-queue")
        maRegisterService(in: r)
        await MainActor.run { _ = r.register { MAViewModel(service: r.resolve()) } }
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            DispatchQueue.main.async { continuation.resume(returning: maResolveWithoutIsolation(r)) }
        }
        #expect(outcome == "resolved")
    }

    @Test(.isolatedResolver) @MainActor func aNonisolatedFactoryMayNeedAMainActorBoundOne() throws {
        Resolver.register { MAService() }
        Resolver.register { MAViewModel(service: Resolver.resolve()) }
        maRegisterConsumer(in: Resolver.current)
        let consumer: MAConsumer = try Resolver.tryResolve()
        #expect(consumer.model.service.name == "live")
    }

    @Test func hoppingToTheMainActorResolves() async throws {
        let r = Resolver(id: "ma-hop")
        maRegisterService(in: r, name: "hopped")
        maRegisterTyped(.mainActorClosure, in: r)
        let name = try await MainActor.run {
            let model: MAViewModel = try r.tryResolve(name: "mainActorClosure")
            return model.service.name
        }
        #expect(name == "hopped")
    }

    @Test(.isolatedResolver) @MainActor func resolveAllFromMainActorCodeBuildsMainActorBoundOnes() {
        let r = Resolver(id: "ma-all")
        maRegisterService(in: r)
        maRegisterInMainActorCode(.implemented, in: r)
        maRegisterTyped(.mainActorClosure, in: r)
        r.registerSingleton(MAViewModel(service: MAService())).implements((any MAModel).self)
        let models: [any MAModel] = r.resolveAll()
        #expect(models.count == 2)
    }

    @Test func resolveAllOffTheMainActorStopsWithSyringesMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "ma-all-stop")
            maRegisterService(in: r)
            await maRegisterInMainActorCode(.implemented, in: r)
            _ = await Task.detached { r.resolveAll(MAModel.self).count }.value
        }
        #expect(fxStderr(result).contains("Syringe: MAModel named \"implemented\" is bound to the main actor"))
    }

    // MARK: Off the main actor

    @Test func resolvingFromABackgroundThreadThrowsSyringesMessage() {
        let r = Resolver(id: "ma-thread")
        maRegisterService(in: r)
        maRegisterTyped(.mainActorClosure, in: r)
        let outcome = MABox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do throws(ResolutionError) {
                _ = try r.tryResolve(MAViewModel.self, name: "mainActorClosure")
                outcome.value = "resolved"
            } catch {
                outcome.value = error.description
            }
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(
            maIsOffMainMessage(
                outcome.value ?? "", type: "MAViewModel named \"mainActorClosure\"", container: "ma-thread"))
    }

    @Test func resolvingThroughANonisolatedConsumerOffTheMainActorNamesThePath() async {
        let r = Resolver(id: "ma-path")
        maRegisterService(in: r)
        await MainActor.run { _ = r.register { MAViewModel(service: r.resolve()) } }
        maRegisterConsumer(in: r)
        let outcome = await Task.detached { () -> String in
            do {
                _ = try r.tryResolve(MAConsumer.self)
                return "resolved"
            } catch {
                return "\(error)"
            }
        }.value
        #expect(maIsOffMainMessage(outcome, type: "MAViewModel", container: "ma-path"))
        #expect(outcome.contains("\n  while resolving MAConsumer → MAViewModel\n"))
    }

    /// Where the object was created says nothing about where its lazy property is first read.
    @Test func aLazyDependencyFirstReadOffTheMainActorStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "ma-lazy-off")
            maRegisterService(in: r)
            r.register { MALazyConsumer() }
            await MainActor.run { _ = r.register { MAViewModel(service: r.resolve()) } }
            // Created inside a resolution that main-actor code made...
            let consumer = await MainActor.run { r.resolve(MALazyConsumer.self) }
            // ...and read for the first time on another thread.
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = consumer.model
                done.signal()
            }
            thread.start()
            done.wait()
        }
        #expect(fxStderr(result).contains("Syringe: MAViewModel is bound to the main actor and was resolved off it"))
    }

    // MARK: registerAllServices() on the main actor

    @Test func aMainActorRegisteringHookRunsOnTheFirstResolutionFromMainActorCode() async {
        await #expect(processExitsWith: .success) {
            Resolver.registeringType = MAHook.self
            let title = await MainActor.run { (Resolver.main.resolve() as MAHookModel).title }
            precondition(title == "hooked")
            // Factories of modules it installs are nonisolated, and resolve anywhere.
            let service = await Task.detached { Resolver.main.resolve(MAHookService.self) }.value
            precondition(service.name == "module")
            // Its own factories are main-actor code: bound to the main actor.
            let outcome = await Task.detached { () -> String in
                do throws(ResolutionError) {
                    _ = try Resolver.main.tryResolve(MAHookModel.self)
                    return "resolved"
                } catch {
                    return error.description
                }
            }.value
            precondition(maIsOffMainMessage(outcome, type: "MAHookModel", container: "main"), outcome)
        }
    }

    @Test func aMainActorRegisteringHookReachedOffTheMainActorStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Resolver.registeringType = MAHook.self
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = Resolver.main.optional(MAHookService.self)
                done.signal()
            }
            thread.start()
            done.wait()
        }
        #expect(
            fxStderr(result).contains(
                "Syringe: registerAllServices() is isolated to the main actor (MainActorResolverRegistering)"))
    }

    @Test func aNonisolatedRegisteringHookWinsOverTheMainActorOne() async {
        await #expect(processExitsWith: .success) {
            Resolver.registeringType = MABothHooks.self
            let service = await Task.detached { Resolver.main.resolve(MAHookService.self) }.value
            precondition(service.name == "both")
        }
    }
}

// MARK: - registerAllServices() fixtures

@MainActor final class MAHookModel {
    let title = "hooked"
}

final class MAHookService: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

struct MAHookModule: ResolverModule {
    func register(in resolver: Resolver) {
        resolver.register { MAHookService(name: "module") }
    }
}

/// An app's `registerAllServices()` written as main-actor code.
enum MAHook: MainActorResolverRegistering {
    @MainActor static func registerAllServices() {
        Resolver.register { MAHookModel() }
        Resolver.install(MAHookModule())
    }
}

/// A nonisolated `registerAllServices()` serving both protocols (written `nonisolated`: it would
/// take the main-actor requirement's isolation otherwise).
enum MABothHooks: ResolverRegistering, MainActorResolverRegistering {
    nonisolated static func registerAllServices() {
        Resolver.register { MAHookService(name: "both") }
    }
}

/// Makes `type`'s registering conformance the one that runs before the first resolution from
/// `main` (in an exit test's own process: the test binary's `Resolver` has one of its own).
func msgUseRegisteringHook(_ type: Any.Type) {
    Resolver.registeringType = type
}
