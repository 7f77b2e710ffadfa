import Syringe
import Testing

// Forms migrating code needs: `autoregister` of a service type or in a scope, and
// registrations whose factory may yield no value.

private protocol MFNetworking: AnyObject {}
private final class MFNetwork: MFNetworking {
    init() {}
}
private final class MFURLs {
    init() {}
}
private final class MFService: MFNetworking {
    let urls: MFURLs
    init(urls: MFURLs) { self.urls = urls }
}
private enum MFFlow: Scope {}
private enum MFStaging: Qualifier {}
private final class MFUser {
    let urls: MFURLs
    init(urls: MFURLs) { self.urls = urls }
}
private final class MFNotNetworking {
    init() {}
}
private final class MFDevice: @unchecked Sendable {
    var identifier: String?
    init(identifier: String?) { self.identifier = identifier }
}
private final class MFNeedsIdentifier {
    let identifier: String
    init(identifier: String) { self.identifier = identifier }
}

@Suite struct MigrationFormsTests {
    // MARK: autoregister

    @Test func autoregisterForAServiceTypeRegistersOnlyTheService() {
        let r = Resolver()
        r.register { MFURLs() }
        r.autoregister(MFNetworking.self, initializer: MFService.init, lifetime: .singleton)
        let network: MFNetworking = r.resolve()
        #expect(network is MFService)
        #expect((r.resolve() as MFNetworking) === network)
        #expect(!r.isRegistered(MFService.self))
        #expect(r.verify().isValid)
    }

    @Test func autoregisterWithQualifierAndName() {
        let r = Resolver()
        r.autoregister(MFNetworking.self, initializer: MFNetwork.init, qualifiedBy: MFStaging.self, name: "eu")
        #expect(r.optional(MFNetworking.self, qualifiedBy: MFStaging.self, name: "eu") != nil)
        #expect(r.optional(MFNetworking.self) == nil)
    }

    @Test func autoregisterInAScope() {
        let r = Resolver()
        r.register { MFURLs() }
        r.autoregister(MFUser.init, scopedTo: MFFlow.self)
        let user: MFUser = r.resolve(scopedTo: MFFlow.self)
        #expect((r.resolve(scopedTo: MFFlow.self) as MFUser) === user)
        r.autoregister(MFNetworking.self, initializer: MFNetwork.init, scopedTo: MFFlow.self)
        let network: MFNetworking = r.resolve(scopedTo: MFFlow.self)
        #expect((r.resolve(scopedTo: MFFlow.self) as MFNetworking) === network)
    }

    @Test func autoregisterInAScopeOnTheCurrentContainer() {
        let r = Resolver()
        r.register { MFURLs() }
        Resolver.withContainer(r) { Resolver.autoregister(MFUser.init, scopedTo: MFFlow.self) }
        let user: MFUser = r.resolve(scopedTo: MFFlow.self)
        #expect((r.resolve(scopedTo: MFFlow.self) as MFUser) === user)
    }

    @Test func anInstanceThatIsNotTheServiceIsReported() {
        let r = Resolver()
        r.autoregister(MFNetworking.self, initializer: MFNotNetworking.init)
        let error = #expect(throws: ResolutionError.self) { try r.tryResolve(MFNetworking.self) }
        guard case .notConvertible = error?.reason else {
            Issue.record("expected notConvertible, got \(String(describing: error?.reason))")
            return
        }
    }

    // MARK: Factories that may yield no value

    @Test func aFactoryYieldingNilGivesNilToOptional() {
        let r = Resolver()
        let device = MFDevice(identifier: nil)
        r.register(String.self, name: "idfv") { device.identifier }
        #expect(r.optional(String.self, name: "idfv") == nil)
        device.identifier = "ABC"
        #expect(r.optional(String.self, name: "idfv") == "ABC")
        #expect(r.resolve(String.self, name: "idfv") == "ABC")
    }

    @Test func optionalInjectGetsNil() {
        final class Holder { @OptionalInject(name: "idfv") var idfv: String? }
        let r = Resolver()
        r.register(String.self, name: "idfv") { () -> String? in nil }
        #expect(Resolver.withContainer(r) { Holder() }.idfv == nil)
    }

    @Test func resolveSaysTheFactoryProducedNil() {
        let r = Resolver(id: "mf-produced-nil")
        r.register(String.self, name: "idfv") { () -> String? in nil }
        let line = #line + 1
        let error = #expect(throws: ResolutionError.self) { try r.tryResolve(String.self, name: "idfv") }
        #expect(
            error?.description == """
                Syringe: the factory for String named "idfv" produced nil
                  in container mf-produced-nil
                  requested at SyringeTests/MigrationFormsTests.swift:\(line)
                  it is registered with a factory that may yield no value; ask for it with optional() or \
                @OptionalInject, or let the factory always return one
                """)
    }

    @Test func aDependencyYieldingNilIsStillAFailureOfItsDependent() {
        let r = Resolver()
        r.register(String.self) { () -> String? in nil }
        r.register { try MFNeedsIdentifier(identifier: $0.tryResolve()) }
        #expect(throws: ResolutionError.self) { try r.tryResolve(MFNeedsIdentifier.self) }
    }

    @Test func verifyDoesNotCountAFactoryYieldingNilAsAFailure() {
        let r = Resolver()
        r.register(String.self, name: "idfv") { () -> String? in nil }
        let report = r.verify()
        #expect(report.isValid, "\(report)")
    }
}

/// The twin of ArgumentsAndAutowiring.md, "Autowiring initializers": the service-type form.
@Suite struct AutoregisterServiceDocumentationTests {
    @Test func serviceTypeForms() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { MFURLs() }
            Resolver.autoregister(MFNetworking.self, initializer: MFNetwork.init)
            Resolver.autoregister(MFUser.self, initializer: MFUser.init, scopedTo: MFFlow.self)
            #expect(Resolver.optional(MFNetworking.self) != nil)
            #expect(Resolver.optional(MFUser.self, scopedTo: MFFlow.self) != nil)
        }
    }

    // MARK: Swinject forms without a type of their own (Migrating, "From Swinject")

    @Test func anArgumentAndAResolvedDependencyInOneRegistration() {
        let r = Resolver()
        r.register { MFURLs() }
        r.register(arguments: String.self) { name in (name, Resolver.resolve() as MFURLs) }
        let (name, urls): (String, MFURLs) = r.resolve(arguments: "eu")
        #expect(name == "eu")
        _ = urls
    }

    @Test func aRegisteredClosureResolvesAnewOnEachCall() {
        let r = Resolver()
        r.register { MFNetwork() }
        r.register { (resolver: Resolver) -> () -> MFNetwork in { resolver.resolve() } }
        let provide: () -> MFNetwork = r.resolve()
        #expect(provide() !== provide())
    }

    @Test func aChildsDropLeavesItsParentsInstances() {
        let parent = Resolver()
        parent.register(lifetime: .singleton) { MFNetwork() }
        let child = Resolver(parent: parent)
        let before: MFNetwork = child.resolve()
        child.dropAllCached()
        #expect((child.resolve() as MFNetwork) === before)
        child.dropCached([MFNetwork.self])
        #expect((child.resolve() as MFNetwork) === before)
        parent.dropAllCached()
        #expect((child.resolve() as MFNetwork) !== before)
    }

    @Test func aChildsDropOfANamedCacheLeavesItsParentsInstances() {
        let parent = Resolver()
        parent.register(lifetime: .cached(in: MFCache.self)) { MFNetwork() }
        let child = Resolver(parent: parent)
        let before: MFNetwork = child.resolve()
        child.dropCached(scopedTo: MFCache.self)
        #expect((child.resolve() as MFNetwork) === before)
        parent.dropCached(scopedTo: MFCache.self)
        #expect((child.resolve() as MFNetwork) !== before)
    }

    // MARK: Factory forms (Migrating, "From Factory")

    @Test func droppingOneTypesCachedInstance() {
        let r = Resolver()
        r.register(lifetime: .singleton) { MFNetwork() }
        let before: MFNetwork = r.resolve()
        r.dropCached([MFNetwork.self])
        #expect((r.resolve() as MFNetwork) !== before)
    }

    @Test func aContainersDefaultLifetimeIsANamedCache() {
        let r = Resolver()
        r.defaultLifetime = .cached(in: MFFlow.self)
        r.register { MFNetwork() }
        let before: MFNetwork = r.resolve()
        #expect((r.resolve() as MFNetwork) === before)
        r.dropCached(scopedTo: MFFlow.self)
        #expect((r.resolve() as MFNetwork) !== before)
    }

    @Test func anOptionalFactorysNilIsNotKeptBySharedLifetimes() {
        let r = Resolver()
        let device = MFDevice(identifier: nil)
        r.register(name: "session", lifetime: .singleton) { () -> MFNeedsIdentifier? in
            device.identifier.map { MFNeedsIdentifier(identifier: $0) }
        }
        #expect(r.optional(MFNeedsIdentifier.self, name: "session") == nil)
        device.identifier = "signed-in"
        #expect(r.optional(MFNeedsIdentifier.self, name: "session")?.identifier == "signed-in")
    }
}

enum MFCache: Scope {}
