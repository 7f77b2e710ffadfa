/// A key written by `.implements(P.self)`: serves `P` from a registration of `T`,
/// sharing its instances.
final class Alias<P, T>: Binding<P> {
    let target: Provider<T>

    init(key: Key, target: Provider<T>, site: SourceLocation) {
        self.target = target
        super.init(key: key, site: site, origin: target)
    }

    override var provider: any ErasedProvider { target }

    override func lookupLocked(in cache: CacheOwner, state: ThreadState) -> Lookup<P> {
        switch target.lookupLocked(in: cache, state: state) {
        case .cached(let value):
            if let value = value as? P { return .cached(value) }
            return target.storeLocked(in: cache).map { .build($0, completes: false) } ?? .needsIsolatedCopy
        case .build(let store, let completes):
            return .build(store, completes: completes)
        case .needsIsolatedCopy:
            return .needsIsolatedCopy
        }
    }

    override func makeIsolatedCopyLocked(in container: Resolver, leftovers: inout Leftovers) {
        target.makeIsolatedCopyLocked(in: container, leftovers: &leftovers)
    }

    override func produce(
        _ request: Request, in store: AnyInstanceStore, completes: Bool
    ) throws(ResolutionError) -> P {
        let value = try target.produce(request, in: store, completes: completes)
        guard let converted = value as? P else {
            throw ResolutionError(
                .notConvertible(from: type(of: value as Any)), key: request.key, path: request.state.path,
                container: request.factoryContainer, site: request.site)
        }
        return converted
    }
}
