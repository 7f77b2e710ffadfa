import Syringe
import Testing

protocol AutoNetworkServiceProtocol: AnyObject {}
final class AutoNetworkService: AutoNetworkServiceProtocol {}
final class AutoURLComponentsService {}
final class AutoAssetService {
    let network: AutoNetworkServiceProtocol
    let components: AutoURLComponentsService
    init(network: AutoNetworkServiceProtocol, components: AutoURLComponentsService) {
        self.network = network
        self.components = components
    }
}
final class AutoAssetListViewModel {
    let service: AutoAssetService
    init(service: AutoAssetService) { self.service = service }
}
private final class AutoThree {
    let a: AutoNetworkService
    let b: AutoURLComponentsService
    let c: Int
    init(a: AutoNetworkService, b: AutoURLComponentsService, c: Int) {
        self.a = a
        self.b = b
        self.c = c
    }
}
private final class AutoFour {
    let values: (Int, String, Double, Bool)
    init(a: Int, b: String, c: Double, d: Bool) { values = (a, b, c, d) }
}

@Suite struct AutoregisterTests {
    @Test func oneParameter() {
        let r = Resolver()
        r.register(AutoNetworkServiceProtocol.self) { AutoNetworkService() }
        r.register { AutoURLComponentsService() }
        r.autoregister(AutoAssetService.init)
        r.autoregister(AutoAssetListViewModel.init)
        let model: AutoAssetListViewModel = r.resolve()
        #expect(model.service.network is AutoNetworkService)
    }

    @Test func twoParametersResolvedFromTheContainer() {
        let r = Resolver()
        let components = AutoURLComponentsService()
        r.register(AutoNetworkServiceProtocol.self, lifetime: .singleton) { AutoNetworkService() }
        r.register { components }
        r.autoregister(AutoAssetService.init)
        let service: AutoAssetService = r.resolve()
        #expect(service.components === components)
        #expect(service.network === (r.resolve() as AutoNetworkServiceProtocol))
    }

    @Test func threeParameters() {
        let r = Resolver()
        r.register { AutoNetworkService() }
        r.register { AutoURLComponentsService() }
        r.register { 3 }
        r.autoregister(AutoThree.init)
        #expect((r.resolve() as AutoThree).c == 3)
    }

    @Test func fourParameters() {
        let r = Resolver()
        r.register { 1 }
        r.register { "two" }
        r.register { 3.0 }
        r.register { true }
        r.autoregister(AutoFour.init)
        let four: AutoFour = r.resolve()
        #expect(four.values.0 == 1)
        #expect(four.values.1 == "two")
        #expect(four.values.2 == 3.0)
        #expect(four.values.3 == true)
    }

    @Test func autoregisteredTypesAreTransientByDefault() {
        let r = Resolver()
        r.register(AutoNetworkServiceProtocol.self) { AutoNetworkService() }
        r.register { AutoURLComponentsService() }
        r.autoregister(AutoAssetService.init)
        #expect((r.resolve() as AutoAssetService) !== (r.resolve() as AutoAssetService))
    }

    @Test func autoregisterReturnsAConfigurableRegistration() {
        let r = Resolver()
        r.register(AutoNetworkServiceProtocol.self) { AutoNetworkService() }
        r.register { AutoURLComponentsService() }
        r.autoregister(AutoAssetService.init).lifetime(.singleton)
        #expect((r.resolve() as AutoAssetService) === (r.resolve() as AutoAssetService))
    }

    @Test func missingDependencyThrowsThroughTryResolveWithThePath() {
        let r = Resolver()
        r.register { AutoURLComponentsService() }
        r.autoregister(AutoAssetService.init)
        r.autoregister(AutoAssetListViewModel.init)
        let error = #expect(throws: ResolutionError.self) { let _: AutoAssetListViewModel = try r.tryResolve() }
        let text = error.map { String(describing: $0) } ?? ""
        #expect(text.contains("AutoNetworkServiceProtocol"))
        #expect(text.contains("AutoAssetListViewModel → AutoAssetService → AutoNetworkServiceProtocol"))
    }

    @Test func staticAutoregisterUsesTheCurrentContainer() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(AutoNetworkServiceProtocol.self) { AutoNetworkService() }
            Resolver.register { AutoURLComponentsService() }
            Resolver.autoregister(AutoAssetService.init)
        }
        #expect((r.optional() as AutoAssetService?) != nil)
    }

    @Test func autoregisteredTypeResolvesThroughAChild() {
        let parent = Resolver()
        parent.register(AutoNetworkServiceProtocol.self) { AutoNetworkService() }
        parent.register { AutoURLComponentsService() }
        parent.autoregister(AutoAssetService.init)
        let child = Resolver(parent: parent)
        #expect((child.optional() as AutoAssetService?) != nil)
    }
}
