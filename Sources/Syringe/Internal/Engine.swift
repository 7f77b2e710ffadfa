/// The resolution engine shared by every public resolve form.
extension Resolver {
    /// Deepest resolution path allowed before it is reported as a runaway recursion
    /// (argument registrations that resolve themselves are not caught as cycles).
    static let maximumDepth = 200

    /// Finds the binding for `key` along the parent chain and where its instances are
    /// cached. Called with the read lock held.
    @inline(__always)
    func findLocked(_ key: Key) -> (binding: AnyBinding, cache: CacheOwner)? {
        var container = self
        var isolating: Resolver?
        while true {
            if let binding = container.registry.bindings[key] {
                return (binding, isolating.map(CacheOwner.container) ?? .registration)
            }
            if container.isolatesCache && isolating == nil { isolating = container }
            guard let parent = container.parent else { return nil }
            container = parent
        }
    }

    /// Resolves `key`, or returns nil when nothing is registered for it.
    @inline(__always)
    func resolveValue<T>(
        _ key: Key, arguments: ArgumentValues = .none, site: SourceLocation? = nil
    ) throws(ResolutionError) -> T? {
        let state = ThreadState.current
        registryLock.lockRead(stripe: state.stripe)
        if _slowPath(Globals.needsBootstrap) {
            registryLock.unlockRead(stripe: state.stripe)
            bootstrapIfNeeded(state)
            registryLock.lockRead(stripe: state.stripe)
        }
        guard let found = findLocked(key) else {
            registryLock.unlockRead(stripe: state.stripe)
            if !state.frames.isEmpty { recordEdge(to: key, state: state) }
            return try resolveMissing(key, state: state, site: site)
        }
        let binding = unsafeDowncast(found.binding, to: Binding<T>.self)
        let lookup = binding.lookupLocked(in: found.cache)
        let isNewEdge = !state.frames.isEmpty && !isKnownEdgeLocked(to: key, state: state)
        registryLock.unlockRead(stripe: state.stripe)
        if _slowPath(isNewEdge) { recordEdge(to: key, state: state) }
        switch lookup {
        case .cached(let value):
            return value
        case .build(let storage):
            return try build(
                binding, key: key, cache: found.cache, storage: storage, state: state,
                arguments: arguments, site: site)
        }
    }

    /// Resolves one known binding of this container's chain (for `verify()` and `resolveAll()`).
    func resolveBinding<T>(
        _ binding: Binding<T>, key: Key, arguments: ArgumentValues, site: SourceLocation?
    ) throws(ResolutionError) -> T {
        let state = ThreadState.current
        let (lookup, cache) = registryLock.withReadLock(state.stripe) {
            let cache = cacheOwnerLocked(for: binding.provider.registry)
            return (binding.lookupLocked(in: cache), cache)
        }
        switch lookup {
        case .cached(let value):
            return value
        case .build(let storage):
            return try build(
                binding, key: key, cache: cache, storage: storage, state: state, arguments: arguments, site: site)
        }
    }

    /// Where instances of a registration in `registry` are cached when resolved from here.
    func cacheOwnerLocked(for registry: Registry) -> CacheOwner {
        var container = self
        while container.registry !== registry {
            if container.isolatesCache { return .container(container) }
            guard let parent = container.parent else { break }
            container = parent
        }
        return .registration
    }

    /// Runs a binding's factory (or waits for its cached instance) inside a new frame of
    /// the resolution path.
    func build<T>(
        _ binding: Binding<T>, key: Key, cache: CacheOwner, storage: Storage, state: ThreadState,
        arguments: ArgumentValues, site: SourceLocation?
    ) throws(ResolutionError) -> T {
        let provider: AnyBinding = binding.provider
        if key.arguments == nil, state.frames.contains(where: { $0.provider === provider }) {
            throw ResolutionError(.cycle(of: state.path + [key]), key: key, path: state.path, container: self, site: site)
        }
        if state.frames.count >= Self.maximumDepth {
            throw ResolutionError(.tooDeep, key: key, path: state.path, container: self, site: site)
        }
        let isTopLevel = state.frames.isEmpty
        let outerContainer = state.container
        state.container = self
        state.frames.append(Frame(key: key, provider: provider, site: site))
        defer {
            state.frames.removeLast()
            state.container = outerContainer
            if isTopLevel && !state.graph.isEmpty { state.graph.removeAll() }
        }
        let request = Request(
            key: key, container: self, cache: cache, state: state, arguments: arguments, site: site)
        return try binding.produce(request, storage: storage)
    }

    /// Whether the innermost frame's registration already recorded a dependency on `key`,
    /// and moves the frame on to its next expected dependency. Read lock held.
    ///
    /// Factories resolve their dependencies in the same order every time, so the expected
    /// position is checked first and the common case costs one comparison.
    @inline(__always)
    private func isKnownEdgeLocked(to key: Key, state: ThreadState) -> Bool {
        let index = state.frames.count - 1
        let observed = state.frames[index].provider.observedDependencies
        let position = state.frames[index].resolvedDependencies
        state.frames[index].resolvedDependencies = position + 1
        if position < observed.count, observed[position] == key { return true }
        return observed.contains(key)
    }

    /// Records that the innermost frame's registration depends on `key`.
    @inline(never)
    private func recordEdge(to key: Key, state: ThreadState) {
        guard let frame = state.frames.last else { return }
        let provider = frame.provider
        registryLock.withWriteLock {
            if !provider.observedDependencies.contains(key) { provider.observedDependencies.append(key) }
        }
    }

    /// What a miss resolves to: an Optional request's wrapped type, or a registration whose
    /// only argument is Optional. Nil when there is nothing.
    @inline(never)
    private func resolveMissing<T>(
        _ key: Key, state: ThreadState, site: SourceLocation?
    ) throws(ResolutionError) -> T? {
        if key.arguments == nil {
            let fallback = registryLock.withReadLock(state.stripe) { () -> (AnyBinding, CacheOwner)? in
                var container: Resolver? = self
                while let current = container {
                    if let binding = current.registry.optionalArgumentBindings[key] {
                        return (binding, cacheOwnerLocked(for: current.registry))
                    }
                    container = current.parent
                }
                return nil
            }
            if let (binding, _) = fallback {
                let typed = unsafeDowncast(binding, to: Binding<T>.self)
                return try resolveBinding(typed, key: binding.key, arguments: .none, site: site)
            }
        }
        if let optional = T.self as? any OptionalResolvable.Type {
            let wrapped = try optional.resolveWrapped(key, in: self, site: site)
            return .some(wrapped as! T)
        }
        return nil
    }

    /// Resolves `key` or throws the missing-registration error.
    @inline(__always)
    func resolveOrThrow<T>(
        _ key: Key, arguments: ArgumentValues = .none, site: SourceLocation? = nil
    ) throws(ResolutionError) -> T {
        if let value: T = try resolveValue(key, arguments: arguments, site: site) { return value }
        throw missingError(for: key, site: site, as: T.self)
    }

    /// Resolves `key` or stops the program with the resolution error.
    @inline(__always)
    func resolveOrTrap<T>(_ key: Key, arguments: ArgumentValues = .none, site: SourceLocation? = nil) -> T {
        do {
            return try resolveOrThrow(key, arguments: arguments, site: site)
        } catch {
            trap(error)
        }
    }

    /// Runs `ResolverRegistering.registerAllServices()` once, before the first resolution
    /// that reaches ``main``.
    @inline(never)
    func bootstrapIfNeeded(_ state: ThreadState) {
        guard !state.isBootstrapping, reachesMain else { return }
        Self.bootstrapLock.withLock {
            let pending = registryLock.withReadLock(state.stripe) { Globals.needsBootstrap }
            guard pending else { return }
            if let registering = (Resolver.self as Any.Type) as? any ResolverRegistering.Type {
                let outerContainer = state.container
                state.isBootstrapping = true
                state.container = nil
                defer {
                    state.isBootstrapping = false
                    state.container = outerContainer
                }
                Resolver.withContainer(.main) { registering.registerAllServices() }
            }
            registryLock.withWriteLock { Globals.needsBootstrap = false }
        }
    }

    private static let bootstrapLock = Lock()

    private var reachesMain: Bool {
        var container: Resolver? = self
        while let current = container {
            if current.registry === Resolver.main.registry { return true }
            container = current.parent
        }
        return false
    }
}

/// Stops the program with a resolution error's message.
func trap(_ error: ResolutionError) -> Never {
    fatalError(error.description)
}

/// Lets a request for `Optional<Wrapped>` resolve `Wrapped` when the Optional itself is
/// not registered.
protocol OptionalResolvable {
    static func resolveWrapped(_ key: Key, in resolver: Resolver, site: SourceLocation?) throws(ResolutionError) -> Any
}

extension Optional: OptionalResolvable {
    static func resolveWrapped(
        _ key: Key, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any {
        let value: Wrapped? = try resolver.resolveValue(key.with(type: Wrapped.self), site: site)
        return value as Any
    }
}
