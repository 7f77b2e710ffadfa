import Syringe
import Testing

// Types whose names appear in asserted messages are internal (not private) so that their
// printed names are plain.
protocol ResNetworkServiceProtocol: AnyObject {}
final class ResNetworkService: ResNetworkServiceProtocol {}
final class ResAssetService {
    let network: ResNetworkServiceProtocol
    init(network: ResNetworkServiceProtocol) { self.network = network }
}
final class ResAssetListViewModel {
    let service: ResAssetService
    init(service: ResAssetService) { self.service = service }
}
final class ResMissing {}
final class ResClient {
    let label: String
    init(label: String) { self.label = label }
}
enum ResStaging: Qualifier {}
enum ResOther: Qualifier {}
final class ResCycleA {
    let b: ResCycleB
    init(b: ResCycleB) { self.b = b }
}
final class ResCycleB {
    let a: ResCycleA
    init(a: ResCycleA) { self.a = a }
}
struct ResFactoryFailure: Error, CustomStringConvertible {
    var description: String { "disk is on fire" }
}
final class ResThrows {}
final class ResArgumentTaking {
    let value: String
    init(value: String) { self.value = value }
}

protocol ResVariantA { func foo() -> String }
protocol ResVariantB { func bar() -> String }
final class ResClassA: ResVariantA, ResVariantB {
    func foo() -> String { "foo" }
    func bar() -> String { "bar" }
}

protocol ResOpaqueProtocol {
    associatedtype Value
    func value() -> Value
}
final class ResOpaqueClass: ResOpaqueProtocol {
    func value() -> String { "hello" }
}

protocol ResPlugin: AnyObject { var name: String { get } }
final class ResPluginA: ResPlugin { let name = "a" }
final class ResPluginB: ResPlugin { let name = "b" }
final class ResPluginC: ResPlugin { let name = "c" }
final class ResPluginD: ResPlugin { let name = "d" }
enum ResPluginQualifier: Qualifier {}

private func describe(_ error: (any Error)?) -> String {
    error.map { String(describing: $0) } ?? ""
}

@Suite struct ResolutionTests {
    @Test func resolvesARegisteredType() {
        let r = Resolver()
        r.register { ResClient(label: "x") }
        let client: ResClient = r.resolve()
        #expect(client.label == "x")
    }

    @Test func resolvesADependencyChain() {
        let r = Resolver()
        r.register(ResNetworkServiceProtocol.self) { ResNetworkService() }
        r.register { ResAssetService(network: $0.resolve()) }
        r.register { ResAssetListViewModel(service: $0.resolve()) }
        let model: ResAssetListViewModel = r.resolve()
        #expect(model.service.network is ResNetworkService)
    }

    @Test func optionalReturnsNilOnlyWhenMissing() {
        let r = Resolver()
        #expect((r.optional() as ResMissing?) == nil)
        r.register { ResMissing() }
        #expect((r.optional() as ResMissing?) != nil)
    }

    @Test func optionalTakesTheSameSelectors() {
        let r = Resolver()
        r.register(qualifiedBy: ResStaging.self) { ResClient(label: "staging") }
        r.register(name: "n") { ResClient(label: "named") }
        #expect((r.optional() as ResClient?) == nil)
        #expect((r.optional(qualifiedBy: ResStaging.self) as ResClient?)?.label == "staging")
        #expect((r.optional(qualifiedBy: ResOther.self) as ResClient?) == nil)
        #expect((r.optional(name: "n") as ResClient?)?.label == "named")
        #expect((r.optional(name: "other") as ResClient?) == nil)
    }

    @Test func tryResolveReturnsTheValue() throws {
        let r = Resolver()
        r.register { ResClient(label: "ok") }
        r.register(qualifiedBy: ResStaging.self) { ResClient(label: "staging") }
        r.register(name: "n") { ResClient(label: "named") }
        let plain: ResClient = try r.tryResolve()
        let staging: ResClient = try r.tryResolve(qualifiedBy: ResStaging.self)
        let named: ResClient = try r.tryResolve(name: "n")
        #expect(plain.label == "ok")
        #expect(staging.label == "staging")
        #expect(named.label == "named")
    }

    @Test func tryResolveThrowsForAMissingRegistration() {
        let r = Resolver(id: "ResolutionTests.missing")
        let error = #expect(throws: ResolutionError.self) { let _: ResMissing = try r.tryResolve() }
        let text = describe(error)
        #expect(text.contains("ResMissing"))
        #expect(text.contains("ResolutionTests.missing"))
    }

    @Test func tryResolveNamesTheQualifier() {
        let r = Resolver()
        let error = #expect(throws: ResolutionError.self) {
            let _: ResClient = try r.tryResolve(qualifiedBy: ResStaging.self)
        }
        let text = describe(error)
        #expect(text.contains("ResClient"))
        #expect(text.contains("ResStaging"))
    }

    @Test func tryResolveNamesTheName() {
        let r = Resolver()
        let error = #expect(throws: ResolutionError.self) {
            let _: ResClient = try r.tryResolve(name: "croissant")
        }
        let text = describe(error)
        #expect(text.contains("ResClient"))
        #expect(text.contains("croissant"))
    }

    @Test func missingNestedDependencyShowsThePath() {
        let r = Resolver()
        r.register { try ResAssetService(network: $0.tryResolve()) }
        r.register { try ResAssetListViewModel(service: $0.tryResolve()) }
        let error = #expect(throws: ResolutionError.self) { let _: ResAssetListViewModel = try r.tryResolve() }
        let text = describe(error)
        #expect(text.contains("ResAssetListViewModel → ResAssetService → ResNetworkServiceProtocol"))
    }

    @Test func nearMatchHintForAnUnboundProtocol() {
        let r = Resolver()
        r.register { ResNetworkService() }
        let error = #expect(throws: ResolutionError.self) {
            let _: ResNetworkServiceProtocol = try r.tryResolve()
        }
        let text = describe(error)
        #expect(text.contains("ResNetworkServiceProtocol"))
        #expect(text.contains(".implements(ResNetworkServiceProtocol.self)"))
    }

    @Test func nearMatchHintForAnotherQualifier() {
        let r = Resolver()
        r.register(qualifiedBy: ResStaging.self) { ResClient(label: "staging") }
        let error = #expect(throws: ResolutionError.self) { let _: ResClient = try r.tryResolve() }
        #expect(describe(error).contains("ResStaging"))
    }

    @Test func nearMatchHintForArguments() {
        let r = Resolver()
        r.register(arguments: String.self) { ResArgumentTaking(value: $0) }
        let error = #expect(throws: ResolutionError.self) { let _: ResArgumentTaking = try r.tryResolve() }
        let text = describe(error)
        #expect(text.contains("ResArgumentTaking"))
        #expect(text.contains("String"))
    }

    @Test func factoryErrorsAreWrapped() {
        let r = Resolver()
        r.register(ResThrows.self) { throw ResFactoryFailure() }
        let error = #expect(throws: ResolutionError.self) { let _: ResThrows = try r.tryResolve() }
        #expect(describe(error).contains("ResThrows"))
    }

    @Test func nestedFactoryErrorsReachTheCaller() {
        let r = Resolver()
        r.register(ResNetworkServiceProtocol.self) { throw ResFactoryFailure() }
        r.register { try ResAssetService(network: $0.tryResolve()) }
        let error = #expect(throws: ResolutionError.self) { let _: ResAssetService = try r.tryResolve() }
        let text = describe(error)
        #expect(text.contains("ResAssetService"))
        #expect(text.contains("ResNetworkServiceProtocol"))
    }

    @Test func optionalDoesNotHideAFactoryError() throws {
        // optional() is nil only for a *missing* registration; tryResolve shows the failure.
        let r = Resolver()
        r.register(ResThrows.self) { throw ResFactoryFailure() }
        #expect(throws: ResolutionError.self) { let _: ResThrows? = try r.tryResolve() }
    }

    @Test func cycleIsReportedWithItsPath() {
        let r = Resolver()
        r.register { try ResCycleA(b: $0.tryResolve()) }
        r.register { try ResCycleB(a: $0.tryResolve()) }
        let error = #expect(throws: ResolutionError.self) { let _: ResCycleA = try r.tryResolve() }
        let text = describe(error)
        #expect(fxContainsIgnoringCase(text, "cycle"))
        #expect(text.contains("ResCycleA → ResCycleB → ResCycleA"))
    }

    @Test func cycleThroughASingletonIsReported() {
        let r = Resolver()
        r.register(lifetime: .singleton) { try ResCycleA(b: $0.tryResolve()) }
        r.register { try ResCycleB(a: $0.tryResolve()) }
        let error = #expect(throws: ResolutionError.self) { let _: ResCycleB = try r.tryResolve() }
        let text = describe(error)
        #expect(fxContainsIgnoringCase(text, "cycle"))
        #expect(text.contains("ResCycleB → ResCycleA → ResCycleB"))
        // The same cycle is reported again (the singleton's construction left no lock held).
        let again = #expect(throws: ResolutionError.self) { let _: ResCycleA = try r.tryResolve() }
        #expect(fxContainsIgnoringCase(describe(again), "cycle"))
        // And unrelated work on the container still succeeds.
        r.register { ResClient(label: "after") }
        #expect((r.resolve() as ResClient).label == "after")
    }

    @Test func optionalTypeResolvesTheWrappedType() {
        let r = Resolver()
        let missing: ResClient? = r.resolve()
        #expect(missing == nil)
        r.register { ResClient(label: "present") }
        let present: ResClient? = r.resolve()
        #expect(present?.label == "present")
    }

    @Test func optionalTypeRegisteredItselfWins() {
        let r = Resolver()
        r.register { ResClient(label: "plain") }
        r.register(ResClient?.self) { nil }
        let value: ResClient? = r.resolve()
        #expect(value == nil)
        let plain: ResClient = r.resolve()
        #expect(plain.label == "plain")
    }

    @Test func protocolCastFromAConcreteRegistration() {
        let r = Resolver()
        r.register(lifetime: .singleton) { ResClassA() }
        let a: ResVariantA = r.resolve(ResClassA.self)
        let b: ResVariantB = r.resolve(ResClassA.self)
        #expect(a.foo() == "foo")
        #expect(b.bar() == "bar")
        let sameInstance = (a as AnyObject) === (b as AnyObject)  // outside #expect: see FireboltExamplesTests
        #expect(sameInstance)
    }

    @Test func opaqueResultFromAConcreteRegistration() {
        let r = Resolver()
        r.register(lifetime: .singleton) { ResOpaqueClass() }
        let opaque: some ResOpaqueProtocol = r.resolve(ResOpaqueClass.self)
        let concrete: ResOpaqueClass = r.resolve()
        let sameInstance = (opaque as AnyObject) === concrete  // outside #expect: see FireboltExamplesTests
        #expect(sameInstance)
        #expect(concrete.value() == "hello")
    }

    @Test func staticResolveUsesTheCurrentContainer() throws {
        let r = Resolver()
        r.register { ResClient(label: "plain") }
        r.register(qualifiedBy: ResStaging.self) { ResClient(label: "staging") }
        r.register(name: "n") { ResClient(label: "named") }
        r.register(lifetime: .singleton) { ResClassA() }
        try Resolver.withContainer(r) {
            #expect((Resolver.resolve() as ResClient).label == "plain")
            #expect((Resolver.resolve(qualifiedBy: ResStaging.self) as ResClient).label == "staging")
            #expect((Resolver.resolve(name: "n") as ResClient).label == "named")
            #expect((Resolver.optional() as ResMissing?) == nil)
            let checked: ResClient = try Resolver.tryResolve()
            #expect(checked.label == "plain")
            let variant: ResVariantA = Resolver.resolve(ResClassA.self)
            #expect(variant.foo() == "foo")
        }
    }

    @Test func resolveAllCollectsEveryRegistrationServingTheProtocol() {
        let r = Resolver()
        r.register(ResPlugin.self, qualifiedBy: ResPluginQualifier.self) { ResPluginB() }
        r.register(ResPlugin.self, name: "c") { ResPluginC() }
        r.register { ResPluginD() }.implements(ResPlugin.self)
        let plugins: [ResPlugin] = r.resolveAll()
        #expect(plugins.count == 3)
        #expect(Set(plugins.map(\.name)) == ["b", "c", "d"])
    }

    /// QualifiersAndNames: every registration that `.implements` the type, also when several do
    /// without a name (`resolve()` gets the last), synchronous and async.
    @Test func resolveAllCollectsEveryImplementer() async {
        let r = Resolver()
        r.register { ResPluginD() }.implements(ResPlugin.self)
        r.register { ResPluginA() }.implements(ResPlugin.self)
        r.register(ResPlugin.self, name: "c") { ResPluginC() }
        #expect((r.resolveAll() as [ResPlugin]).map(\.name) == ["d", "a", "c"])
        #expect((await r.resolveAllAsync() as [ResPlugin]).map(\.name) == ["d", "a", "c"])
        #expect((r.resolve() as ResPlugin).name == "a")
        #expect(r.verify().warnings.contains { $0.contains("is implemented by more than one registration") })
        r.register(ResPlugin.self) { ResPluginB() }  // a registration of the type itself takes the key over
        #expect((r.resolveAll() as [ResPlugin]).map(\.name) == ["c", "b"])
    }

    /// A child's implementers come first, then every one of the parent's, whatever the child
    /// registers under the implementers' own types.
    @Test func resolveAllCollectsEveryImplementerAlongTheChain() {
        let parent = Resolver()
        parent.register { ResPluginA() }.implements(ResPlugin.self)
        parent.register { ResPluginB() }.implements(ResPlugin.self)
        let child = Resolver(parent: parent)
        child.register { ResPluginC() }.implements(ResPlugin.self)
        #expect((child.resolveAll() as [ResPlugin]).map(\.name) == ["c", "a", "b"])
        let other = Resolver(parent: parent)
        other.register { ResPluginA() }
        #expect((other.resolveAll() as [ResPlugin]).map(\.name) == ["a", "b"])
    }

    /// verify() says a key has several implementers only when it has: not when an `.implements`
    /// replaced a registration of the type itself.
    @Test func verifySaysSeveralImplementersOnlyWhenThereAre() {
        let r = Resolver()
        r.register(ResPlugin.self) { ResPluginC() }
        r.register { ResPluginA() }.implements(ResPlugin.self)
        #expect((r.resolveAll() as [ResPlugin]).map(\.name) == ["a"])
        let warnings = r.verify().warnings
        #expect(!warnings.contains { $0.contains("implemented by more than one registration") })
        #expect(warnings.contains { $0.contains("is registered more than once") })
    }

    /// QualifiersAndNames: removing the registration the key resolves to removes the key, and the
    /// earlier implementers with it, until they are registered again.
    @Test func removingTheImplementerTheKeyResolvesToRemovesTheKey() {
        let r = Resolver()
        r.register { ResPluginA() }.implements(ResPlugin.self)
        r.register { ResPluginB() }.implements(ResPlugin.self)
        r.clearRegistration(for: ResPluginB.self)
        #expect((r.resolveAll() as [ResPlugin]).isEmpty)
        #expect(r.optional(ResPlugin.self) == nil)
        r.register { ResPluginA() }.implements(ResPlugin.self)
        #expect((r.resolveAll() as [ResPlugin]).map(\.name) == ["a"])
    }

    @Test func resolveAllIncludesThePlainRegistration() {
        let r = Resolver()
        r.register(ResPlugin.self) { ResPluginA() }
        r.register(ResPlugin.self, qualifiedBy: ResPluginQualifier.self) { ResPluginB() }
        let plugins = r.resolveAll() as [ResPlugin]
        #expect(Set(plugins.map(\.name)) == ["a", "b"])
    }

    @Test func resolveAllOfNothingIsEmpty() {
        let r = Resolver()
        r.register { ResClient(label: "unrelated") }
        let plugins: [ResPlugin] = r.resolveAll()
        #expect(plugins.isEmpty)
    }

    @Test func resolveAllSharesSingletonIdentity() {
        let r = Resolver()
        r.register(lifetime: .singleton) { ResPluginD() }.implements(ResPlugin.self)
        let direct: ResPluginD = r.resolve()
        let plugins: [ResPlugin] = r.resolveAll()
        #expect(plugins.count == 1)
        #expect(plugins.first === direct)
    }
}
