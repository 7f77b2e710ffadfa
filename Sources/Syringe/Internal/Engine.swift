/// The one path every resolution takes: lookup → plan → build → keep.
///
/// `resolver.resolve()` makes the key and calls ``resolve(_:provider:arguments:site:in:)``, which
/// reads top to bottom:
/// 1. Lookup and plan, under the read lock (``plan(_:provider:in:)``): the registration along the
///    parent chain, and either the instance kept for this resolution (which ends it) or the store
///    to build in and the container whose factory runs.
/// 2. Checks: a cycle, the depth, the stack.
/// 3. Build: a lifetime that shares its instance claims the build (one thread builds, others wait,
///    ``Construction``); the factory runs with no lock held, in a new frame of the path, on the
///    calling thread. A dependency's `resolve()` inside it starts this path over, one frame deeper.
/// 4. Keep: the store keeps the instance (shared ones under the write lock); `initCompleted` steps
///    run before the outermost resolution returns.
///
/// The static twins, the property wrappers, `resolveAll()`, `.implements` keys and `verify()`
/// enter the same function.
extension Resolver {
    /// The deepest resolution path followed before it is reported as a runaway recursion
    /// (registrations with arguments that resolve themselves are not caught as cycles).
    static let maximumDepth = 200

    /// What the locked look at the registrations decided.
    enum Plan<T> {
        /// An instance kept for this resolution: the whole of it.
        case kept(T)
        /// Build one.
        case build(Build<T>)
        /// A key written by `.implements`: its target builds.
        case alias(Alias)
        case missing
        case offMainActor(AnyProvider)
        /// A `verify()` run resolves in its own container instead (``VerificationRun/replacement(for:)``).
        case redirect(Resolver)
        /// Settled inside ``plan(_:provider:in:)``, which looks again: `registerAllServices()` must
        /// run first; a test container needs its own copy of the store first.
        case bootstrap
        case copy(Provider<T>, into: Resolver)
    }

    /// How to build an instance: what ``plan(_:provider:in:)`` read under the read lock.
    struct Build<T> {
        let provider: Provider<T>
        let store: InstanceStore<T>
        /// The container whose factory runs (and which static calls inside it use).
        let builder: Resolver
        /// The test container that keeps the instance, if one does.
        let owner: Resolver?
        /// Whether the instance is the registration's first, which decides whether it is a
        /// ``Singleton`` when its type does not tell.
        let isFirst: Bool
        /// Whether one thread builds while the others wait: a lifetime that shares its instance, or
        /// the deciding first instance of a transient one.
        var isClaimed: Bool { store.sharesInstances || (isFirst && !(store is GraphStore<T>)) }
        /// The registration's `initCompleted` steps.
        let completion: ((Resolver, T) throws -> Void)?
    }

    /// Resolves `key` (with `provider`, when the caller already knows the registration): the
    /// value, or nil when nothing is registered for the key.
    ///
    /// Inlined into the resolve forms, so that one level of a resolution path costs one frame of
    /// Syringe's besides the factory's call (release builds: 1,040 → N bytes of stack a level).
    @inline(__always)
    func resolve<T>(
        _ key: Key, provider given: Provider<T>? = nil, arguments: Any? = nil, site: SourceLocation?,
        in resolution: Resolution
    ) throws(ResolutionError) -> T? {
        // 1. Lookup and plan.
        let plan: Plan<T> = self.plan(key, provider: given, in: resolution)
        guard case .build(let build) = plan else {
            return try resolveWithoutBuilding(
                plan, key: key, provider: given, arguments: arguments, site: site, in: resolution)
        }
        // 2. Checks, the claim of a build that happens once, and a new frame of the path.
        var outer: Resolver?
        if let value = try start(build, key: key, site: site, in: resolution, outer: &outer) { return value }
        // 3. Build.
        let value: T
        do {
            switch build.provider.factory {
            case .simple(let make): value = try make()
            case .resolver(let make): value = try make(build.builder)
            case .arguments(let make): value = try make.make(arguments)
            }
        } catch {
            throw failed(build, with: error, key: key, site: site, restoring: outer, in: resolution)
        }
        // 4. Keep.
        return try finish(build, with: value, restoring: outer, in: resolution)
    }

    /// Checks a build (a cycle, the depth, the stack), claims it when it happens once, and enters
    /// its frame (`outer` keeps the container to restore); returns the instance another thread built
    /// meanwhile instead, if one did.
    @inline(never)
    private func start<T>(
        _ build: Build<T>, key: Key, site: SourceLocation?, in resolution: Resolution, outer: inout Resolver?
    ) throws(ResolutionError) -> T? {
        if key.arguments == nil && resolution.isBuilding(build.provider) {
            throw ResolutionError(
                .cycle(of: resolution.path + [key]), key: key, path: resolution.path, container: self, site: site)
        }
        if resolution.depth >= Self.maximumDepth || resolution.isShortOfStack {
            throw ResolutionError(.tooDeep, key: key, path: resolution.path, container: self, site: site)
        }
        if build.isClaimed {
            let claim: Construction.Claim<T> = Construction.shared.claim(
                build.store, subject: .instance(key), in: resolution
            ) {
                registryLock.withReadLock(resolution.stripe) {
                    build.provider.store(keptBy: build.owner)?.instance(for: resolution)
                }
            }
            switch claim {
            case .claimed: break
            case .existing(let value): return value
            case .loop(let otherPath, _):
                throw ResolutionError(
                    .cycle(of: (otherPath ?? []) + resolution.path + [key]), key: key, path: resolution.path,
                    container: self, site: site)
            }
        }
        outer = resolution.enter(Frame(key: key, provider: build.provider, site: site), in: build.builder)
        return nil
    }

    /// Ends a build whose factory threw: the error with its path, and nothing kept.
    @inline(never)
    private func failed<T>(
        _ build: Build<T>, with error: any Error, key: Key, site: SourceLocation?, restoring outer: Resolver?,
        in resolution: Resolution
    ) -> ResolutionError {
        let failure = ResolutionError(error, key: key, path: resolution.path, container: build.builder, site: site)
        if resolution.depth == 1 { resolution.settlePendingCompletions(succeeded: false) }
        resolution.leave(restoring: outer)
        if build.isClaimed { Construction.shared.abandon(build.store) }
        return failure
    }

    /// Keeps a built instance and leaves its frame; the outermost frame runs the `initCompleted`
    /// steps first. Returns the instance to hand out.
    @inline(never)
    private func finish<T>(
        _ build: Build<T>, with value: T, restoring outer: Resolver?, in resolution: Resolution
    ) throws(ResolutionError) -> T {
        let kept = keep(value, build, in: resolution)
        defer { resolution.leave(restoring: outer) }
        if resolution.depth == 1 && !resolution.pendingCompletions.isEmpty { try resolution.runPendingCompletions() }
        return kept
    }

    /// Looks the key (or the given registration) up along the parent chain under the read lock,
    /// and settles what must happen before a resolution can go on: the bootstrap, a test
    /// container's own copy of a store.
    @inline(never)
    func plan<T>(_ key: Key, provider given: Provider<T>?, in resolution: Resolution) -> Plan<T> {
        if let run = resolution.verification, let sandbox = run.replacement(for: self) { return .redirect(sandbox) }
        var isNewDependency = false
        var isFirstLook = true
        while true {
            let plan = registryLock.withReadLock(resolution.stripe) { () -> Plan<T> in
                if isFirstLook { isNewDependency = resolution.isNewDependency(key) }
                return lookUp(key, provider: given, in: resolution)
            }
            isFirstLook = false
            switch plan {
            case .bootstrap:
                bootstrapIfPending(resolution)
            case .copy(let provider, let container):
                registryLock.withWriteLock { provider.makeCopy(keptBy: container, leftovers: &$0) }
            default:
                if isNewDependency, let frame = resolution.frames.last {
                    registryLock.withWriteLock { _ in frame.provider.recordDependency(key) }
                }
                return plan
            }
        }
    }

    /// The registration serving `key` from here and what it keeps for `resolution`. Read lock held.
    private func lookUp<T>(_ key: Key, provider given: Provider<T>?, in resolution: Resolution) -> Plan<T> {
        var container = self
        // The nearest test container on the way, which keeps its own instances.
        var owner: Resolver?
        while true {
            let registry = container.registry
            if registry.bootstrapPending && !resolution.isBootstrapping { return .bootstrap }
            if let given, registry === given.registry || container.parent == nil {
                return plan(given, in: container, owner: owner, for: resolution)
            }
            if given == nil, let binding = registry.bindings[key] {
                // A key for `T` is bound to a registration of `T`, or to an alias.
                guard let provider = binding as? Provider<T> else { return .alias(binding as! Alias) }
                return plan(provider, in: container, owner: owner, for: resolution)
            }
            if container.isolatesCache && owner == nil { owner = container }
            guard let parent = container.parent else { return .missing }
            container = parent
        }
    }

    /// What a resolution of `provider`, registered in `container`, does. Read lock held.
    private func plan<T>(
        _ provider: Provider<T>, in container: Resolver, owner: Resolver?, for resolution: Resolution
    ) -> Plan<T> {
        if provider.isMainActorBound && !resolution.isOnMainActor { return .offMainActor(provider) }
        guard let store = provider.store(keptBy: owner) else { return .copy(provider, into: owner!) }
        if !resolution.provisional.isEmpty, let value = resolution.provisional[ObjectIdentifier(store)] as? T {
            // Built in this resolution, waiting for its `initCompleted` step.
            return .kept(value)
        }
        if let value = store.instance(for: resolution) { return .kept(value) }
        // A shared instance of a registration is built by the container that owns it, so that a
        // child's overrides never end up inside it; anything else by the container resolving.
        let builder = store.sharesInstances && owner == nil ? container : self
        return .build(
            Build(
                provider: provider, store: store, builder: builder, owner: owner, isFirst: provider.isMarkerUndecided,
                completion: provider.completion))
    }

    /// Keeps a built instance in its store, published for the threads waiting for it (with
    /// `initCompleted` steps, once they have run); returns the instance to hand out.
    @inline(never)
    private func keep<T>(_ value: T, _ build: Build<T>, in resolution: Resolution) -> T {
        let store = build.store
        func keepNow(_ value: T) -> T {
            guard build.isClaimed || build.isFirst else {
                var nothing = Leftovers()
                store.keep(value, for: resolution, from: self, leftovers: &nothing)
                return value
            }
            let isMarked = build.isFirst && value is any Singleton
            var kept = value
            let publish = {
                registryLock.withWriteLock { leftovers in
                    guard build.isFirst else { return store.keep(value, for: resolution, from: self, leftovers: &leftovers) }
                    kept = build.provider.keepFirst(
                        value, isMarked: isMarked, in: store, keptBy: build.owner, for: resolution, from: self,
                        leftovers: &leftovers)
                }
            }
            if build.isClaimed { Construction.shared.finish(store, publish: publish) } else { publish() }
            return kept
        }
        guard let completion = build.completion else { return keepNow(value) }
        let frame = resolution.frames[resolution.depth - 1]
        guard store.sharesInstances else {
            resolution.enqueueCompletion(frame, in: build.builder, value: value, step: completion) { _ in }
            return keepNow(value)
        }
        // Published once its step has run; until then only this thread sees it.
        let id = ObjectIdentifier(store)
        resolution.provisional[id] = value
        resolution.enqueueCompletion(frame, in: build.builder, value: value, step: completion) { succeeded in
            resolution.provisional[id] = nil
            if succeeded { _ = keepNow(value) } else { Construction.shared.abandon(store) }
        }
        return value
    }

    /// Everything but a build: a kept instance, an alias, a miss, a main-actor registration off the
    /// main actor, a `verify()` run's own container. Each case in a function of its own keeps this
    /// frame small: it stays on the stack while an alias's or an Optional's resolution builds.
    @inline(never)
    private func resolveWithoutBuilding<T>(
        _ plan: Plan<T>, key: Key, provider: Provider<T>?, arguments: Any?, site: SourceLocation?,
        in resolution: Resolution
    ) throws(ResolutionError) -> T? {
        switch plan {
        case .kept(let value): value
        case .redirect(let sandbox):
            try sandbox.resolve(key, provider: provider, arguments: arguments, site: site, in: resolution)
        case .alias(let alias): try resolve(alias, as: key, arguments: arguments, site: site, in: resolution)
        case .missing: try resolveMissing(key, arguments: arguments, site: site, in: resolution)
        case .offMainActor(let provider): throw offMainActor(provider, key: key, site: site, in: resolution)
        case .build, .bootstrap, .copy: preconditionFailure("settled by plan(_:provider:in:)")
        }
    }

    /// Resolves a key written by `.implements` with its target.
    private func resolve<T>(
        _ alias: Alias, as key: Key, arguments: Any?, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> T {
        let value = try alias.target.resolveErased(as: key, from: self, arguments: arguments, site: site, in: resolution)
        guard let converted = value as? T else {
            throw ResolutionError(
                .notConvertible(from: type(of: value)), key: key, path: resolution.path, container: self, site: site)
        }
        return converted
    }

    /// What serves a key nothing is registered for: a registration whose only argument is Optional
    /// (called without arguments), or, for an Optional request, its wrapped type (nil when that is
    /// missing too).
    private func resolveMissing<T>(
        _ key: Key, arguments: Any?, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> T? {
        if key.arguments == nil,
            let optionalArgument = registryLock.withReadLock(resolution.stripe, { optionalArgumentProvider(for: key) })
                as? Provider<T>
        {
            return try resolve(optionalArgument.key, provider: optionalArgument, site: site, in: resolution)
        }
        guard let optional = T.self as? any OptionalResolvable.Type else { return nil }
        return try optional.resolveWrapped(key, arguments: arguments, in: self, site: site) as? T
    }

    /// The error of a main-actor-bound registration resolved off the main actor; a `verify()`
    /// worker leaves it to the caller, on the main actor.
    private func offMainActor(
        _ provider: AnyProvider, key: Key, site: SourceLocation?, in resolution: Resolution
    ) -> ResolutionError {
        let error = ResolutionError(
            .offMainActor, key: key, path: resolution.path, container: self, site: site,
            suggestions: Messages.offMainActorSuggestions(registeredAt: provider.site))
        resolution.stopIfVerifying(error)
        return error
    }

    /// The binding serving `key` from here. Lock held.
    func visibleBinding(for key: Key) -> AnyBinding? {
        var container: Resolver? = self
        while let current = container {
            if let binding = current.registry.bindings[key] { return binding }
            container = current.parent
        }
        return nil
    }

    /// The test container that keeps the instances of `provider` resolved from here, if one does.
    /// Lock held.
    func cacheOwner(of provider: AnyProvider) -> Resolver? {
        var container: Resolver? = self
        while let current = container, current.registry !== provider.registry {
            if current.isolatesCache { return current }
            container = current.parent
        }
        return nil
    }

    /// The registration of `key`'s type and selectors along the chain whose only argument is
    /// Optional. Read lock held.
    private func optionalArgumentProvider(for key: Key) -> AnyProvider? {
        var container: Resolver? = self
        while let current = container {
            if let binding = current.registry.optionalArgumentBinding(for: key) { return binding.provider }
            container = current.parent
        }
        return nil
    }
}

/// Lets a request for `Optional<Wrapped>` resolve `Wrapped` when the Optional itself is not
/// registered.
protocol OptionalResolvable {
    static func resolveWrapped(
        _ key: Key, arguments: Any?, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any
}

extension Optional: OptionalResolvable {
    static func resolveWrapped(
        _ key: Key, arguments: Any?, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any {
        let value: Wrapped? = try resolver.resolve(
            key.with(type: Wrapped.self), arguments: arguments, site: site, in: .current)
        return value as Any
    }
}
