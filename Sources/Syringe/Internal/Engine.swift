// One of the three files with unsafe constructs, each on the resolution path, each with its
// figure (callgrind, instructions of a static resolution in a release build; the alternative first):
// - `unsafeDowncast` to the generic boxes: a key for `T` is bound to a `Provider<T>`, whose stores
//   keep `Kept<T>`; a checked cast asks the runtime for the generic type's metadata every time
//   (cached singleton 1,180 → 266, when it was measured). The async path casts through the same
//   functions (``instance(in:as:)``, ``typed(_:as:)``, ``steps(_:of:)``, ``Plan``'s): a cached
//   singleton's `resolveAsync()`, 3,483 → 3,123;
// - `Unmanaged` in the walk along the parent chain, which the registries hold while the lock is
//   held (transient 1,449 → 1,273, cached singleton 924 → 730), and in ``Plan``, counted once
//   (transient 1,509 → 1,273);
// - a pointer to the caller's tuple for ``Arguments`` (a box cost an allocation a resolution with
//   arguments; an `Any?` of nil cost 48 instructions a transient resolution without);
// - raw memory for ``BindingTable``, which a `Dictionary` with unchecked exclusivity preceded (a
//   `Dictionary` with the checks: transient 1,354, singleton 811; without: 1,273 and 730; this
//   table: 1,224 and 682);
// - `Unmanaged` for a singleton's box, which its store holds while the read lock is held: the
//   instance is copied out under the lock instead of the box being retained, a write every thread
//   resolving the singleton shares (Benchmarks, two threads on a value singleton: 1.2 times the
//   throughput of one thread counted, 1.9 uncounted; one thread, 740 → 744 instructions).

/// The one path every resolution takes: lookup → plan → build → keep.
///
/// `resolver.resolve()` makes the key and calls ``resolve(_:from:provider:arguments:site:in:)``,
/// which reads top to bottom:
/// 1. Lookup and plan, under the read lock (``plan(_:from:provider:in:)``): the registration along
///    the parent chain, and either the instance kept for this resolution (which ends it) or the
///    store to build in and the container whose factory runs.
/// 2. Checks: a cycle, the depth, the stack (``start(_:_:key:site:in:)``).
/// 3. Build: a lifetime that shares its instance claims the build (one thread builds, others wait,
///    ``Construction``); the factory runs with no lock held, in a new frame of the path, on the
///    calling thread. A dependency's `resolve()` inside it starts this path over, one frame deeper.
/// 4. Keep: the store keeps the instance (shared ones under the write lock); `initCompleted` steps
///    run before the outermost resolution returns (``finish(_:_:with:in:)``).
///
/// The static twins, the property wrappers, `resolveAll()`, `.implements` keys and `verify()`
/// enter the same function. Only it and what handles the value itself are generic: the plan is
/// made without the type, so that a resolution asks the runtime for no generic type's metadata.
extension Resolver {
    /// The deepest resolution path followed before it is reported as a runaway recursion
    /// (registrations with arguments that resolve themselves are not caught as cycles).
    static let maximumDepth = 200

    /// What the look at the registrations decided, under the read lock.
    ///
    /// A trivial value, so that it passes from the lock to the build without being counted again:
    /// what it refers to is retained once while the lock is held (another thread may replace a
    /// registration, its store or the root meanwhile) and given up once. The spine of
    /// ``resolve(_:from:provider:arguments:site:in:)`` takes the subject and the resolver; a
    /// build's store and steps are given up by ``finish(_:_:with:in:)``, ``failed(_:with:key:site:in:)``
    /// or ``start(_:_:key:site:in:)`` when it ends the resolution. (An enum with class payloads was
    /// copied and counted again on the way: callgrind, a static transient resolution, 1,509
    /// instructions and 9 retains; 1,273 and 5 with this.)
    struct Plan {
        enum Kind {
            /// An instance kept for this resolution, which the plan's reader has read: the whole of it.
            case kept
            /// Build one with a registration (`subject`) that keeps nothing and has no
            /// `initCompleted` step: the factory's value is the whole of it.
            case transient
            /// Build one with the registration (`subject`) and keep it in `store`.
            case build
            /// A key written by `.implements` (`subject`, an ``Alias``): its target builds.
            case alias
            case missing
            /// A main-actor-bound registration (`subject`) reached off the main actor.
            case offMainActor
            /// A `verify()` run resolves in its own container (`subject`) instead
            /// (``VerificationRun/replacement(for:)``).
            case redirect
            /// A call outside any factory while a task-local binding may apply: it decides the
            /// container of a static call, and whether the call continues an async resolution.
            case unbound
            /// A synchronous resolution inside an async factory (`subject`, the task's innermost
            /// ``AsyncStep``): it continues that resolution's path.
            case seed
            /// `registerAllServices()` must run first: the resolution starts again after it, and a
            /// stop in it is reported at the line of the call.
            case bootstrap
            /// Settled inside ``plan(_:from:provider:in:)``, which looks again: the test container
            /// `owner` needs its own copy of the store of the registration `subject` first (`.copy`);
            /// the registry `subject` must be shared before this thread reads it (`.share`,
            /// ``Registry/isShared``).
            case copy, share
        }

        var kind: Kind
        /// What the plan is about (see ``Kind``), retained.
        var subject: Unmanaged<AnyObject>? = nil
        /// The container resolving, retained; nil for `.kept` and `.unbound`, which need none.
        var resolver: Unmanaged<Resolver>? = nil
        /// `.build`: where the instance is kept, retained.
        var store: Unmanaged<InstanceStore>? = nil
        /// `.build`: the registration's `initCompleted` steps (a ``Completion``), retained, if any.
        var completion: Unmanaged<AnyObject>? = nil
        /// `.build`: the container whose factory runs (and which static calls inside it use): the
        /// container resolving or one of its ancestors, which it holds.
        var builder: Unmanaged<Resolver>? = nil
        /// `.build`: the test container that keeps the instance, if one does; `.copy`: the one that
        /// needs its own copy of the store.
        unowned(unsafe) var owner: Resolver? = nil
        /// `.build`: whether the instance is the registration's first, which decides whether it is
        /// a ``Singleton`` when its type does not tell.
        var isFirst = false
        /// `.build`: whether one thread builds while the others wait: a lifetime that shares its
        /// instance, or the deciding first instance of a transient one.
        var isClaimed = false
        /// `.build`, `.transient`: the context factory that builds, counted from 1; 0: the
        /// registration's own (``AnyProvider/contextFactoryNumber(builtBy:)``).
        var contextFactory: Int32 = 0

        init(_ kind: Kind, _ subject: AnyObject? = nil) {
            self.kind = kind
            self.subject = subject.map(Unmanaged.passRetained)
        }

        /// Takes the retained subject (once).
        @inline(__always)
        func take<Subject: AnyObject>(_: Subject.Type) -> Subject {
            unsafeDowncast(subject.unsafelyUnwrapped.takeRetainedValue(), to: Subject.self)
        }

        /// Reads the subject, still held by the plan.
        @inline(__always)
        func peek<Subject: AnyObject, R>(_: Subject.Type, _ body: (Subject) -> R) -> R {
            subject.unsafelyUnwrapped._withUnsafeGuaranteedRef { body(unsafeDowncast($0, to: Subject.self)) }
        }

        /// Takes the container resolving (once).
        func takeResolver() -> Resolver { resolver.unsafelyUnwrapped.takeRetainedValue() }

        /// Takes a build's store and steps (once), and its builder, which the resolver holds.
        func takeBuild() -> (store: InstanceStore?, completion: AnyObject?, builder: Resolver?) {
            (store?.takeRetainedValue(), completion?.takeRetainedValue(), builder?.takeUnretainedValue())
        }

        /// Gives up everything the plan holds (once): a plan not followed.
        func release() {
            subject?.release()
            resolver?.release()
            releaseBuild()
        }

        /// Gives up a build's store and steps (once), if it has them.
        @inline(__always)
        func releaseBuild() {
            store?.release()
            completion?.release()
        }
    }

    /// How to keep an instance once built: what a `.build` plan held, counted as usual, for the
    /// steps that outlive the build (an `initCompleted` step publishes the instance later).
    struct Build {
        let provider: AnyProvider
        let store: InstanceStore
        unowned(unsafe) let builder: Resolver
        unowned(unsafe) let owner: Resolver?
        let isFirst: Bool
        let isClaimed: Bool
    }

    /// The instance in `kept`, which a store of a registration for `T` keeps.
    @inline(__always)
    static func instance<T>(in kept: AnyKept, as _: T.Type = T.self) -> T {
        unsafeDowncast(kept, to: Kept<T>.self).instance
    }

    /// `provider`, registered for `T`, with its type.
    @inline(__always)
    static func typed<T>(_ provider: AnyProvider, as _: T.Type = T.self) -> Provider<T> {
        unsafeDowncast(provider, to: Provider<T>.self)
    }

    /// The `initCompleted` steps a registration for `T` holds, with their type.
    @inline(__always)
    static func steps<T>(_ completion: AnyObject, of _: T.Type = T.self) -> Completion<T> {
        unsafeDowncast(completion, to: Completion<T>.self)
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
        // 1. Lookup and plan. A kept instance is copied under the lock into the thread's slot.
        let plan = self.plan(key, from: container, provider: given, in: resolution) {
            resolution.keptSlot(for: T.self).initialize(to: instance(in: $0))
        }
        if plan.kind == .kept { return resolution.keptSlot(for: T.self).move() }
        let resolver = plan.resolver.unsafelyUnwrapped.takeRetainedValue()
        guard plan.kind == .transient || plan.kind == .build else {
            return try resolver.resolveWithoutBuilding(
                plan, key: key, provider: given, arguments: arguments, site: site, in: resolution)
        }
        // 2. Checks, the claim of a build that happens once, and a new frame of the path, whose
        // container the factory receives.
        let provider = plan.take(Provider<T>.self)
        if let kept = try resolver.start(plan, provider, key: key, site: site, in: resolution) {
            return instance(in: kept)
        }
        // 3. Build.
        let value: T
        do {
            // Bound with `if let`: `unsafelyUnwrapped` would hand the closure back at the generic
            // abstraction level, and re-abstracting it costs an allocation a call. The container
            // the factory receives is held by the frame, uncounted (chain3 4,177 → 4,103).
            let builder = resolution.containerReference.unsafelyUnwrapped
            if plan.contextFactory != 0 {
                let make = provider.contextFactory(plan.contextFactory, in: resolution)
                value = try builder._withUnsafeGuaranteedRef { try make($0) }
            } else if let make = provider.simpleFactory {
                value = try make()
            } else if let make = provider.resolvingFactory {
                value = try builder._withUnsafeGuaranteedRef { try make($0) }
            } else if let make = provider.argumentFactory {
                value = try make.make(arguments?.values)
            } else {
                throw resolver.asyncFactoryError(provider, key: key, site: site, in: resolution)
            }
        } catch {
            throw resolver.failed(plan, with: error, key: key, site: site, in: resolution)
        }
        // 4. Keep, and leave the frame.
        guard plan.kind == .build else {
            try resolution.leaveTransient()
            return value
        }
        return try resolver.finish(plan, provider, with: value, in: resolution)
    }

    /// Looks the key (or the given registration) up along the parent chain of `container` (nil:
    /// ``current``) under the read lock, and settles what must happen before a resolution can go on:
    /// the bootstrap, a test container's own copy of a store.
    ///
    /// A kept instance is handed to `read` under the read lock, and the plan is `.kept`. `read`
    /// must keep what it reads (a copy of the instance, or the box): a box made for this read is
    /// given up before the lock is, and what it holds must not go with it.
    @inline(never)
    static func plan(
        _ key: Key, from container: Resolver?, provider given: AnyProvider?, in resolution: Resolution,
        bindingRead: Bool = false, reading read: (AnyKept) -> Void
    ) -> Plan {
        var isNewDependency = false
        var foundNoBinding = false
        let plan = registryLock.withReadLock(resolution.stripe) { () -> Plan in
            // While no binding exists, no task can see one: the task-local value is not read. When
            // one does, it is read here rather than in a second plan.
            var bound: Unmanaged<Resolver>?
            if resolution.depth == 0 && Globals.hasBindings && resolution.asyncStep == nil && !bindingRead {
                bound = boundContainerUnlessContinuing(foundNone: &foundNoBinding)
                if bound == nil { return Plan(.unbound) }  // continues an async build's path
            }
            guard
                let resolver = container.map(Unmanaged.passUnretained)
                    ?? resolution.threadContainer
                    ?? bound
                    ?? (Globals.hasBindings ? nil : Unmanaged.passUnretained(Globals.root))
            else { return Plan(.unbound) }
            isNewDependency = resolution.depth > 0 && resolution.isNewDependency(key)
            var plan = resolver._withUnsafeGuaranteedRef {
                $0.lookUp(key, provider: given, in: resolution, reading: read)
            }
            if plan.kind != .kept { plan.resolver = resolver.retain() }
            return plan
        }
        if isNewDependency { record(key, in: resolution) }
        if foundNoBinding { Globals.lowerBindingFlagUnlessBound() }
        guard plan.kind == .unbound || plan.kind == .copy || plan.kind == .share else { return plan }
        // Settled, then looked at again. A kept instance found then is read once what settling held
        // is given up: releasing it may run a deinitializer that resolves on this thread, into the
        // slot the caller reads.
        var kept: AnyKept?
        let settled = settle(plan, key, from: container, provider: given, in: resolution) { kept = $0 }
        if let kept { read(kept) }
        return settled
    }

    /// What ``plan(_:from:provider:in:bindingRead:reading:)`` does for `.unbound`, `.share` and
    /// `.copy`: the references they take are given up by the time this returns.
    @inline(never)
    private static func settle(
        _ plan: Plan, _ key: Key, from container: Resolver?, provider given: AnyProvider?, in resolution: Resolution,
        reading read: (AnyKept) -> Void
    ) -> Plan {
        switch plan.kind {
        case .unbound:
            let binding = Resolver.binding
            let resolver =
                container ?? resolution.threadContainer?.takeUnretainedValue() ?? binding?.container ?? Resolver.root
            if let step = binding?.asyncStep, resolution.depth == 0, resolution.asyncStep == nil {
                var plan = Plan(.seed, step)
                plan.resolver = .passRetained(resolver)
                return plan
            }
            return self.plan(key, from: resolver, provider: given, in: resolution, bindingRead: true, reading: read)
        case .share:
            let resolver = plan.resolver.unsafelyUnwrapped.takeRetainedValue()
            let registry = plan.take(Registry.self)
            registryLock.withWriteLock { _ in registry.isShared = true }
            return self.plan(key, from: resolver, provider: given, in: resolution, reading: read)
        default:  // .copy
            let resolver = plan.resolver.unsafelyUnwrapped.takeRetainedValue()
            let provider = plan.take(AnyProvider.self)
            registryLock.withWriteLock { provider.makeCopy(keptBy: plan.owner!, leftovers: &$0) }
            return self.plan(key, from: resolver, provider: given, in: resolution, reading: read)
        }
    }

    /// The container a call outside any factory resolves from: the task's binding's, else the root
    /// (`foundNone` set); nil when the call continues an async build's path instead. Read lock
    /// held: reading the task-local value runs no user code, and what it returns is also held by
    /// the task-local storage of a scope this call is inside, so it is used uncounted.
    @inline(never)
    private static func boundContainerUnlessContinuing(foundNone: inout Bool) -> Unmanaged<Resolver>? {
        guard let binding = Resolver.binding else {
            foundNone = true
            return .passUnretained(Globals.root)
        }
        return binding.asyncStep == nil ? .passUnretained(binding.container) : nil
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
    fileprivate func lookUp(
        _ key: Key, provider given: AnyProvider?, in resolution: Resolution, reading read: (AnyKept) -> Void
    ) -> Plan {
        if let sandbox = resolution.verification?.sandbox ?? resolution.asyncStep?.sandbox,
            let replacement = VerificationRun.replacement(for: self, in: sandbox)
        {
            return Plan(.redirect, replacement)
        }
        // Hashed once, before any table is read: hashing a name is a call, and a table read before
        // it was retained across it, a write to memory every thread shares (Benchmarks, two threads
        // resolving one value singleton: 1.2 → 1.9 times the throughput of one, with the uncounted
        // read of a singleton's box below).
        let hash = given == nil ? key._rawHashValue(seed: 0) : 0
        var container = Unmanaged.passUnretained(self)
        // The nearest test container on the way, which keeps its own instances.
        var owner: Unmanaged<Resolver>?
        while true {
            var unreadable: Registry?
            let found = container._withUnsafeGuaranteedRef { container -> Unmanaged<AnyBinding>? in
                let registry = container.registry
                if let given, registry === given.registry || container.parent == nil {
                    return .passUnretained(given)
                }
                guard given == nil else { return nil }
                guard registry.isReadable(by: resolution.stripe) else {
                    unreadable = registry
                    return nil
                }
                return registry.bindings.find(key, hash: hash)
            }
            if let unreadable { return Plan(.share, unreadable) }
            if let found {
                return found._withUnsafeGuaranteedRef { binding in
                    container._withUnsafeGuaranteedRef { container in
                        guard binding.aliasTarget == nil else { return Plan(.alias, binding) }
                        // A binding that is not an alias is a registration; the checked cast costs
                        // 5-6% (callgrind: transient 1,349 → 1,273, cached singleton 770 → 730).
                        let provider = unsafeDowncast(binding, to: AnyProvider.self)
                        return plan(
                            provider, in: container, owner: owner?.takeUnretainedValue(), for: resolution,
                            reading: read)
                    }
                }
            }
            let next = container._withUnsafeGuaranteedRef { container -> Unmanaged<Resolver>?? in
                if container.registry.bootstrapPending && !resolution.isBootstrapping { return .none }
                if container.isolatesCache && owner == nil { owner = .passUnretained(container) }
                return .some(container.parent.map(Unmanaged.passUnretained))
            }
            guard let next else { return Plan(.bootstrap) }
            guard let next else { return Plan(.missing) }
            container = next
        }
    }

    /// What a resolution of `provider`, registered in `container`, does. Read lock held.
    @inline(__always)
    private func plan(
        _ provider: AnyProvider, in container: Resolver, owner: Resolver?, for resolution: Resolution,
        reading read: (AnyKept) -> Void
    ) -> Plan {
        if provider.isMainActorBound && !resolution.isOnMainActor { return Plan(.offMainActor, provider) }
        guard
            let store = owner == nil
                ? Unmanaged.passUnretained(provider.store) : provider.store(keptBy: owner).map(Unmanaged.passUnretained)
        else {
            var plan = Plan(.copy, provider)
            plan.owner = owner
            return plan
        }
        // A test container decides for itself whether its first instance is a `Singleton`.
        let traits = owner.map { provider.traits(decidingFor: $0) } ?? provider.traits
        return store._withUnsafeGuaranteedRef {
            plan(provider, traits: traits, store: $0, in: container, owner: owner, for: resolution, reading: read)
        }
    }

    /// What a resolution of `provider` with `store` does. Read lock held.
    @inline(__always)
    private func plan(
        _ provider: AnyProvider, traits: AnyProvider.Traits, store: InstanceStore, in container: Resolver,
        owner: Resolver?, for resolution: Resolution, reading read: (AnyKept) -> Void
    ) -> Plan {
        if !resolution.provisional.isEmpty, let instance = resolution.provisional[ObjectIdentifier(store)] {
            read(instance)  // built in this resolution, waiting for its `initCompleted` step
            return Plan(.kept)
        }
        // A singleton's box is read uncounted: the store holds it while the read lock is held, and
        // threads resolving one singleton would otherwise all write its count (Benchmarks,
        // threads-2-value: 1.2 → 1.9 times the throughput of one thread, with the hash above; with
        // the hash alone, two threads were slower than one).
        if type(of: store) == SingletonStore.self || type(of: store) == FixedInstanceStore.self {
            if let box = unsafeDowncast(store, to: SingletonStore.self).instance.map(Unmanaged.passUnretained) {
                box._withUnsafeGuaranteedRef(read)
                return Plan(.kept)
            }
        } else if let instance = store.kept(for: resolution) {
            read(instance)
            return Plan(.kept)
        }
        let isFirst = traits.contains(.markerUndecided)
        if !isFirst && provider.completion == nil && type(of: store) == InstanceStore.self {
            var plan = Plan(.transient, provider)
            if traits.contains(.hasContexts) { plan.contextFactory = provider.contextFactoryNumber(builtBy: self) }
            return plan
        }
        var plan = Plan(.build, provider)
        plan.store = .passRetained(store)
        plan.completion = provider.completion.map(Unmanaged.passRetained)
        // A shared instance of a registration is built by the container that owns it, so that a
        // child's overrides never end up inside it; anything else by the container resolving.
        let builder = store.sharesInstances && owner == nil ? container : self
        plan.builder = .passUnretained(builder)
        if traits.contains(.hasContexts) { plan.contextFactory = provider.contextFactoryNumber(builtBy: builder) }
        plan.owner = owner
        plan.isFirst = isFirst
        // A `verify()` run's first instance is not claimed: it decides for its own container alone,
        // and the registration's may be in the making on the thread that waits for the run (a
        // factory that calls `verify()`), which the claim would wait for without end.
        plan.isClaimed = store.sharesInstances || (isFirst && !(store is GraphStore) && resolution.verification == nil)
        return plan
    }

    /// Checks a build (a cycle, the depth, the stack), claims it when it happens once, and enters its
    /// frame; returns the instance another thread built meanwhile instead, if one did. A build that
    /// ends here gives up its plan.
    @inline(never)
    fileprivate func start(
        _ plan: Plan, _ provider: AnyProvider, key: Key, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> AnyKept? {
        if key.arguments == nil && resolution.isBuilding(provider) {
            plan.releaseBuild()
            throw resolution.cycleError(closing: key, in: self, site: site)
        }
        if resolution.depth >= resolution.depthLimit || resolution.isShortOfStack {
            plan.releaseBuild()
            throw ResolutionError(.tooDeep, key: key, path: resolution.path, container: self, site: site)
        }
        if plan.isClaimed {
            let store = plan.store.unsafelyUnwrapped.takeUnretainedValue()
            let claim = Construction.shared.claim(store, subject: .instance(key), in: resolution) {
                registryLock.withReadLock(resolution.stripe) {
                    provider.keptInstance(forBuildIn: store, keptBy: plan.owner, for: resolution)
                }
            }
            switch claim {
            case .claimed: break
            case .existing(let instance):
                plan.releaseBuild()
                return instance
            case .loop(nil, _, _):
                plan.releaseBuild()
                throw resolution.cycleError(closing: key, in: self, site: site)
            case .loop(_, _, let builds):
                plan.releaseBuild()
                throw ResolutionError(
                    .cycle(builds), key: key, path: resolution.path, container: self, site: site,
                    suggestions: [Messages.cycleAcrossThreads])
            }
        }
        resolution.enter(Frame(provider: provider, site: site), in: plan.builder ?? .passUnretained(self))
        return nil
    }

    /// The error of an async registration with no instance kept, met on the synchronous path.
    @inline(never)
    fileprivate func asyncFactoryError(
        _ provider: AnyProvider, key: Key, site: SourceLocation?, in resolution: Resolution
    ) -> ResolutionError {
        ResolutionError(
            .asyncFactory, key: key, path: resolution.path, container: self, site: site,
            suggestions: Messages.asyncFactorySuggestions(for: key, registeredAt: provider.site))
    }

    /// Ends a build whose factory threw: the error with its path, and nothing kept.
    @inline(never)
    fileprivate func failed(
        _ plan: Plan, with error: any Error, key: Key, site: SourceLocation?, in resolution: Resolution
    ) -> ResolutionError {
        let failure = ResolutionError(
            error, key: key, path: resolution.path, container: resolution.container ?? self, site: site)
        if resolution.depth == 1 { resolution.settlePendingCompletions(succeeded: false) }
        // The claim goes before the frame: leaving the outermost one releases what the factory let
        // go, whose deinitializers may resolve the key again.
        if plan.isClaimed { Construction.shared.abandon(plan.store.unsafelyUnwrapped.takeUnretainedValue()) }
        resolution.leave()
        plan.releaseBuild()
        return failure
    }

    /// Keeps a built instance (published for the threads waiting for it; with `initCompleted` steps,
    /// once they have run) and leaves its frame; the outermost frame runs the steps first. Returns
    /// the instance to hand out.
    @inline(never)
    fileprivate func finish<T>(
        _ plan: Plan, _ provider: Provider<T>, with value: T, in resolution: Resolution
    ) throws(ResolutionError) -> T {
        defer { resolution.leave() }
        let build = Build(
            provider: provider, store: plan.store.unsafelyUnwrapped.takeRetainedValue(),
            builder: plan.builder!.takeUnretainedValue(),
            owner: plan.owner, isFirst: plan.isFirst, isClaimed: plan.isClaimed)
        let kept: T
        if let steps = plan.completion?.takeRetainedValue() {
            kept = keepCompleting(value, build, steps: Self.steps(steps), in: resolution)
        } else {
            kept = keep(value, build, isMarked: build.isFirst && value is any Singleton, in: resolution)
        }
        if resolution.depth == 1 && !resolution.pendingCompletions.isEmpty { try resolution.runPendingCompletions() }
        return kept
    }

    /// Keeps `value` in its store: shared instances under the write lock, published for the threads
    /// waiting for it. Returns the instance to hand out.
    ///
    /// A shared instance built while `initCompleted` steps of the resolution are pending may refer
    /// to an instance whose step has not run: it is published with them, once they have run (until
    /// then this thread alone sees it), so that no other thread gets it incomplete.
    func keep<T>(_ value: T, _ build: Build, isMarked: Bool, in resolution: Resolution) -> T {
        guard build.isClaimed || build.isFirst || build.store is GraphStore else { return value }
        if build.isClaimed && (build.store.sharesInstances || isMarked) && !resolution.pendingCompletions.isEmpty,
            let frame = resolution.innermostFrame
        {
            let id = ObjectIdentifier(build.store)
            resolution.provisional[id] = Kept(value)
            resolution.enqueueCompletion(frame, in: build.builder, value: value, step: { _, _ in }) { succeeded in
                resolution.provisional[id] = nil
                if succeeded {
                    _ = self.keep(value, build, isMarked: isMarked, in: resolution)
                } else {
                    Construction.shared.abandon(build.store)
                }
            }
            return value
        }
        let instance = Kept(value)
        var kept: AnyKept = instance
        // What the store lets go (an expired instance, say) is released after every lock, the
        // construction lock included, and after the resolution: its deinitializer may resolve,
        // also what this resolution is building.
        var replaced = Leftovers()
        let publish = {
            registryLock.withWriteLock { leftovers in
                if build.isFirst {
                    kept = build.provider.keepFirst(
                        instance, isMarked: isMarked, in: build.store, keptBy: build.owner, for: resolution,
                        from: self, leftovers: &leftovers)
                } else if let owner = build.owner, let current = build.provider.store(keptBy: owner),
                    current !== build.store, let first = current.kept(for: resolution)
                {
                    kept = first  // the test container's first instance, kept meanwhile as its own singleton
                } else {
                    build.store.keep(instance, for: resolution, from: self, leftovers: &leftovers)
                }
                replaced.take(&leftovers)
            }
        }
        if build.isClaimed {
            Construction.shared.finish(build.store, publish: publish)
        } else if build.isFirst {
            publish()
        } else {
            kept = resolution.keepInGraph(instance, for: build.store)  // a `.graph` instance
        }
        resolution.releaseAtEnd(&replaced)
        return Self.instance(in: kept)
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

    /// Everything but a build: the bootstrap, an alias, a miss, a main-actor registration off the
    /// main actor, a `verify()` run's own container. Each case in a function of its own keeps this frame small:
    /// it stays on the stack while an alias's or an Optional's resolution builds.
    @inline(never)
    fileprivate func resolveWithoutBuilding<T>(
        _ plan: Plan, key: Key, provider: AnyProvider?, arguments: Arguments?, site: SourceLocation?,
        in resolution: Resolution
    ) throws(ResolutionError) -> T {
        switch plan.kind {
        case .bootstrap:
            try resolveAfterBootstrap(key, provider: provider, arguments: arguments, site: site, in: resolution)
        case .seed:
            try resolveContinuing(
                plan.take(AsyncStep.self), key: key, provider: provider, arguments: arguments, site: site,
                in: resolution)
        case .redirect:
            try Resolver.resolveRedirected(
                key, to: plan.take(Resolver.self), provider: provider, arguments: arguments, site: site,
                in: resolution)
        case .alias: try resolve(plan.take(Alias.self), as: key, arguments: arguments, site: site, in: resolution)
        case .offMainActor: throw offMainActor(plan.take(AnyProvider.self), key: key, site: site, in: resolution)
        default: try resolveMissing(key, arguments: arguments, site: site, in: resolution)
        }
    }

    /// Runs `registerAllServices()` (a stop in it is reported at `site`), then resolves `key`.
    @inline(never)
    private func resolveAfterBootstrap<T>(
        _ key: Key, provider: AnyProvider?, arguments: Arguments?, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> T {
        bootstrapIfPending(resolution, calledAt: site)
        return try Resolver.resolve(
            key, from: self, provider: provider, arguments: arguments, site: site, in: resolution)
    }

    /// Resolves `key` as a part of the async resolution `step`, inside whose factory it was asked for.
    @inline(never)
    private func resolveContinuing<T>(
        _ step: AsyncStep, key: Key, provider: AnyProvider?, arguments: Arguments?, site: SourceLocation?,
        in resolution: Resolution
    ) throws(ResolutionError) -> T {
        step.provider.noteDependency(key)
        return try resolution.continuing(step) { () throws(ResolutionError) -> T in
            try Resolver.resolve(key, from: self, provider: provider, arguments: arguments, site: site, in: resolution)
        }
    }

    /// Resolves `key` in a `verify()` run's own container instead.
    @inline(never)
    private static func resolveRedirected<T>(
        _ key: Key, to sandbox: Resolver, provider: AnyProvider?, arguments: Arguments?, site: SourceLocation?,
        in resolution: Resolution
    ) throws(ResolutionError) -> T {
        try Resolver.resolve(key, from: sandbox, provider: provider, arguments: arguments, site: site, in: resolution)
    }

    /// Resolves a key written by `.implements` with its target.
    @inline(never)
    private func resolve<T>(
        _ alias: Alias, as key: Key, arguments: Arguments?, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> T {
        let value: Any
        do {
            value = try alias.target.resolveErased(
                as: key, from: self, arguments: arguments, site: site, in: resolution)
        } catch  where error.yieldsNothing(for: alias.target.key, atDepth: resolution.pathDepth) {
            throw error.asked(as: key)  // so that an Optional request of the key gives nil
        }
        guard let converted = value as? T else {
            throw ResolutionError(
                .notConvertible(from: type(of: value)), key: key, path: resolution.path, container: self, site: site,
                suggestions: [Messages.implementsFix(key, instanceType: type(of: value))])
        }
        return converted
    }

    /// What serves a key nothing is registered for: a registration whose only argument is Optional
    /// (called without arguments), or, for an Optional request, its wrapped type (nil when that is
    /// missing too). Each in a frame of its own, kept small: it stays on the stack while what it
    /// resolves builds.
    @inline(never)
    private func resolveMissing<T>(
        _ key: Key, arguments: Arguments?, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> T {
        if key.arguments == nil,
            let optionalArgument = withChainReadLock(resolution, { optionalArgumentProvider(for: key) })
        {
            return try resolveWithoutArguments(optionalArgument, site: site, in: resolution)
        }
        guard let optional = T.self as? any OptionalResolvable.Type else { throw .notRegistered }
        return try optional.resolveWrapped(key, arguments: arguments, in: self, site: site) as! T
    }

    /// Resolves a registration whose only argument is Optional without arguments.
    @inline(never)
    private func resolveWithoutArguments<T>(
        _ provider: AnyProvider, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> T {
        try Resolver.resolve(provider.key, from: self, provider: provider, site: site, in: resolution)
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

    /// Runs `body` under the read lock once every registry along the chain is readable by this
    /// thread (those that are not are shared first, ``Registry/isShared``): for what reads
    /// registrations other than a resolution's lookup, which shares as it goes.
    func withChainReadLock<R>(_ resolution: Resolution = .current, _ body: () throws -> R) rethrows -> R {
        let stripe = resolution.stripe
        let result = try registryLock.withReadLock(stripe) { () throws -> R? in
            var container: Resolver? = self
            while let current = container {
                guard current.registry.isReadable(by: stripe) else { return nil }
                container = current.parent
            }
            return try body()
        }
        if let result { return result }
        registryLock.withWriteLock { _ in
            var container: Resolver? = self
            while let current = container {
                current.registry.isShared = true
                container = current.parent
            }
        }
        return try registryLock.withReadLock(stripe, body)
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

    static func resolveWrappedAsync(
        _ key: Key, arguments: Any?, in resolver: Resolver?, site: SourceLocation?, isolation: isolated (any Actor)?
    ) async throws -> Any
}

extension Optional: OptionalResolvable {
    static func resolveWrapped(
        _ key: Key, arguments: Arguments?, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any {
        // Nil when nothing is registered for `Wrapped`, or its factory may yield no value and did.
        let wrapped = key.with(type: Wrapped.self)
        let resolution = Resolution.current
        do throws(ResolutionError) {
            let value: Wrapped = try Resolver.resolve(
                wrapped, from: resolver, arguments: arguments, site: site, in: resolution)
            return Wrapped?.some(value) as Any
        } catch  where error.isNotRegistered || error.yieldsNothing(for: wrapped, atDepth: resolution.pathDepth) {
            return Wrapped?.none as Any
        }
    }
}

/// A registry's registrations by key: the table every lookup reads.
///
/// Open addressing with linear probing, in memory of its own: a lookup hashes the key's type
/// identities, compares keys and hands the binding back without counting a reference (the table
/// holds it while the lock is held). A `Dictionary` in a class retained and released its storage
/// on every lookup, a write to memory every thread shares (callgrind, a static resolution:
/// transient 1,273 → 1,224 instructions, cached singleton 730 → 682, and two reference counts
/// fewer). A binding and its key share an entry, so that a lookup in a container whose table another
/// core wrote last (a request's, on a server) reads one cache line a probe where two arrays took two;
/// a free slot's key stays uninitialized (a registration, writing vacant keys: 5,344 instructions;
/// writing only the bindings: 5,110). Guarded by ``registryLock``.
final class BindingTable {
    /// An entry: the binding, retained by the table (nil marks a free slot, whose key is not
    /// initialized), then the key.
    private static let keyOffset = MemoryLayout<Unmanaged<AnyBinding>?>.stride
    private static let stride = keyOffset + MemoryLayout<Key>.stride
    private var entries: UnsafeMutableRawPointer
    private var capacity = 8
    private(set) var count = 0

    init() {
        entries = Self.allocate(capacity)
    }

    deinit {
        for index in 0..<capacity {
            guard let binding = binding(index).pointee else { continue }
            binding.release()
            key(index).deinitialize(count: 1)
        }
        entries.deallocate()
    }

    /// Free slots: only their bindings are written (nil).
    private static func allocate(_ capacity: Int) -> UnsafeMutableRawPointer {
        let entries = UnsafeMutableRawPointer.allocate(byteCount: capacity * stride, alignment: 16)
        for index in 0..<capacity {
            (entries + index &* stride).initializeMemory(as: Unmanaged<AnyBinding>?.self, to: nil)
        }
        return entries
    }

    /// Where the entry `index` of `entries` keeps its binding, and its key.
    @inline(__always)
    private static func slot(_ index: Int, in entries: UnsafeMutableRawPointer) -> (
        binding: UnsafeMutablePointer<Unmanaged<AnyBinding>?>, key: UnsafeMutableRawPointer
    ) {
        let entry = entries + index &* stride
        return (entry.assumingMemoryBound(to: Unmanaged<AnyBinding>?.self), entry + keyOffset)
    }

    @inline(__always)
    private func binding(_ index: Int) -> UnsafeMutablePointer<Unmanaged<AnyBinding>?> {
        Self.slot(index, in: entries).binding
    }

    /// The key of a bound entry.
    @inline(__always)
    private func key(_ index: Int) -> UnsafeMutablePointer<Key> {
        Self.slot(index, in: entries).key.assumingMemoryBound(to: Key.self)
    }

    var isEmpty: Bool { count == 0 }

    /// Every binding, in no particular order.
    var values: [AnyBinding] {
        (0..<capacity).compactMap { binding($0).pointee?.takeUnretainedValue() }
    }

    /// The binding of `key`.
    subscript(key: Key) -> AnyBinding? {
        find(key, hash: key._rawHashValue(seed: 0))?.takeUnretainedValue()
    }

    /// The binding of `key`, whose hash is `hash`, uncounted: valid while the lock is held.
    @inline(__always)
    func find(_ key: Key, hash: Int) -> Unmanaged<AnyBinding>? {
        let mask = capacity &- 1
        var index = hash & mask
        while let found = binding(index).pointee {
            if self.key(index).pointee == key { return found }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// Binds `binding.key`, returning what it replaces. Write lock held.
    func bind(_ new: AnyBinding) -> AnyBinding? {
        if (count + 1) * 4 > capacity * 3 { grow() }
        let mask = capacity - 1
        var index = new.key._rawHashValue(seed: 0) & mask
        while let existing = binding(index).pointee {
            if key(index).pointee == new.key {
                binding(index).pointee = .passRetained(new)
                return existing.takeRetainedValue()
            }
            index = (index + 1) & mask
        }
        Self.slot(index, in: entries).key.initializeMemory(as: Key.self, to: new.key)
        binding(index).pointee = .passRetained(new)
        count += 1
        return nil
    }

    /// Unbinds `key`, returning what it was bound to; the entries after it move back, so that no
    /// probe stops early. Write lock held.
    func unbind(_ key: Key) -> AnyBinding? {
        let mask = capacity - 1
        var index = key._rawHashValue(seed: 0) & mask
        while let existing = binding(index).pointee {
            guard self.key(index).pointee != key else {
                self.key(index).deinitialize(count: 1)
                binding(index).pointee = nil
                count -= 1
                closeGap(at: index)
                return existing.takeRetainedValue()
            }
            index = (index + 1) & mask
        }
        return nil
    }

    private func closeGap(at start: Int) {
        let mask = capacity - 1
        var gap = start
        var index = (start + 1) & mask
        while let moving = binding(index).pointee {
            let home = key(index).pointee._rawHashValue(seed: 0) & mask
            if (index - home) & mask >= (index - gap) & mask {
                key(gap).moveInitialize(from: key(index), count: 1)
                binding(gap).pointee = moving
                binding(index).pointee = nil
                gap = index
            }
            index = (index + 1) & mask
        }
    }

    private func grow() {
        let (oldEntries, oldCapacity) = (entries, capacity)
        capacity *= 2
        entries = Self.allocate(capacity)
        let mask = capacity - 1
        for old in 0..<oldCapacity {
            let (oldBinding, oldKey) = Self.slot(old, in: oldEntries)
            guard let moving = oldBinding.pointee else { continue }
            let movingKey = oldKey.assumingMemoryBound(to: Key.self).move()
            var index = movingKey._rawHashValue(seed: 0) & mask
            while binding(index).pointee != nil { index = (index + 1) & mask }
            Self.slot(index, in: entries).key.initializeMemory(as: Key.self, to: movingKey)
            binding(index).pointee = moving
        }
        oldEntries.deallocate()
    }
}

/// The runtime arguments of a resolution: a pointer to the caller's tuple, valid while the
/// resolution runs, so that a resolution with arguments allocates nothing for them and one without
/// passes a nil word.
struct Arguments {
    private let pointer: UnsafePointer<Any>

    /// The tuple of the values.
    var values: Any { pointer.pointee }

    /// Runs `body` with `values` as the arguments of the resolution it makes.
    static func with<R, E: Error>(_ values: Any, _ body: (Arguments) throws(E) -> R) throws(E) -> R {
        try withUnsafePointer(to: values) { pointer throws(E) in try body(Arguments(pointer: pointer)) }
    }
}

/// Whether every instance of `type` is exactly a `type` (a struct, an enum, a tuple, a function, a
/// metatype), so that the type alone tells whether its instances are ``Singleton``s and the first
/// build need not decide it.
///
/// Reads the metadata kind, the first word of a type's metadata in Swift's stable ABI (0x200
/// struct, 0x201 enum, 0x301 tuple, 0x302 function, 0x304 metatype; a class's first word is its
/// isa or 0, an existential's 0x303). An unsafe read, asked once a registration: without it, the
/// first resolution of every new registration is a claimed build that records the decision under
/// the write lock, which a server that registers a request's values in a container per request
/// pays three times a request (callgrind, a request's container with three values and a use case:
/// 39,258 → 22,112 instructions; `request-scope`: 20 → 12 allocations).
func instancesAreExactly<T>(_ type: T.Type) -> Bool {
    let kind = unsafeBitCast(type as Any.Type, to: UnsafePointer<UInt>.self).pointee
    return kind == 0x200 || kind == 0x201 || kind == 0x301 || kind == 0x302 || kind == 0x304
}
