import Syringe
import Testing

private protocol RegNetworkServiceProtocol: AnyObject { var endpoint: String { get } }
private final class RegNetworkService: RegNetworkServiceProtocol {
    let serial = FxSerial.next()
    var endpoint: String { "prod" }
}
private final class RegAssetService {
    let network: RegNetworkServiceProtocol
    init(network: RegNetworkServiceProtocol) { self.network = network }
}
private final class RegAPIClient {
    let url: String
    init(url: String) { self.url = url }
}
private enum RegStaging: Qualifier {}
private enum RegProduction: Qualifier {}
private enum RegFlow: Scope {}
private enum RegAdmin: Qualifier {}
private final class RegUser {
    let serial = FxSerial.next()
    var name = ""
}

private protocol RegBread { var kind: String { get } }
private struct RegCroissant: RegBread { var kind: String { "croissant" } }
private struct RegBaguette: RegBread { var kind: String { "baguette" } }

private protocol RegWorker: AnyObject {}
private final class RegSharedWorker: RegWorker, Sendable {
    static let shared = RegSharedWorker()
}

private protocol RegReading: AnyObject {}
private protocol RegWriting: AnyObject {}
private final class RegStore: RegReading, RegWriting {
    let serial = FxSerial.next()
}

private final class RegMarkedSingleton: Singleton {
    let serial = FxSerial.next()
}

private struct RegFactoryError: Error {}
private final class RegThrowing {
    init(fail: Bool) throws { if fail { throw RegFactoryError() } }
}

@Suite struct RegistrationTests {
    @Test func closureWithoutParameters() {
        let r = Resolver()
        r.register { RegNetworkService() }
        let service: RegNetworkService = r.resolve()
        #expect(service.endpoint == "prod")
    }

    @Test func closureReceivingTheResolver() {
        let r = Resolver()
        r.register { RegNetworkService() as RegNetworkServiceProtocol }
        r.register { RegAssetService(network: $0.resolve()) }
        let assets: RegAssetService = r.resolve()
        #expect(assets.network.endpoint == "prod")
    }

    @Test func bindToAProtocol() {
        let r = Resolver()
        r.register(RegNetworkServiceProtocol.self) { RegNetworkService() }
        let service: RegNetworkServiceProtocol = r.resolve()
        #expect(service is RegNetworkService)
        // The concrete type itself is not registered by binding to the protocol.
        #expect((r.optional() as RegNetworkService?) == nil)
    }

    @Test func qualifiedRegistrationsAreSeparateKeys() {
        let r = Resolver()
        r.register { RegAPIClient(url: "default") }
        r.register(qualifiedBy: RegStaging.self) { RegAPIClient(url: "staging") }
        r.register(qualifiedBy: RegProduction.self) { RegAPIClient(url: "production") }
        #expect((r.resolve() as RegAPIClient).url == "default")
        #expect((r.resolve(qualifiedBy: RegStaging.self) as RegAPIClient).url == "staging")
        #expect((r.resolve(qualifiedBy: RegProduction.self) as RegAPIClient).url == "production")
    }

    @Test func namedRegistration() {
        let r = Resolver()
        r.register(name: "🥐") { RegCroissant() as RegBread }
        r.register(name: "🥖") { RegBaguette() as RegBread }
        let croissant: RegBread = r.resolve(name: "🥐")
        let baguette: RegBread = r.resolve(name: "🥖")
        #expect(croissant.kind == "croissant")
        #expect(baguette.kind == "baguette")
        #expect((r.optional(name: "🍞") as RegBread?) == nil)
    }

    @Test func namesAreUniquePerType() {
        let r = Resolver()
        r.register(name: "value") { 42 }
        r.register(name: "value") { "forty-two" }
        let number: Int = r.resolve(name: "value")
        let text: String = r.resolve(name: "value")
        #expect(number == 42)
        #expect(text == "forty-two")
    }

    @Test func singletonLifetimeAtRegistration() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .singleton) { () -> RegNetworkService in
            built.increment()
            return RegNetworkService()
        }
        let a: RegNetworkService = r.resolve()
        let b: RegNetworkService = r.resolve()
        #expect(a === b)
        #expect(built.value == 1)
    }

    @Test func transientIsTheDefault() {
        let r = Resolver()
        r.register { RegNetworkService() }
        let a: RegNetworkService = r.resolve()
        let b: RegNetworkService = r.resolve()
        #expect(a !== b)
    }

    @Test func scopedRegistration() {
        let r = Resolver()
        r.register(scopedTo: RegFlow.self) { RegUser() }
        let a: RegUser = r.resolve(scopedTo: RegFlow.self)
        let b: RegUser = r.resolve(scopedTo: RegFlow.self)
        #expect(a === b)
    }

    @Test func typeScopeAndQualifierInOneCall() {
        let r = Resolver()
        r.register(RegUser.self, scopedTo: RegFlow.self, qualifiedBy: RegAdmin.self) { () -> RegUser in
            let user = RegUser()
            user.name = "admin"
            return user
        }
        r.register(scopedTo: RegFlow.self) { RegUser() }
        let admin: RegUser = r.resolve(scopedTo: RegFlow.self, qualifiedBy: RegAdmin.self)
        let admin2: RegUser = r.resolve(scopedTo: RegFlow.self, qualifiedBy: RegAdmin.self)
        let plain: RegUser = r.resolve(scopedTo: RegFlow.self)
        #expect(admin.name == "admin")
        #expect(admin === admin2)
        #expect(plain !== admin)
        #expect(plain.name == "")
    }

    @Test func combinedLabelsTypeQualifierLifetime() {
        let r = Resolver()
        r.register(RegAPIClient.self, qualifiedBy: RegStaging.self, lifetime: .singleton) {
            RegAPIClient(url: "staging")
        }
        let a: RegAPIClient = r.resolve(qualifiedBy: RegStaging.self)
        let b: RegAPIClient = r.resolve(qualifiedBy: RegStaging.self)
        #expect(a === b)
        #expect(a.url == "staging")
        #expect((r.optional() as RegAPIClient?) == nil)
    }

    @Test func combinedLabelsNameLifetime() {
        let r = Resolver()
        r.register(RegAPIClient.self, name: "cdn", lifetime: .singleton) { RegAPIClient(url: "cdn") }
        let a: RegAPIClient = r.resolve(name: "cdn")
        let b: RegAPIClient = r.resolve(name: "cdn")
        #expect(a === b)
        #expect(a.url == "cdn")
    }

    @Test func registerSingletonUsesTheGivenInstance() {
        let r = Resolver()
        r.registerSingleton(RegWorker.self, RegSharedWorker.shared)
        let a: RegWorker = r.resolve()
        let b: RegWorker = r.resolve()
        #expect(a === RegSharedWorker.shared)
        #expect(b === RegSharedWorker.shared)
    }

    @Test func implementsServesTheProtocolWithTheSameSingleton() {
        let r = Resolver()
        r.register(lifetime: .singleton) { RegStore() }.implements(RegReading.self)
        let store: RegStore = r.resolve()
        let reading: RegReading = r.resolve()
        #expect(reading === store)
    }

    @Test func implementsIsRepeatable() {
        let r = Resolver()
        r.register(lifetime: .singleton) { RegStore() }
            .implements(RegReading.self)
            .implements(RegWriting.self)
        let store: RegStore = r.resolve()
        let reading: RegReading = r.resolve()
        let writing: RegWriting = r.resolve()
        #expect(reading === store)
        #expect(writing === store)
    }

    @Test func implementsThenLifetimeStillSharesOneInstance() {
        let r = Resolver()
        r.register { RegStore() }.implements(RegReading.self).lifetime(.singleton)
        let reading: RegReading = r.resolve()
        let store: RegStore = r.resolve()
        #expect(reading === store)
    }

    @Test func implementsOnATransientGivesNewInstances() {
        let r = Resolver()
        r.register { RegStore() }.implements(RegReading.self)
        let a: RegReading = r.resolve()
        let b: RegReading = r.resolve()
        #expect(a is RegStore)
        #expect(a !== b)
    }

    @Test func implementsAfterExplicitProtocolRegistrationWins() {
        let r = Resolver()
        r.register(RegReading.self) { RegStore() }
        r.register(lifetime: .singleton) { RegStore() }.implements(RegReading.self)
        let store: RegStore = r.resolve()
        let reading: RegReading = r.resolve()
        #expect(reading === store)
    }

    @Test func explicitProtocolRegistrationAfterImplementsWins() {
        let r = Resolver()
        r.register(lifetime: .singleton) { RegStore() }.implements(RegReading.self)
        let replacement = RegStore()
        r.register(RegReading.self) { replacement }
        let store: RegStore = r.resolve()
        let reading: RegReading = r.resolve()
        #expect(reading === replacement)
        #expect(reading !== store)
    }

    @Test func lifetimeModifierMakesASingleton() {
        let r = Resolver()
        r.register { RegNetworkService() }.lifetime(.singleton)
        let a: RegNetworkService = r.resolve()
        let b: RegNetworkService = r.resolve()
        #expect(a === b)
    }

    @Test func chainedRegistrationsLandInTheSameContainer() {
        let r = Resolver()
        r.register { RegNetworkService() }
            .implements(RegNetworkServiceProtocol.self)
            .register { RegAssetService(network: $0.resolve()) }
        let assets: RegAssetService = r.resolve()
        #expect(assets.network is RegNetworkService)
    }

    @Test func reRegisteringReplaces() {
        let r = Resolver()
        r.register { RegAPIClient(url: "first") }
        r.register { RegAPIClient(url: "second") }
        #expect((r.resolve() as RegAPIClient).url == "second")
    }

    @Test func reRegisteringASingletonReplacesTheCachedInstance() {
        let r = Resolver()
        r.register(lifetime: .singleton) { RegAPIClient(url: "first") }
        let first: RegAPIClient = r.resolve()
        r.register(lifetime: .singleton) { RegAPIClient(url: "second") }
        let second: RegAPIClient = r.resolve()
        #expect(first.url == "first")
        #expect(second.url == "second")
    }

    @Test func overridesOffStillAllowsDistinctKeys() {
        let r = Resolver()
        r.allowsOverrides = false
        r.register { RegAPIClient(url: "default") }
        r.register(qualifiedBy: RegStaging.self) { RegAPIClient(url: "staging") }
        r.register(name: "cdn") { RegAPIClient(url: "cdn") }
        #expect(r.allowsOverrides == false)
        #expect((r.resolve(qualifiedBy: RegStaging.self) as RegAPIClient).url == "staging")
        #expect((r.resolve(name: "cdn") as RegAPIClient).url == "cdn")
    }

    @Test func allowsOverridesDefaultsToTrue() {
        #expect(Resolver().allowsOverrides)
    }

    @Test func defaultLifetimeAppliesToLaterRegistrations() {
        let r = Resolver()
        #expect(r.defaultLifetime == .transient)
        r.register { RegAPIClient(url: "before") }
        r.defaultLifetime = .singleton
        r.register { RegNetworkService() }
        let a: RegNetworkService = r.resolve()
        let b: RegNetworkService = r.resolve()
        let c: RegAPIClient = r.resolve()
        let d: RegAPIClient = r.resolve()
        #expect(a === b)
        #expect(c !== d)
    }

    @Test func singletonMarkerMakesEveryRegistrationOfTheTypeASingleton() {
        let r = Resolver()
        r.register { RegMarkedSingleton() }
        r.register(qualifiedBy: RegStaging.self, lifetime: .singleton) { RegMarkedSingleton() }
        let a: RegMarkedSingleton = r.resolve()
        let b: RegMarkedSingleton = r.resolve()
        let c: RegMarkedSingleton = r.resolve(qualifiedBy: RegStaging.self)
        let d: RegMarkedSingleton = r.resolve(qualifiedBy: RegStaging.self)
        #expect(a === b)
        #expect(c === d)
    }

    @Test func throwingFactoriesCanBeRegistered() throws {
        let r = Resolver()
        r.register { RegNetworkService() as RegNetworkServiceProtocol }
        r.register { try RegAssetService(network: $0.tryResolve()) }
        r.register(qualifiedBy: RegStaging.self) { try RegThrowing(fail: false) }
        let assets: RegAssetService = try r.tryResolve()
        #expect(assets.network.endpoint == "prod")
        let ok: RegThrowing = try r.tryResolve(qualifiedBy: RegStaging.self)
        _ = ok
        r.register { try RegThrowing(fail: true) }
        #expect(throws: ResolutionError.self) { let _: RegThrowing = try r.tryResolve() }
    }

    @Test func staticRegisterActsOnTheCurrentContainer() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { RegNetworkService() }
            Resolver.register(qualifiedBy: RegStaging.self) { RegAPIClient(url: "staging") }
            Resolver.register(name: "n") { RegAPIClient(url: "named") }
            Resolver.register(lifetime: .singleton) { RegStore() }
            Resolver.register(scopedTo: RegFlow.self) { RegUser() }
            Resolver.register(RegNetworkServiceProtocol.self) { RegNetworkService() }
            Resolver.registerSingleton(RegWorker.self, RegSharedWorker.shared)
        }
        #expect(r.optional() as RegNetworkService? != nil)
        #expect((r.resolve(qualifiedBy: RegStaging.self) as RegAPIClient).url == "staging")
        #expect((r.resolve(name: "n") as RegAPIClient).url == "named")
        #expect((r.resolve() as RegStore) === (r.resolve() as RegStore))
        #expect((r.resolve(scopedTo: RegFlow.self) as RegUser) === (r.resolve(scopedTo: RegFlow.self) as RegUser))
        #expect(r.optional() as RegNetworkServiceProtocol? != nil)
        #expect((r.resolve() as RegWorker) === RegSharedWorker.shared)
        #expect(Resolver.main.optional() as RegNetworkService? == nil)
    }
}
