import Syringe

/// Every registration of the app: `AssetListViewModel → AssetService → (NetworkServiceProtocol,
/// URLComponentsService)`. The app installs it from `registerAllServices()`; tests install it in
/// their own container.
public struct CrypticServices: ResolverModule {
    public init() {}

    public func register(in resolver: Resolver) {
        resolver.register { NetworkService() }.implements(NetworkServiceProtocol.self)
        resolver.register { URLComponentsService() }
        resolver.register { AssetService() }
        resolver.register { AssetListViewModel() }
    }
}
