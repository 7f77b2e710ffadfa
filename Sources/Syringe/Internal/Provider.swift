/// A registration: the factory, and the store that keeps its instances for its lifetime.
///
/// The store is guarded by the registry lock; the factory runs with no lock held.
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
    /// Unique for the life of the process (per-resolution caches are keyed by it).
    let id: RegistrationID
    var declaredDependencies: [Key]?
    unowned let registry: Registry
    /// How the registration keeps its instances. Lock held.
    @exclusivity(unchecked) private(set) var store: InstanceStore<T>
    /// Counts lifetime changes, so that test containers drop copies made for an older lifetime.
    private(set) var storeGeneration = 0
    /// The `initCompleted` steps, chained. Lock held.
    @exclusivity(unchecked) private var completion: ((Resolver, T) throws -> Void)?

    init(
        key: Key, make: Make, id: RegistrationID, store: InstanceStore<T>, site: SourceLocation, registry: Registry,
        isMainActorBound: Bool = false
    ) {
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
        self.id = id
        self.store = store
        self.registry = registry
        super.init(key: key, site: site, isMainActorBound: isMainActorBound)
        storeChangedLocked()
    }

    /// Brings the fields the non-generic resolution path reads in line with the store.
    /// Lock held (or not yet shared).
    ///
    /// A main-actor-bound registration takes neither fast path, so that every resolution of it
    /// is checked (``Resolver/requireMainActor(for:key:site:state:)``) and no other pays for it.
    private func storeChangedLocked() {
        cachedSlot = isMainActorBound ? nil : store.strongSlot
        isPlainTransient = !isMainActorBound && store.isTransient && key.arguments == nil && completion == nil
    }

    override var provider: any ErasedProvider { self }

    // MARK: Lookup

    override func lookupLocked(in cache: CacheOwner, state: ThreadState) -> Lookup<T> {
        let current = storeLocked(in: cache)
        guard let current else { return .needsIsolatedCopy }
        if let value = current.cachedLocked(state) { return .cached(value) }
        return .build(current, completes: completion != nil)
    }

    /// The store serving `cache`: the registration's, or a test container's own copy of it
    /// (nil while that copy is still to be made). Lock held.
    func storeLocked(in cache: CacheOwner) -> InstanceStore<T>? {
        guard case .container(let container) = cache, store.isIsolatable else { return store }
        guard let copy = container.isolatedCopies[ObjectIdentifier(self)] as? IsolatedCopy<T>,
            copy.generation == storeGeneration
        else { return nil }
        return copy.store
    }

    override func makeIsolatedCopyLocked(in container: Resolver, leftovers: inout Leftovers) {
        guard store.isIsolatable, let empty = store.makeIsolatedCopy() else { return }
        let id = ObjectIdentifier(self)
        if let existing = container.isolatedCopies[id] as? IsolatedCopy<T>, existing.generation == storeGeneration {
            return
        }
        leftovers.append(
            container.isolatedCopies.updateValue(
                IsolatedCopy(provider: self, store: empty, generation: storeGeneration), forKey: id))
    }

    // MARK: Building

    override func produce(
        _ request: Request, in store: AnyInstanceStore, completes: Bool
    ) throws(ResolutionError) -> T {
        let store = unsafeDowncast(store, to: InstanceStore<T>.self)
        let completion = completes ? registryLock.withReadLock(request.state.stripe) { self.completion } : nil
        guard store.buildsOnce else {
            let value = try build(request)
            var leftovers = Leftovers()
            _ = store.keep(value, for: request, leftovers: &leftovers)
            if let completion { enqueueCompletion(completion, for: value, request: request) }
            return value
        }
        return try buildOnce(request, in: store, completion: completion)
    }

    /// Builds the instance of a lifetime that shares one exactly once, however many threads ask.
    private func buildOnce(
        _ request: Request, in store: InstanceStore<T>, completion: ((Resolver, T) throws -> Void)?
    ) throws(ResolutionError) -> T {
        let claim: Claim<T> = try Construction.shared.claim(Cell(store), request: request) {
            store.cachedLocked(request.state)
        }
        if case .existing(let value) = claim { return value }
        let value: T
        do throws(ResolutionError) {
            value = try build(request)
        } catch {
            Construction.shared.abandon(Cell(store))
            throw error
        }
        if let completion {
            // Published once its step has run; until then only this thread sees it.
            let state = request.state
            let id = ObjectIdentifier(store)
            state.provisional[id] = value
            let cache = request.cache
            let resolving = request.resolving
            enqueueCompletion(completion, for: value, request: request) { succeeded in
                state.provisional[id] = nil
                guard succeeded else {
                    Construction.shared.abandon(Cell(store))
                    return
                }
                let settled = Request(
                    key: request.key, resolving: resolving, factoryContainer: request.factoryContainer, cache: cache,
                    state: state, arguments: .none, site: nil)
                withExtendedLifetime(resolving) { self.publish(value, in: store, for: settled) }
            }
            return value
        }
        publish(value, in: store, for: request)
        return value
    }

    /// Keeps a built instance in its store and wakes the threads waiting for it.
    private func publish(_ value: T, in store: InstanceStore<T>, for request: Request) {
        Construction.shared.finish(Cell(store)) { leftovers in
            let replacement = store.keep(value, for: request, leftovers: &leftovers)
            if let replacement { replaceLocked(store, with: replacement, in: request.cache, leftovers: &leftovers) }
            storeChangedLocked()
        }
    }

    /// Adds an `initCompleted` step after those already set. Write lock held.
    func addCompletionLocked(_ step: @escaping (Resolver, T) throws -> Void) {
        if let previous = completion {
            completion = { resolver, value in
                try previous(resolver, value)
                try step(resolver, value)
            }
        } else {
            completion = step
        }
        storeChangedLocked()
    }

    /// Puts `replacement` where `old` serves `cache`, if `old` still does. Write lock held.
    private func replaceLocked(
        _ old: InstanceStore<T>, with replacement: InstanceStore<T>, in cache: CacheOwner, leftovers: inout Leftovers
    ) {
        switch cache {
        case .container(let container):
            if let copy = container.isolatedCopies[ObjectIdentifier(self)] as? IsolatedCopy<T>, copy.store === old {
                leftovers.append(copy.store)
                copy.store = replacement
            } else if store === old {
                leftovers.append(store)
                store = replacement
            }
        case .registration:
            guard store === old else { return }
            leftovers.append(store)
            store = replacement
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
            // One the factory threw itself (it produced nil, say) was asked for where this was.
            throw error.locatedIfUnknown(at: site)
        } catch {
            throw ResolutionError(.factoryFailed(error), key: key, path: state.path, container: container, site: site)
        }
    }

    /// Runs the factory.
    func build(_ request: Request) throws(ResolutionError) -> T {
        do {
            if let simpleFactory { return try simpleFactory() }
            if let factory { return try factory(request.factoryContainer) }
            guard case .arguments(let factory) = make else { preconditionFailure("a factory of either kind") }
            return try factory.make(request.factoryContainer, request.arguments)
        } catch let error as ResolutionError {
            throw error.locatedIfUnknown(at: request.site)
        } catch {
            throw ResolutionError(
                .factoryFailed(error), key: request.key, path: request.state.path,
                container: request.factoryContainer, site: request.site)
        }
    }

    // MARK: Changing the lifetime, dropping and describing

    /// Replaces the store with one of another lifetime; what the old one kept is released
    /// after the lock, and test containers' copies of it are dropped on their next use.
    /// Write lock held.
    func changeStoreLocked(to newStore: InstanceStore<T>, leftovers: inout Leftovers) {
        leftovers.append(store)
        store = newStore
        storeGeneration += 1
        storeChangedLocked()
    }

    func dropCacheLocked(in cache: CacheOwner, leftovers: inout Leftovers) {
        switch cache {
        case .container(let container):
            guard let copy = container.isolatedCopies[ObjectIdentifier(self)] as? IsolatedCopy<T> else { return }
            copy.store.drop(into: &leftovers)
        case .registration:
            store.drop(into: &leftovers)
            storeChangedLocked()
        }
    }

    func cachedInstanceLocked(in cache: CacheOwner) -> Any? {
        storeLocked(in: cache)?.keptInstance
    }

    var lifetimeDescriptionLocked: String { store.lifetimeDescription }
    var acceptsNoArgumentsLocked: Bool {
        if case .arguments(let factory) = make { return factory.acceptsNoArguments }
        return false
    }
    var scopeLocked: ObjectIdentifier? { store.scope }
    var isWeaklyScopedLocked: Bool { store.isWeaklyScoped }
}
