/// What the first look at the registrations for a key found (``Resolver/quickFindLocked(_:state:)``).
enum QuickFind {
    /// The strongly cached instance, at this address: the whole of the resolution.
    case cached(UnsafeRawPointer)
    /// The binding, in `owner`'s registry, with no test container on the way (its instances are
    /// cached in the registration) and no bootstrap pending. Valid while the read lock is held.
    case found(Unmanaged<AnyBinding>, owner: Unmanaged<Resolver>)
    /// Anything else: the general resolution looks again.
    case general
}

/// The resolution engine shared by every public resolve form: lookup → plan → build.
///
/// - Lookup: one walk up the parent chain under the read lock (``findLocked(_:)``).
/// - Plan: still under the read lock, the registration's store says whether an instance is
///   kept for this resolution or which store to build it in (``Binding/lookupLocked(in:state:)``).
/// - Build: with no lock held, in a new frame of the resolution path (``inFrame``); lifetimes
///   that share an instance build it once through ``Construction`` and publish it under the
///   write lock.
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

    /// The first look at the registrations for `key`, before any bookkeeping. Read lock held.
    ///
    /// A cached singleton's resolution ends here. Anything else found with no test container
    /// on the way and no bootstrap pending is handed on as it was found, so that the
    /// resolution does not look it up a second time.
    @inline(__always)
    func quickFindLocked(_ key: Key, state: ThreadState) -> QuickFind {
        unowned(unsafe) var container = self
        while true {
            if container.registry.bootstrapPending { return .general }
            if let binding = container.registry.table.pointee.find(key) {
                // In a `verify()` run the general path decides where it resolves
                // (``VerificationRun/replacement(for:)``): never the verified container's instance.
                if let slot = binding._withUnsafeGuaranteedRef({ $0.cachedSlot }), state.verification == nil,
                    state.depth == 0 || isKnownEdgeLocked(to: key, state: state)
                {
                    return .cached(slot)
                }
                // A bootstrap still pending further up runs first, as in the general resolution.
                if let parent = container.parent, parent.bootstrapPendingLocked() { return .general }
                return .found(binding, owner: Unmanaged.passUnretained(container))
            }
            if container.isolatesCache { return .general }
            guard let parent = container.parent else { return .general }
            container = parent
        }
    }

    /// Resolves `key`, throwing the missing-registration error when nothing serves it.
    @inline(__always)
    func resolveOrThrow<T>(
        _ key: Key, arguments: ArgumentValues = .none, site: SourceLocation?, isolation: (any Actor)? = nil
    ) throws(ResolutionError) -> T {
        do {
            return try ThreadState.withCurrent { state in
                registryLock.lockRead(stripe: state.stripe)
                let found = quickFindLocked(key, state: state)
                if case .cached(let slot) = found {
                    let value = slot.assumingMemoryBound(to: T.self).pointee
                    registryLock.unlockRead(stripe: state.stripe)
                    return value
                }
                let mark = MainActorMark(isolation)
                defer { mark.end() }
                return try resolveSlowlyLocked(key, found: found, arguments: arguments, site: site, state: state)
            }
        } catch {
            // Only resolution errors are thrown in there.
            throw error as! ResolutionError
        }
    }

    /// Resolves `key` or stops the program with the resolution error.
    @inline(__always)
    func resolveOrTrap<T>(
        _ key: Key, arguments: ArgumentValues = .none, site: SourceLocation?, isolation: (any Actor)? = nil
    ) -> T {
        do {
            return try resolveOrThrow(key, arguments: arguments, site: site, isolation: isolation)
        } catch {
            trap(error)
        }
    }

    /// Resolves `key`, or returns nil when nothing is registered for it (other failures throw).
    ///
    /// The miss is decided by the same locked lookup that would build, so a registration
    /// cleared meanwhile by another thread gives nil, never an error.
    func resolveValue<T>(
        _ key: Key, arguments: ArgumentValues = .none, site: SourceLocation?, isolation: (any Actor)? = nil
    ) throws(ResolutionError) -> T? {
        let state = ThreadState.current
        if _slowPath(state.verification != nil), let sandbox = state.verification?.replacement(for: self) {
            return try sandbox.resolveValue(key, arguments: arguments, site: site, isolation: isolation)
        }
        let mark = MainActorMark(isolation)
        defer { mark.end() }
        registryLock.lockRead(stripe: state.stripe)
        guard let found = findAfterBootstrapLocked(key, state: state) else {
            registryLock.unlockRead(stripe: state.stripe)
            return try resolveAlternatives(for: key, arguments: arguments, state: state, site: site)
        }
        let binding = unsafeDowncast(found.binding, to: Binding<T>.self)
        let depth = state.depth
        do {
            return try resolveFoundLocked(
                binding, key: key, cache: found.cache, owner: found.owner, arguments: arguments, site: site,
                state: state)
        } catch  where error.yieldsNothing(for: key, atDepth: depth) {
            return nil
        }
    }

    /// The general resolution, entered with the read lock held, which it releases: everything
    /// but a cached instance found with no bookkeeping. `found` is what ``quickFindLocked(_:state:)``
    /// found for `key` under the same lock.
    @inline(never)
    func resolveSlowlyLocked<T>(
        _ key: Key, found quick: QuickFind = .general, arguments: ArgumentValues, site: SourceLocation?,
        state: ThreadState
    ) throws(ResolutionError) -> T {
        if _slowPath(state.verification != nil), let sandbox = state.verification?.replacement(for: self) {
            // A `verify()` run builds in its own container (``VerificationRun/replacement(for:)``).
            return try sandbox.resolveSlowlyLocked(key, arguments: arguments, site: site, state: state)
        }
        if case .found(let binding, let owner) = quick {
            // Retained: once the lock is released, the registration may be replaced or cleared.
            let binding = unsafeDowncast(binding.takeUnretainedValue(), to: Binding<T>.self)
            return try resolveFoundLocked(
                binding, key: key, cache: .registration, owner: owner, arguments: arguments, site: site, state: state)
        }
        guard let found = findAfterBootstrapLocked(key, state: state) else {
            registryLock.unlockRead(stripe: state.stripe)
            return try resolveMissing(key, arguments: arguments, state: state, site: site)
        }
        // Retained: once the lock is released, the registration may be replaced or cleared.
        let binding = unsafeDowncast(found.binding, to: Binding<T>.self)
        return try resolveFoundLocked(
            binding, key: key, cache: found.cache, owner: found.owner, arguments: arguments, site: site, state: state)
    }

    /// ``findLocked(_:)``, after running `registerAllServices()` if this lookup is the first to
    /// reach ``main``. Read lock held on entry and on return (released while the bootstrap runs).
    @inline(__always)
    private func findAfterBootstrapLocked(
        _ key: Key, state: ThreadState
    ) -> (binding: AnyBinding, cache: CacheOwner, owner: Unmanaged<Resolver>)? {
        if _slowPath(bootstrapPendingLocked()) {
            registryLock.unlockRead(stripe: state.stripe)
            bootstrapIfNeeded(state)
            registryLock.lockRead(stripe: state.stripe)
        }
        return findLocked(key)
    }

    /// Plans and builds a binding found for `key`. Entered with the read lock held; releases it.
    func resolveFoundLocked<T>(
        _ binding: Binding<T>, key: Key, cache: CacheOwner, owner: Unmanaged<Resolver>, arguments: ArgumentValues,
        site: SourceLocation?, state: ThreadState
    ) throws(ResolutionError) -> T {
        let isNewEdge = state.depth != 0 && !isKnownEdgeLocked(to: key, state: state)
        if binding.isPlainTransient {
            registryLock.unlockRead(stripe: state.stripe)
            if _slowPath(isNewEdge) { recordEdge(to: key, state: state) }
            return try buildTransient(
                unsafeDowncast(binding, to: Provider<T>.self), key: key, state: state, site: site)
        }
        return try resolvePlannedLocked(
            binding, key: key, cache: cache, owner: owner, arguments: arguments, site: site, state: state,
            isNewEdge: isNewEdge)
    }

    /// The rest of ``resolveFoundLocked(_:key:cache:owner:arguments:site:state:)`` for everything
    /// but a plain transient: plan with the store, then build. Kept apart so that the transient
    /// path does not set up what this needs. Entered with the read lock held; releases it.
    @inline(never)
    private func resolvePlannedLocked<T>(
        _ binding: Binding<T>, key: Key, cache: CacheOwner, owner: Unmanaged<Resolver>, arguments: ArgumentValues,
        site: SourceLocation?, state: ThreadState, isNewEdge: Bool
    ) throws(ResolutionError) -> T {
        var lookup = binding.lookupLocked(in: cache, state: state)
        registryLock.unlockRead(stripe: state.stripe)
        if _slowPath(isNewEdge) { recordEdge(to: key, state: state) }
        if _slowPath(binding.isMainActorBound) {
            try requireMainActor(for: binding, key: key, site: site, state: state)
        }
        if case .needsIsolatedCopy = lookup, case .container(let container) = cache {
            lookup = registryLock.withWriteLock { leftovers in
                binding.makeIsolatedCopyLocked(in: container, leftovers: &leftovers)
                return binding.lookupLocked(in: cache, state: state)
            }
        }
        guard case .build(let anyStore, let completes) = lookup else {
            if case .cached(let value) = lookup { return value }
            preconditionFailure("a test container's copy exists once made")
        }
        if !state.provisional.isEmpty, let value = state.provisional[ObjectIdentifier(anyStore)] as? T {
            // Built in this resolution, waiting for its `initCompleted` step: only this thread sees it.
            return value
        }
        // An instance the registration itself keeps (a parent's singleton, say) is built by the
        // container that owns the registration, so that a child's overrides never end up inside
        // it; everything else by the container resolving, so its overrides apply.
        let factoryContainer: Resolver
        if anyStore.keepsInstances, case .registration = cache {
            factoryContainer = owner.takeUnretainedValue()
        } else {
            factoryContainer = self
        }
        // `factoryContainer` is held for the length of the build: the request and the frame refer
        // to it unretained.
        defer { withExtendedLifetime(factoryContainer) {} }
        let request = Request(
            key: key, resolving: self, factoryContainer: factoryContainer, cache: cache, state: state,
            arguments: arguments, site: site)
        return try inFrame(
            key: key, provider: binding.origin, factoryContainer: factoryContainer, state: state, site: site
        ) { () throws(ResolutionError) -> T in
            try binding.produce(request, in: anyStore, completes: completes)
        }
    }

    /// Resolves one known binding of this container's chain (for `verify()` and `resolveAll()`).
    func resolveBinding<T>(
        _ binding: Binding<T>, key: Key, arguments: ArgumentValues, site: SourceLocation?
    ) throws(ResolutionError) -> T {
        let state = ThreadState.current
        if _slowPath(state.verification != nil), let sandbox = state.verification?.replacement(for: self) {
            return try sandbox.resolveBinding(binding, key: key, arguments: arguments, site: site)
        }
        registryLock.lockRead(stripe: state.stripe)
        let registry = binding.provider.registry
        let owner = ownerLocked(of: registry) ?? self
        return try resolveFoundLocked(
            binding, key: key, cache: cacheOwnerLocked(for: registry), owner: Unmanaged.passUnretained(owner),
            arguments: arguments, site: site, state: state)
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

    /// Builds a transient instance of a registration without runtime arguments: the factory,
    /// called directly in a new frame.
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
            if isTopLevel { state.endGraphScope() }
        }
        guard isTopLevel else { return try StackGuard.run(body, state: state) }
        let value: T
        do throws(ResolutionError) {
            value = try StackGuard.run(body, state: state)
        } catch {
            if !state.pendingCompletions.isEmpty { state.settlePendingCompletions(succeeded: false) }
            throw error
        }
        if !state.pendingCompletions.isEmpty { try state.runPendingCompletions() }
        return value
    }

    /// Whether the innermost frame's registration already recorded a dependency on `key`,
    /// and moves the frame on to its next expected dependency. Read lock held.
    ///
    /// Factories resolve their dependencies in the same order every time, so the expected
    /// position is checked first and the common case costs one comparison.
    @inline(__always)
    func isKnownEdgeLocked(to key: Key, state: ThreadState) -> Bool {
        let frame = state.frameBuffer + (state.depth - 1)
        let position = frame.pointee.resolvedDependencies
        frame.pointee.resolvedDependencies = position + 1
        let known = frame.pointee.provider.observedDependencies
        return known.contains(key, expectedAt: position) || known.count >= Self.maximumRecordedEdges
    }

    /// How many dependencies one registration records at most: a factory that resolves keys
    /// made at run time (names, say) must not grow its record without bound.
    static let maximumRecordedEdges = 64

    /// Records that the innermost frame's registration depends on `key`.
    @inline(never)
    func recordEdge(to key: Key, state: ThreadState) {
        guard let frame = state.innermostFrame else { return }
        let provider = frame.provider
        registryLock.withWriteLock {
            if provider.observedDependencies.count < Self.maximumRecordedEdges {
                provider.observedDependencies.appendIfAbsent(key)
            }
        }
    }
}
