/// The resolution engine shared by every public resolve form.
extension Resolver {
    /// Deepest resolution path allowed before it is reported as a runaway recursion
    /// (argument registrations that resolve themselves are not caught as cycles).
    static let maximumDepth = 200

    /// Finds the binding for `key` along the parent chain and where its instances are
    /// cached. Called with the read lock held; the binding is valid while it is held.
    @inline(__always)
    func findLocked(_ key: Key) -> (binding: AnyBinding, cache: CacheOwner, owner: Unmanaged<Resolver>)? {
        unowned(unsafe) var container = self
        var isolating: Resolver?
        while true {
            if let binding = container.registry.table.pointee.find(key) {
                return (
                    binding.takeUnretainedValue(), isolating.map(CacheOwner.container) ?? .registration,
                    Unmanaged.passUnretained(container)
                )
            }
            if container.isolatesCache && isolating == nil { isolating = container }
            guard let parent = container.parent else { return nil }
            container = parent
        }
    }

    /// Where the strongly cached instance for `key` lives, when the lookup lands on one that
    /// needs no bookkeeping (no isolating container in between, no new dependency edge).
    /// Read lock held. This is the whole of a cached singleton's resolution.
    @inline(__always)
    func cachedSlotLocked(_ key: Key, state: ThreadState) -> UnsafeRawPointer? {
        unowned(unsafe) var container = self
        while true {
            if container.registry.bootstrapPending { return nil }
            if let binding = container.registry.table.pointee.find(key) {
                guard let slot = binding._withUnsafeGuaranteedRef({ $0.cachedSlot }) else { return nil }
                if state.depth != 0 && !isKnownEdgeLocked(to: key, state: state) { return nil }
                return slot
            }
            if container.isolatesCache { return nil }
            guard let parent = container.parent else { return nil }
            container = parent
        }
    }

    /// Resolves `key`, throwing the missing-registration error when nothing serves it.
    @inline(__always)
    func resolveOrThrow<T>(
        _ key: Key, arguments: ArgumentValues = .none, site: SourceLocation? = nil, isolation: (any Actor)? = nil
    ) throws(ResolutionError) -> T {
        do {
            return try ThreadState.withCurrent { state in
                try resolveOrThrow(key, arguments: arguments, site: site, isolation: isolation, state: state)
            }
        } catch {
            // Only resolution errors are thrown in there.
            throw error as! ResolutionError
        }
    }

    @inline(__always)
    private func resolveOrThrow<T>(
        _ key: Key, arguments: ArgumentValues, site: SourceLocation?, isolation: (any Actor)?, state: ThreadState
    ) throws(ResolutionError) -> T {
        registryLock.lockRead(stripe: state.stripe)
        if let slot = cachedSlotLocked(key, state: state) {
            let value = slot.assumingMemoryBound(to: T.self).pointee
            registryLock.unlockRead(stripe: state.stripe)
            return value
        }
        registryLock.unlockRead(stripe: state.stripe)
        let mark = MainActorMark(isolation)
        defer { mark.end() }
        return try resolveSlowly(key, arguments: arguments, site: site, state: state)
    }

    /// Resolves `key`, or returns nil when nothing is registered for it (other failures throw).
    func resolveValue<T>(
        _ key: Key, arguments: ArgumentValues = .none, site: SourceLocation? = nil, isolation: (any Actor)? = nil
    ) throws(ResolutionError) -> T? {
        guard canResolve(key, as: T.self) else { return nil }
        return try resolveOrThrow(key, arguments: arguments, site: site, isolation: isolation) as T
    }

    /// Whether something serves `key`: a registration, a registration whose only argument is
    /// Optional, or (for an Optional type) the wrapped type's absence.
    func canResolve<T>(_ key: Key, as type: T.Type) -> Bool {
        if T.self is any OptionalResolvable.Type { return true }
        bootstrapIfPending()
        return registryLock.withReadLock(ThreadState.current.stripe) {
            findLocked(key) != nil || (key.arguments == nil && optionalArgumentBindingLocked(key) != nil)
        }
    }

    /// The general resolution: everything but a cached instance found with no bookkeeping.
    /// Kept out of line so that the fast paths pay nothing for what it needs.
    @inline(never)
    func resolveSlowly<T>(
        _ key: Key, arguments: ArgumentValues, site: SourceLocation?, state: ThreadState
    ) throws(ResolutionError) -> T {
        registryLock.lockRead(stripe: state.stripe)
        return try resolveSlowlyLocked(key, arguments: arguments, site: site, state: state)
    }

    /// ``resolveSlowly(_:arguments:site:state:)`` entered with the read lock held; releases it.
    func resolveSlowlyLocked<T>(
        _ key: Key, arguments: ArgumentValues, site: SourceLocation?, state: ThreadState
    ) throws(ResolutionError) -> T {
        if _slowPath(bootstrapPendingLocked()) {
            registryLock.unlockRead(stripe: state.stripe)
            bootstrapIfNeeded(state)
            registryLock.lockRead(stripe: state.stripe)
        }
        guard let found = findLocked(key) else {
            registryLock.unlockRead(stripe: state.stripe)
            return try resolveMissing(key, arguments: arguments, state: state, site: site)
        }
        let binding = unsafeDowncast(found.binding, to: Binding<T>.self)
        unowned(unsafe) let origin = binding.origin
        let storage = origin.storage
        if storage.isCached {
            // Unlocks.
            return try resolveCachedLocked(
                binding, key: key, cache: found.cache, owner: found.owner, storage: storage, state: state,
                arguments: arguments, site: site)
        }
        let isNewEdge = state.depth != 0 && !isKnownEdgeLocked(to: key, state: state)
        let checksSingleton = origin.checksInstanceForSingleton
        let isPlainTransient =
            storage == .transient && found.binding === origin && key.arguments == nil && !checksSingleton
        registryLock.unlockRead(stripe: state.stripe)
        if _slowPath(isNewEdge) { recordEdge(to: key, state: state) }
        if isPlainTransient {
            return try buildTransient(
                unsafeDowncast(found.binding, to: Provider<T>.self), key: key, state: state, site: site)
        }
        return try build(
            binding, key: key, cache: found.cache, storage: storage, state: state,
            arguments: arguments, site: site, checksSingleton: checksSingleton)
    }

    /// The rest of ``resolveSlowly(_:arguments:site:state:)`` for lifetimes with a cache
    /// (weak, scoped, isolated copies, `.implements` keys). Called with the read lock held;
    /// releases it.
    @inline(never)
    private func resolveCachedLocked<T>(
        _ binding: Binding<T>, key: Key, cache: CacheOwner, owner: Unmanaged<Resolver>, storage: Storage,
        state: ThreadState, arguments: ArgumentValues, site: SourceLocation?
    ) throws(ResolutionError) -> T {
        let lookup = binding.lookupLocked(in: cache)
        let isNewEdge = state.depth != 0 && !isKnownEdgeLocked(to: key, state: state)
        let checksSingleton = binding.origin.checksInstanceForSingleton
        registryLock.unlockRead(stripe: state.stripe)
        if _slowPath(isNewEdge) { recordEdge(to: key, state: state) }
        if case .cached(let value) = lookup { return value }
        return try build(
            binding, key: key, cache: cache, storage: storage, state: state,
            arguments: arguments, site: site, checksSingleton: checksSingleton,
            factoryContainer: factoryContainer(for: cache, owner: owner.takeUnretainedValue()))
    }

    /// The container a factory receives (and static calls inside it use). An instance the
    /// registration itself keeps (a singleton of a parent, say) is built by the container
    /// that owns the registration, so that a child's overrides never end up inside a parent's
    /// singleton; everything else is built by the container resolving, so its overrides apply.
    private func factoryContainer(for cache: CacheOwner, owner: Resolver) -> Resolver {
        if case .registration = cache { return owner }
        return self
    }

    /// Resolves one known binding of this container's chain (for `verify()` and `resolveAll()`).
    func resolveBinding<T>(
        _ binding: Binding<T>, key: Key, arguments: ArgumentValues, site: SourceLocation?
    ) throws(ResolutionError) -> T {
        let state = ThreadState.current
        let (lookup, storage, cache, checksSingleton, owner) = registryLock.withReadLock(state.stripe) {
            let cache = cacheOwnerLocked(for: binding.provider.registry)
            return (
                binding.lookupLocked(in: cache), binding.origin.storage, cache,
                binding.origin.checksInstanceForSingleton, ownerLocked(of: binding.provider.registry)
            )
        }
        if case .cached(let value) = lookup { return value }
        return try build(
            binding, key: key, cache: cache, storage: storage, state: state, arguments: arguments, site: site,
            checksSingleton: checksSingleton,
            factoryContainer: storage.isCached ? factoryContainer(for: cache, owner: owner ?? self) : self)
    }

    /// The container along the chain whose registrations live in `registry`. Read lock held.
    func ownerLocked(of registry: Registry) -> Resolver? {
        var container: Resolver? = self
        while let current = container {
            if current.registry === registry { return current }
            container = current.parent
        }
        return nil
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
        arguments: ArgumentValues, site: SourceLocation?, checksSingleton: Bool, factoryContainer: Resolver? = nil
    ) throws(ResolutionError) -> T {
        unowned(unsafe) let factoryContainer = factoryContainer ?? self
        return try inFrame(
            key: key, provider: binding.origin, factoryContainer: factoryContainer, state: state, site: site
        ) { () throws(ResolutionError) -> T in
            let request = Request(
                key: key, container: factoryContainer, cache: cache, state: state, arguments: arguments, site: site,
                checksSingleton: checksSingleton)
            return try binding.produce(request, storage: storage)
        }
    }

    /// ``build(_:key:cache:storage:state:arguments:site:checksSingleton:factoryContainer:)`` for
    /// the most common case: a transient registration without runtime arguments.
    @inline(__always)
    private func buildTransient<T>(
        _ provider: Provider<T>, key: Key, state: ThreadState, site: SourceLocation?
    ) throws(ResolutionError) -> T {
        try inFrame(key: key, provider: provider, factoryContainer: self, state: state, site: site) {
            () throws(ResolutionError) -> T in
            try provider.makeWithoutArguments(in: self, key: key, state: state, site: site)
        }
    }

    /// Runs `body` in a new frame of the resolution path, after checking for a cycle (a
    /// registration without arguments that is already being built) and for runaway depth.
    /// While it runs, static calls use `factoryContainer`; a top-level frame's `.graph`
    /// instances are released when it ends.
    @inline(__always)
    private func inFrame<T>(
        key: Key, provider: AnyBinding, factoryContainer: Resolver, state: ThreadState, site: SourceLocation?,
        _ body: () throws(ResolutionError) -> T
    ) throws(ResolutionError) -> T {
        if key.arguments == nil, state.isBuilding(provider) {
            throw ResolutionError(
                .cycle(of: state.path + [key]), key: key, path: state.path, container: self, site: site)
        }
        if state.depth >= Self.maximumDepth {
            throw ResolutionError(.tooDeep, key: key, path: state.path, container: self, site: site)
        }
        let isTopLevel = state.depth == 0
        let outerContainer = state.containerReference
        state.containerReference = Unmanaged.passUnretained(factoryContainer)
        state.push(Frame(key: key, provider: provider, site: site))
        defer {
            state.pop()
            state.containerReference = outerContainer
            if isTopLevel && !state.graph.isEmpty { state.graph.removeAll() }
        }
        return try StackGuard.run(body, state: state)
    }

    /// Whether the innermost frame's registration already recorded a dependency on `key`,
    /// and moves the frame on to its next expected dependency. Read lock held.
    ///
    /// Factories resolve their dependencies in the same order every time, so the expected
    /// position is checked first and the common case costs one comparison.
    @inline(__always)
    private func isKnownEdgeLocked(to key: Key, state: ThreadState) -> Bool {
        let frame = state.frameBuffer + (state.depth - 1)
        let position = frame.pointee.resolvedDependencies
        frame.pointee.resolvedDependencies = position + 1
        return frame.pointee.provider.observedDependencies.contains(key, expectedAt: position)
    }

    /// Records that the innermost frame's registration depends on `key`.
    @inline(never)
    private func recordEdge(to key: Key, state: ThreadState) {
        guard let frame = state.innermostFrame else { return }
        let provider = frame.provider
        registryLock.withWriteLock {
            provider.observedDependencies.appendIfAbsent(key)
        }
    }

    /// What a miss resolves to: a registration whose only argument is Optional, or an
    /// Optional request's wrapped type; else the missing-registration error.
    @inline(never)
    private func resolveMissing<T>(
        _ key: Key, arguments: ArgumentValues, state: ThreadState, site: SourceLocation?
    ) throws(ResolutionError) -> T {
        if state.depth != 0 { recordEdge(to: key, state: state) }
        if key.arguments == nil,
            let binding = registryLock.withReadLock(state.stripe, { optionalArgumentBindingLocked(key) })
        {
            let typed = unsafeDowncast(binding, to: Binding<T>.self)
            return try resolveBinding(typed, key: binding.key, arguments: .none, site: site)
        }
        if let optional = T.self as? any OptionalResolvable.Type {
            return try optional.resolveWrapped(key, arguments: arguments, in: self, site: site) as! T
        }
        throw missingError(for: key, site: site, as: T.self)
    }

    /// The registration of `key`'s type whose only argument is Optional. Read lock held.
    func optionalArgumentBindingLocked(_ key: Key) -> AnyBinding? {
        var container: Resolver? = self
        while let current = container {
            if let binding = current.registry.optionalArgumentBindings[key] { return binding }
            container = current.parent
        }
        return nil
    }

    /// Resolves `key` from ``current``, or stops the program with the resolution error.
    ///
    /// The common case (a strongly cached instance, no bound container) takes one lock
    /// acquisition and no reference counting beyond the returned value's.
    @inline(__always)
    static func resolveFromCurrent<T>(_ key: Key, site: SourceLocation? = nil, isolation: (any Actor)? = nil) -> T {
        ThreadState.withCurrent { state in resolveFromCurrent(key, site: site, isolation: isolation, state: state) }
    }

    @inline(__always)
    private static func resolveFromCurrent<T>(
        _ key: Key, site: SourceLocation?, isolation: (any Actor)?, state: ThreadState
    ) -> T {
        registryLock.lockRead(stripe: state.stripe)
        let globals = Globals.state
        let container: Unmanaged<Resolver>?
        if let inner = state.containerReference {
            container = inner
        } else if globals.pointee.bindingCount == 0 {
            container = globals.pointee.root
        } else {
            container = nil  // a task-local binding may apply: read it off the fast path
        }
        if let container,
            let slot = container._withUnsafeGuaranteedRef({ $0.cachedSlotLocked(key, state: state) })
        {
            let value = slot.assumingMemoryBound(to: T.self).pointee
            registryLock.unlockRead(stripe: state.stripe)
            return value
        }
        return resolveFromCurrentSlowlyLocked(key, site: site, container: container, state: state, isolation: isolation)
    }

    /// The rest of ``resolveFromCurrent(_:site:)``, entered with the read lock held, which it
    /// releases. Kept out of line so that the fast path pays nothing for what this needs.
    @inline(never)
    static func resolveFromCurrentSlowlyLocked<T>(
        _ key: Key, site: SourceLocation?, container: Unmanaged<Resolver>?, state: ThreadState,
        isolation: (any Actor)?
    ) -> T {
        let mark = MainActorMark(isolation)
        defer { mark.end() }
        do {
            guard let container else {
                registryLock.unlockRead(stripe: state.stripe)
                return try current.resolveSlowly(key, arguments: .none, site: site, state: state)
            }
            // Retained while the lock is held: once it is released, `root` could be replaced and freed.
            let resolver = container.takeUnretainedValue()
            return try resolver.resolveSlowlyLocked(key, arguments: .none, site: site, state: state)
        } catch {
            trap(error)
        }
    }

    /// Resolves `key` or stops the program with the resolution error.
    @inline(__always)
    func resolveOrTrap<T>(
        _ key: Key, arguments: ArgumentValues = .none, site: SourceLocation? = nil, isolation: (any Actor)? = nil
    ) -> T {
        do {
            return try resolveOrThrow(key, arguments: arguments, site: site, isolation: isolation)
        } catch {
            trap(error)
        }
    }

    /// Runs `registerAllServices()` if it is still pending for this container's chain: called
    /// before operations that read registrations as a whole (verify, graph, resolveAll, …).
    func bootstrapIfPending() {
        let state = ThreadState.current
        if registryLock.withReadLock(state.stripe, { bootstrapPendingLocked() }) { bootstrapIfNeeded(state) }
    }

    /// Runs `ResolverRegistering.registerAllServices()` once, before the first resolution
    /// that reaches ``main``.
    @inline(never)
    func bootstrapIfNeeded(_ state: ThreadState) {
        guard !state.isBootstrapping, reachesMain else { return }
        Self.bootstrapLock.withLock {
            let main = Resolver.main.registry
            let pending = registryLock.withReadLock(state.stripe) { main.bootstrapPending }
            guard pending else { return }
            if let registering = (Resolver.self as Any.Type) as? any ResolverRegistering.Type {
                let outerContainer = state.containerReference
                state.isBootstrapping = true
                state.containerReference = nil
                defer {
                    state.isBootstrapping = false
                    state.containerReference = outerContainer
                }
                Resolver.withContainer(.main) { registering.registerAllServices() }
            }
            registryLock.withWriteLock { main.bootstrapPending = false }
        }
    }

    private static let bootstrapLock = Lock()

    /// Whether this resolution reaches ``main`` before its `registerAllServices()` ran.
    /// Read lock held.
    func bootstrapPendingLocked() -> Bool {
        var container: Resolver? = self
        while let current = container {
            if current.registry.bootstrapPending { return true }
            container = current.parent
        }
        return false
    }

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
    static func resolveWrapped(
        _ key: Key, arguments: ArgumentValues, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any
}

extension Optional: OptionalResolvable {
    static func resolveWrapped(
        _ key: Key, arguments: ArgumentValues, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any {
        let value: Wrapped? = try resolver.resolveValue(key.with(type: Wrapped.self), arguments: arguments, site: site)
        return value as Any
    }
}
