/// A registration: the factory, how long its instances live, and its cache.
///
/// Mutable state (the storage kind and the cached instances) is guarded by the registry
/// lock; the factory runs with no lock held.
final class Provider<T>: Binding<T>, ErasedProvider {
    enum Make {
        /// A factory that takes nothing.
        case simple(() throws -> T)
        /// A factory that receives the resolving container.
        case plain((Resolver) throws -> T)
        case arguments(ArgumentFactory<T>)
    }

    let make: Make
    /// The factories, kept apart from `make` for the build path (at most one is set).
    private let simpleFactory: (() throws -> T)?
    private let factory: ((Resolver) throws -> T)?
    var declaredDependencies: [Key]?
    unowned let registry: Registry
    /// Storage for the strongly cached instance: initialized exactly while `cachedSlot` is set.
    /// Allocated the first time an instance is kept, so transient registrations need none.
    private var slot: UnsafeMutablePointer<T>?

    /// The instance of a singleton, strong scope or `registerSingleton`. Lock held.
    var instance: T? {
        get { cachedSlot == nil ? nil : slot.unsafelyUnwrapped.pointee }
        set {
            if cachedSlot != nil {
                slot.unsafelyUnwrapped.deinitialize(count: 1)
                cachedSlot = nil
            }
            if let newValue {
                let storage = slot ?? UnsafeMutablePointer<T>.allocate(capacity: 1)
                slot = storage
                storage.initialize(to: newValue)
                cachedSlot = UnsafeRawPointer(storage)
            }
        }
    }
    /// The instance of a `.weak` lifetime or weak scope.
    weak var weakInstance: AnyObject?

    init(key: Key, make: Make, storage: Storage, site: SourceLocation, registry: Registry) {
        self.make = make
        switch make {
        case .simple(let factory):
            simpleFactory = factory
            self.factory = nil
        case .plain(let factory):
            simpleFactory = nil
            self.factory = factory
        case .arguments:
            simpleFactory = nil
            factory = nil
        }
        self.registry = registry
        super.init(key: key, site: site)
        self.storage = storage
        checksInstanceForSingleton = !(T.self is any Singleton.Type)
    }

    deinit {
        if cachedSlot != nil { slot.unsafelyUnwrapped.deinitialize(count: 1) }
        slot?.deallocate()
    }

    override var provider: any ErasedProvider { self }

    override func lookupLocked(in cache: CacheOwner) -> Lookup<T> {
        switch storage {
        case .singleton:
            if case .container(let container) = cache {
                return container.isolatedValueLocked(for: self).map(Lookup.cached) ?? .build(storage)
            }
            if let instance { return .cached(instance) }
        case .fixed:
            if let instance { return .cached(instance) }
        case .transient, .graph:
            break
        case .weak, .scoped:
            if case .container(let container) = cache {
                return container.isolatedValueLocked(for: self).map(Lookup.cached) ?? .build(storage)
            }
            if storage.holdsWeakly {
                if let object = weakInstance { return .cached(object as! T) }
            } else if let instance {
                return .cached(instance)
            }
        }
        return .build(storage)
    }

    override func produce(_ request: Request, storage: Storage) throws(ResolutionError) -> T {
        switch storage {
        case .transient:
            return try buildAndAdopt(request)
        case .graph:
            let id = ObjectIdentifier(self)
            if let value = request.state.graph[id] { return value as! T }
            let value = try build(request)
            request.state.graph[id] = value
            return value
        case .singleton, .weak, .scoped, .fixed:
            return try buildOnce(request, storage: storage)
        }
    }

    /// Runs the factory of a registration without runtime arguments (the transient fast path).
    @inline(__always)
    func makeWithoutArguments(
        in container: Resolver, key: Key, state: ThreadState, site: SourceLocation?
    ) throws(ResolutionError) -> T {
        do {
            if let simpleFactory { return try simpleFactory() }
            // Bound with `if let`: `unsafelyUnwrapped` would hand the closure back at the
            // generic abstraction level and cost an allocation per call to re-abstract it.
            if let factory { return try factory(container) }
            preconditionFailure("a registration without arguments has a factory")
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw ResolutionError(.factoryFailed(error), key: key, path: state.path, container: container, site: site)
        }
    }

    /// Runs the factory.
    func build(_ request: Request) throws(ResolutionError) -> T {
        do {
            if let simpleFactory { return try simpleFactory() }
            if let factory { return try factory(request.container) }
            guard case .arguments(let factory) = make else { preconditionFailure("a factory of either kind") }
            return try factory.make(request.container, request.arguments)
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw ResolutionError(
                .factoryFailed(error), key: request.key, path: request.state.path,
                container: request.container, site: request.site)
        }
    }

    /// Builds a transient instance. The first one is checked for ``Singleton`` conformance
    /// (a protocol registration may build a `Singleton` type): if it conforms, the
    /// registration becomes a singleton from then on.
    private func buildAndAdopt(_ request: Request) throws(ResolutionError) -> T {
        let value = try build(request)
        if _slowPath(request.checksSingleton) {
            let isSingleton = value is any Singleton
            registryLock.withWriteLock {
                checksInstanceForSingleton = false
                if isSingleton && storage == .transient {
                    storage = .singleton
                    store(value, in: request.cache)
                }
            }
        }
        return value
    }

    /// Builds the instance of a cached lifetime exactly once, however many threads ask.
    private func buildOnce(_ request: Request, storage: Storage) throws(ResolutionError) -> T {
        let cell = Cell(provider: self, cache: request.cache)
        let claim: Claim<T> = try Construction.shared.claim(cell, request: request) {
            if case .cached(let value) = lookupLocked(in: request.cache) { return value }
            return nil
        }
        if case .existing(let value) = claim { return value }
        let value: T
        do throws(ResolutionError) {
            value = try build(request)
            if storage.holdsWeakly && !isClassInstance(value) {
                throw ResolutionError(
                    .notAClass(lifetime: storage.lifetimeDescription), key: request.key, path: request.state.path,
                    container: request.container, site: request.site)
            }
        } catch {
            Construction.shared.abandon(cell)
            throw error
        }
        Construction.shared.finish(cell) {
            store(value, in: request.cache)
            if case .scoped(let scope, _) = storage {
                request.container.retainInOpenScopesLocked(value as AnyObject, scope: scope)
            }
        }
        return value
    }

    /// Keeps `value` in the cache. Called with the write lock held.
    private func store(_ value: T, in cache: CacheOwner) {
        switch cache {
        case .container(let container) where storage != .fixed:
            container.setIsolatedValueLocked(value, weakly: storage.holdsWeakly, for: self)
        default:
            if storage.holdsWeakly {
                weakInstance = value as AnyObject
            } else {
                instance = value
            }
        }
    }

    func dropCacheLocked(in cache: CacheOwner) -> Any? {
        switch (cache, storage) {
        case (_, .fixed), (_, .transient), (_, .graph):
            return nil
        case (.container(let container), _):
            return container.removeIsolatedValueLocked(for: self)
        case (.registration, _):
            defer {
                instance = nil
                weakInstance = nil
            }
            return instance
        }
    }

    func cachedInstanceLocked() -> Any? {
        if let instance { return instance }
        return weakInstance
    }
}

/// A key written by `.implements(P.self)`: serves `P` from a registration of `T`,
/// sharing its instances.
final class Alias<P, T>: Binding<P> {
    let target: Provider<T>

    init(key: Key, target: Provider<T>, site: SourceLocation) {
        self.target = target
        super.init(key: key, site: site, origin: target)
    }

    override var provider: any ErasedProvider { target }

    override func lookupLocked(in cache: CacheOwner) -> Lookup<P> {
        switch target.lookupLocked(in: cache) {
        case .cached(let value):
            if let value = value as? P { return .cached(value) }
            return .build(target.storage)
        case .build(let storage):
            return .build(storage)
        }
    }

    override func produce(_ request: Request, storage: Storage) throws(ResolutionError) -> P {
        let value = try target.produce(request, storage: storage)
        guard let converted = value as? P else {
            throw ResolutionError(
                .notConvertible(from: type(of: value as Any)), key: request.key, path: request.state.path,
                container: request.container, site: request.site)
        }
        return converted
    }
}

/// Whether a value is a class instance (so it can be held weakly).
func isClassInstance(_ value: Any) -> Bool {
    type(of: value as Any) is AnyClass
}
