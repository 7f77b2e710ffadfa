// One of the three files with unsafe constructs: `unsafeDowncast`, on the resolution path only. A
// key for `T` is bound to a `Provider<T>`, and its stores keep `Kept<T>` boxes; the checked casts
// ask the runtime for the generic types' metadata on every resolution (callgrind, a resolution of a
// cached singleton: 1,180 instructions with `as!`, 266 with `unsafeDowncast`).

/// The one path every resolution takes: lookup → plan → build → keep.
///
/// `resolver.resolve()` makes the key and calls ``resolve(_:provider:arguments:site:in:)``, which
/// reads top to bottom:
/// 1. Lookup and plan, under the read lock (``plan(_:provider:in:)``): the registration along the
///    parent chain, and either the instance kept for this resolution (which ends it) or the store
///    to build in and the container whose factory runs.
/// 2. Checks: a cycle, the depth, the stack (``start(_:key:site:in:)``).
/// 3. Build: a lifetime that shares its instance claims the build (one thread builds, others wait,
///    ``Construction``); the factory runs with no lock held, in a new frame of the path, on the
///    calling thread. A dependency's `resolve()` inside it starts this path over, one frame deeper.
/// 4. Keep: the store keeps the instance (shared ones under the write lock); `initCompleted` steps
///    run before the outermost resolution returns (``finish(_:with:in:)``).
///
/// The static twins, the property wrappers, `resolveAll()`, `.implements` keys and `verify()`
/// enter the same function. Only it and what handles the value itself are generic: the plan is
/// made without the type, so that a resolution asks the runtime for no generic type's metadata.
extension Resolver {
    /// The deepest resolution path followed before it is reported as a runaway recursion
    /// (registrations with arguments that resolve themselves are not caught as cycles).
    static let maximumDepth = 200

    /// What the locked look at the registrations decided.
    enum Plan {
        /// An instance kept for this resolution: the whole of it.
        case kept(AnyKept)
        /// Build one with a registration that keeps nothing and has no `initCompleted` step: the
        /// factory's value is the whole of it.
        case transient(AnyProvider)
        /// Build one.
        case build(Build)
        /// A key written by `.implements`: its target builds.
        case alias(Alias)
        case missing
        case offMainActor(AnyProvider)
        /// A `verify()` run resolves in its own container instead (``VerificationRun/replacement(for:)``).
        case redirect(Resolver)
        /// A static call, while a `withContainer` binding may apply: the task-local value decides.
        case unbound
        /// Settled inside ``plan(_:provider:in:)``, which looks again: `registerAllServices()` must
        /// run first; a test container needs its own copy of the store first.
        case bootstrap
        case copy(AnyProvider, into: Resolver)
    }

    /// How to build an instance: what ``plan(_:from:provider:in:)`` read under the read lock. The
    /// registration and its store are held strongly (another thread may replace them meanwhile); the
    /// containers are the resolving container or its ancestors, which the resolution holds.
    struct Build {
        let provider: AnyProvider
        let store: InstanceStore
        /// The container whose factory runs (and which static calls inside it use).
        unowned(unsafe) let builder: Resolver
        /// The test container that keeps the instance, if one does.
        unowned(unsafe) let owner: Resolver?
        /// Whether the instance is the registration's first, which decides whether it is a
        /// ``Singleton`` when its type does not tell.
        let isFirst: Bool
        /// Whether one thread builds while the others wait: a lifetime that shares its instance, or
        /// the deciding first instance of a transient one.
        let isClaimed: Bool
        /// The registration's `initCompleted` steps (a ``Completion``), if it has any.
        let completion: AnyObject?
    }

    /// Resolves `key` from `container` (nil: ``current``), with `provider` when the caller already
    /// knows the registration; throws ``ResolutionError/notRegistered`` when nothing is registered
    /// for the key.
    ///
    /// Inlined into the resolve forms, so that a level of a resolution path costs one frame of
    /// Syringe's besides the factory's call (stack a level in a release build: 1,040 → 880 bytes).
    @inline(__always)
    static func resolve<T>(
        _ key: Key, from container: Resolver?, provider given: AnyProvider? = nil, arguments: Arguments? = nil,
        site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> T {
        // 1. Lookup and plan.
        let (plan, resolverReference) = self.plan(key, from: container, provider: given, in: resolution)
        if case .kept(let instance) = plan { return unsafeDowncast(instance, to: Kept<T>.self).instance }
        let resolver = resolverReference.takeRetainedValue()
        // 2. Checks, the claim of a build that happens once, and a new frame of the path, whose
        // container the factory receives.
        let registration: AnyProvider
        switch plan {
        case .transient(let provider):
            try resolver.check(provider, key: key, site: site, in: resolution)
            resolution.enter(Frame(key: key, provider: provider, site: site), in: resolver)
            registration = provider
        case .build(let build):
            if let kept = try resolver.start(build, key: key, site: site, in: resolution) {
                return unsafeDowncast(kept, to: Kept<T>.self).instance
            }
            registration = build.provider
        default:
            return try resolver.resolveWithoutBuilding(
                plan, key: key, provider: given, arguments: arguments, site: site, in: resolution)
        }
        // 3. Build.
        let provider = unsafeDowncast(registration, to: Provider<T>.self)
        let value: T
        do {
            // Bound with `if let`: `unsafelyUnwrapped` would hand the closure back at the generic
            // abstraction level, and re-abstracting it costs an allocation a call.
            if let make = provider.simpleFactory {
                value = try make()
            } else if let make = provider.resolvingFactory {
                value = try make(resolution.container.unsafelyUnwrapped)
            } else {
                value = try provider.argumentFactory.unsafelyUnwrapped.make(arguments?.values)
            }
        } catch {
            throw resolver.failed(plan, with: error, key: key, site: site, in: resolution)
        }
        // 4. Keep, and leave the frame.
        return try resolver.finish(plan, with: value, in: resolution)
    }

    /// Looks the key (or the given registration) up along the parent chain of `container` (nil:
    /// ``current``) under the read lock, and settles what must happen before a resolution can go on:
    /// the bootstrap, a test container's own copy of a store. Returns the plan and the container
    /// resolving, retained for every plan but `.kept` (which needs no container; the root may be
    /// replaced once the lock is released).
    @inline(never)
    static func plan(
        _ key: Key, from container: Resolver?, provider given: AnyProvider?, in resolution: Resolution
    ) -> (Plan, Unmanaged<Resolver>) {
        var isNewDependency = false
        let (plan, resolver) = registryLock.withReadLock(resolution.stripe) { () -> (Plan, Unmanaged<Resolver>?) in
            // While no binding exists, no task can see one: static calls use the root.
            guard
                let resolver = container.map(Unmanaged.passUnretained)
                    ?? resolution.container.map(Unmanaged.passUnretained)
                    ?? (Globals.bindingCount == 0 ? Unmanaged.passUnretained(Globals.root) : nil)
            else { return (.unbound, nil) }
            isNewDependency = resolution.depth > 0 && resolution.isNewDependency(key)
            let plan = resolver._withUnsafeGuaranteedRef { $0.lookUp(key, provider: given, in: resolution) }
            if case .kept = plan { return (plan, resolver) }
            return (plan, resolver.retain())
        }
        switch plan {
        case .kept, .transient, .build, .alias, .missing, .offMainActor, .redirect:
            if isNewDependency { record(key, in: resolution) }
            return (plan, resolver!)
        default:
            return settle(plan, resolver, key: key, provider: given, in: resolution, isNewDependency: isNewDependency)
        }
    }

    /// What must happen before a resolution can go on (the bootstrap, a test container's own copy of
    /// a store, a `verify()` run's own container, the task's container for a static call), then the
    /// plan made again.
    @inline(never)
    private static func settle(
        _ plan: Plan, _ resolver: Unmanaged<Resolver>?, key: Key, provider given: AnyProvider?,
        in resolution: Resolution, isNewDependency: Bool
    ) -> (Plan, Unmanaged<Resolver>) {
        if isNewDependency { record(key, in: resolution) }
        switch plan {
        case .unbound:
            return self.plan(key, from: Resolver.bound ?? Resolver.root, provider: given, in: resolution)
        case .bootstrap:
            let resolver = resolver!.takeRetainedValue()
            resolver.bootstrapIfPending(resolution)
            return self.plan(key, from: resolver, provider: given, in: resolution)
        case .copy(let provider, let owner):
            let resolver = resolver!.takeRetainedValue()
            registryLock.withWriteLock { provider.makeCopy(keptBy: owner, leftovers: &$0) }
            return self.plan(key, from: resolver, provider: given, in: resolution)
        default:
            return (plan, resolver!)
        }
    }

    /// Records that the registration of the innermost frame resolves `key`, for the dependency graph.
    private static func record(_ key: Key, in resolution: Resolution) {
        guard let frame = resolution.innermostFrame else { return }
        registryLock.withWriteLock { _ in frame.provider.recordDependency(key) }
    }

    /// The registration serving `key` from here and what it keeps for `resolution`. Read lock held.
    ///
    /// The containers and registrations of the walk are held by the registries while the lock is
    /// held, so the walk counts no references (`Unmanaged`): only what the plan keeps is retained.
    @inline(__always)
    fileprivate func lookUp(_ key: Key, provider given: AnyProvider?, in resolution: Resolution) -> Plan {
        if let run = resolution.verification, let sandbox = run.replacement(for: self) { return .redirect(sandbox) }
        var container = Unmanaged.passUnretained(self)
        // The nearest test container on the way, which keeps its own instances.
        var owner: Unmanaged<Resolver>?
        while true {
            let found = container._withUnsafeGuaranteedRef { container -> Unmanaged<AnyBinding>? in
                let registry = container.registry
                if let given, registry === given.registry || container.parent == nil {
                    return .passUnretained(given)
                }
                return given == nil ? registry.bindings[key].map(Unmanaged.passUnretained) : nil
            }
            if let found {
                return found._withUnsafeGuaranteedRef { binding in
                    container._withUnsafeGuaranteedRef { container in
                        guard binding.aliasTarget != nil else {
                            let provider = unsafeDowncast(binding, to: AnyProvider.self)
                            return plan(provider, in: container, owner: owner?.takeUnretainedValue(), for: resolution)
                        }
                        return .alias(unsafeDowncast(binding, to: Alias.self))
                    }
                }
            }
            let next = container._withUnsafeGuaranteedRef { container -> Unmanaged<Resolver>?? in
                if container.registry.bootstrapPending && !resolution.isBootstrapping { return .none }
                if container.isolatesCache && owner == nil { owner = .passUnretained(container) }
                return .some(container.parent.map(Unmanaged.passUnretained))
            }
            guard let next else { return .bootstrap }
            guard let next else { return .missing }
            container = next
        }
    }

    /// What a resolution of `provider`, registered in `container`, does. Read lock held.
    @inline(__always)
    private func plan(
        _ provider: AnyProvider, in container: Resolver, owner: Resolver?, for resolution: Resolution
    ) -> Plan {
        if provider.isMainActorBound && !resolution.isOnMainActor { return .offMainActor(provider) }
        guard let store = provider.store(keptBy: owner) else { return .copy(provider, into: owner!) }
        if !resolution.provisional.isEmpty, let instance = resolution.provisional[ObjectIdentifier(store)] {
            return .kept(instance)  // built in this resolution, waiting for its `initCompleted` step
        }
        if let instance = store.kept(for: resolution) { return .kept(instance) }
        // A shared instance of a registration is built by the container that owns it, so that a
        // child's overrides never end up inside it; anything else by the container resolving.
        let builder = store.sharesInstances && owner == nil ? container : self
        let isFirst = provider.isMarkerUndecided
        if !isFirst && provider.completion == nil && type(of: store) == InstanceStore.self {
            return .transient(provider)
        }
        return .build(
            Build(
                provider: provider, store: store, builder: builder, owner: owner, isFirst: isFirst,
                isClaimed: store.sharesInstances || (isFirst && !(store is GraphStore)), completion: provider.completion))
    }

    /// Checks a build (a cycle, the depth, the stack), claims it when it happens once, and enters its
    /// frame; returns the instance another thread built meanwhile instead, if one did.
    @inline(never)
    fileprivate func start(
        _ build: Build, key: Key, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> AnyKept? {
        try check(build.provider, key: key, site: site, in: resolution)
        if build.isClaimed {
            let claim = Construction.shared.claim(build.store, subject: .instance(key), in: resolution) {
                registryLock.withReadLock(resolution.stripe) {
                    build.provider.store(keptBy: build.owner)?.kept(for: resolution)
                }
            }
            switch claim {
            case .claimed: break
            case .existing(let instance): return instance
            case .loop(let otherPath, _):
                throw ResolutionError(
                    .cycle(of: (otherPath ?? []) + resolution.path + [key]), key: key, path: resolution.path,
                    container: self, site: site)
            }
        }
        resolution.enter(Frame(key: key, provider: build.provider, site: site), in: build.builder)
        return nil
    }

    /// Checks that a build may start: not a cycle, not too deep for the path or the stack.
    @inline(never)
    fileprivate func check(
        _ provider: AnyProvider, key: Key, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) {
        if key.arguments == nil && resolution.isBuilding(provider) {
            throw ResolutionError(
                .cycle(of: resolution.path + [key]), key: key, path: resolution.path, container: self, site: site)
        }
        if resolution.depth >= Self.maximumDepth || resolution.isShortOfStack {
            throw ResolutionError(.tooDeep, key: key, path: resolution.path, container: self, site: site)
        }
    }

    /// Ends a build whose factory threw: the error with its path, and nothing kept.
    @inline(never)
    fileprivate func failed(
        _ plan: Plan, with error: any Error, key: Key, site: SourceLocation?, in resolution: Resolution
    ) -> ResolutionError {
        let failure = ResolutionError(
            error, key: key, path: resolution.path, container: resolution.container ?? self, site: site)
        if resolution.depth == 1 { resolution.settlePendingCompletions(succeeded: false) }
        resolution.leave()
        if case .build(let build) = plan, build.isClaimed { Construction.shared.abandon(build.store) }
        return failure
    }

    /// Keeps a built instance (published for the threads waiting for it; with `initCompleted` steps,
    /// once they have run) and leaves its frame; the outermost frame runs the steps first. Returns
    /// the instance to hand out.
    @inline(never)
    fileprivate func finish<T>(_ plan: Plan, with value: T, in resolution: Resolution) throws(ResolutionError) -> T {
        defer { resolution.leave() }
        guard case .build(let build) = plan else {
            // A plain transient keeps nothing.
            if resolution.depth == 1 && !resolution.pendingCompletions.isEmpty {
                try resolution.runPendingCompletions()
            }
            return value
        }
        let kept: T
        if let steps = build.completion {
            kept = keepCompleting(value, build, steps: unsafeDowncast(steps, to: Completion<T>.self), in: resolution)
        } else {
            kept = keep(value, build, isMarked: build.isFirst && value is any Singleton, in: resolution)
        }
        if resolution.depth == 1 && !resolution.pendingCompletions.isEmpty { try resolution.runPendingCompletions() }
        return kept
    }

    /// Keeps `value` in its store: shared instances under the write lock, published for the threads
    /// waiting for it. Returns the instance to hand out.
    private func keep<T>(_ value: T, _ build: Build, isMarked: Bool, in resolution: Resolution) -> T {
        guard build.isClaimed || build.isFirst || build.store is GraphStore else { return value }
        let instance = Kept(value)
        var kept: AnyKept = instance
        let publish = {
            registryLock.withWriteLock { leftovers in
                guard build.isFirst else {
                    return build.store.keep(instance, for: resolution, from: self, leftovers: &leftovers)
                }
                kept = build.provider.keepFirst(
                    instance, isMarked: isMarked, in: build.store, keptBy: build.owner, for: resolution, from: self,
                    leftovers: &leftovers)
            }
        }
        if build.isClaimed {
            Construction.shared.finish(build.store, publish: publish)
        } else if build.isFirst {
            publish()
        } else {
            var nothing = Leftovers()
            build.store.keep(instance, for: resolution, from: self, leftovers: &nothing)
        }
        return unsafeDowncast(kept, to: Kept<T>.self).instance
    }

    /// Keeps `value` of a registration with `initCompleted` steps: its step is queued; a shared
    /// instance is published once it has run, and until then only this thread sees it.
    private func keepCompleting<T>(
        _ value: T, _ build: Build, steps: Completion<T>, in resolution: Resolution
    ) -> T {
        let frame = resolution.innermostFrame!
        guard build.store.sharesInstances else {
            resolution.enqueueCompletion(frame, in: build.builder, value: value, step: steps.run) { _ in }
            return keep(value, build, isMarked: build.isFirst && value is any Singleton, in: resolution)
        }
        let id = ObjectIdentifier(build.store)
        resolution.provisional[id] = Kept(value)
        resolution.enqueueCompletion(frame, in: build.builder, value: value, step: steps.run) { succeeded in
            resolution.provisional[id] = nil
            if succeeded {
                _ = self.keep(value, build, isMarked: build.isFirst && value is any Singleton, in: resolution)
            } else {
                Construction.shared.abandon(build.store)
            }
        }
        return value
    }

    /// Everything but a build: a kept instance, an alias, a miss, a main-actor registration off the
    /// main actor, a `verify()` run's own container. Each case in a function of its own keeps this
    /// frame small: it stays on the stack while an alias's or an Optional's resolution builds.
    @inline(never)
    fileprivate func resolveWithoutBuilding<T>(
        _ plan: Plan, key: Key, provider: AnyProvider?, arguments: Arguments?, site: SourceLocation?,
        in resolution: Resolution
    ) throws(ResolutionError) -> T {
        switch plan {
        case .redirect(let sandbox):
            try Resolver.resolve(key, from: sandbox, provider: provider, arguments: arguments, site: site, in: resolution)
        case .alias(let alias): try resolve(alias, as: key, arguments: arguments, site: site, in: resolution)
        case .missing: try resolveMissing(key, arguments: arguments, site: site, in: resolution)
        case .offMainActor(let provider): throw offMainActor(provider, key: key, site: site, in: resolution)
        case .kept, .transient, .build, .bootstrap, .copy, .unbound:
            preconditionFailure("settled by plan(_:from:provider:in:) and resolve(_:from:provider:arguments:site:in:)")
        }
    }

    /// Resolves a key written by `.implements` with its target.
    private func resolve<T>(
        _ alias: Alias, as key: Key, arguments: Arguments?, site: SourceLocation?, in resolution: Resolution
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
        _ key: Key, arguments: Arguments?, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> T {
        if key.arguments == nil,
            let optionalArgument = registryLock.withReadLock(resolution.stripe, { optionalArgumentProvider(for: key) })
        {
            return try Resolver.resolve(
                optionalArgument.key, from: self, provider: optionalArgument, site: site, in: resolution)
        }
        guard let optional = T.self as? any OptionalResolvable.Type else { throw .notRegistered }
        return try optional.resolveWrapped(key, arguments: arguments, in: self, site: site) as! T
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
        _ key: Key, arguments: Arguments?, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any
}

extension Optional: OptionalResolvable {
    static func resolveWrapped(
        _ key: Key, arguments: Arguments?, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any {
        do throws(ResolutionError) {
            let value: Wrapped = try Resolver.resolve(
                key.with(type: Wrapped.self), from: resolver, arguments: arguments, site: site, in: .current)
            return Wrapped?.some(value) as Any
        } catch where error.isNotRegistered {
            return Wrapped?.none as Any
        }
    }
}
