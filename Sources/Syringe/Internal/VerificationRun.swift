/// One `verify()` run: builds every registration in a throw-away test container and learns
/// about every failure without stopping the program.
///
/// Registrations are built one after another on a worker thread. Where the program would stop
/// (a plain `resolve()` that fails inside a factory, a property wrapper of an object being
/// built, a default-argument `Resolver.resolve()`), ``abandonBuild(with:state:)`` records the
/// failure, gives up what the thread was building (its claims in ``Construction``, its pending
/// `initCompleted` steps, its `withContainer` bindings) and ends the worker without returning
/// into the factory; the run goes on with the next registration on a new worker. No Syringe
/// lock is held at such a point (no user code runs under one), so none is left behind, and
/// nothing waits for the ended thread. What the abandoned factories held of their own (a lock, a
/// dispatch queue they were synchronously on, a `static let` being initialized, the objects on
/// their stack) stays held: that is what `verify()` cannot give back (the Diagnostics article
/// lists it).
///
/// Resolutions a build starts from the verified container or its ancestors run in the run's
/// container (``replacement(for:)``); once the report is made, the run's container is emptied
/// on a worker too (``dismantle(lendingMainActor:)``).
///
/// A main-actor-bound registration is built on a worker too when the caller is main-actor code:
/// the caller waits for the worker meanwhile, so no other main-actor code runs, and the worker
/// runs main-actor factories as the main actor would (``runAsMainActor(_:)``). From other
/// callers such registrations are reported as skipped.
final class VerificationRun: @unchecked Sendable {
    // Unchecked Sendable: a worker and the thread that started it never run at once (the
    // caller waits for the worker to end), so every field is used by one thread at a time.

    /// Something to build.
    struct Item {
        /// The registration the item belongs to, for counting failed registrations.
        let owner: Key
        /// Builds it in the run's container.
        let build: (Resolver) throws(ResolutionError) -> Void
        /// Whether it must be built on the main actor.
        let isMainActorBound: Bool
        /// The path that led to it, for a `@LazyInject` request found while building `owner`.
        let prefix: [Key]
    }

    /// How an item ended.
    enum Outcome {
        case built
        case failed(ResolutionError)
        /// It reached a main-actor-bound registration on a worker that does not hold the main actor.
        case needsMainActor
    }

    /// The throw-away test container everything is built in.
    let sandbox: Resolver
    /// What to build; grows while building (requests of `@LazyInject` properties).
    private(set) var items: [Item] = []
    /// How each item ended, by index.
    private(set) var outcomes: [Int: Outcome] = [:]
    /// The index of the item being built.
    private var current = 0
    /// The first item no worker has taken yet.
    private var nextForWorkers = 0
    /// Lazy requests seen so far (key and declaration site), built once each.
    private var lazyRequests: Set<String> = []
    /// The `withContainer` bindings whose bodies are in progress on the worker, innermost last.
    private var openBindings: [ContainerBinding] = []
    /// Registrations whose `.weak` (or weakly scoped) lifetime met a value type, with that lifetime.
    private(set) var notHeldWeakly: [Key: String] = [:]
    /// Whether the workers hold the main actor for their caller, which waits for them on it:
    /// main-actor code runs on them as on the main actor (see ``runAsMainActor(_:)``).
    private(set) var lendsMainActor = false

    init(sandbox: Resolver) {
        self.sandbox = sandbox
    }

    func add(_ item: Item) {
        items.append(item)
    }

    /// Builds every item on workers. When the caller is main-actor code (`lendingMainActor`),
    /// it waits for the workers meanwhile, so the main actor is theirs: main-actor-bound
    /// registrations are built too (``lendsMainActor``). Otherwise those keep the
    /// ``Outcome/needsMainActor`` outcome and are reported as skipped.
    func run(lendingMainActor: Bool) {
        lendsMainActor = lendingMainActor
        defer { lendsMainActor = false }
        while nextForWorkers < items.count {
            guard onWorker({ [self] in buildRemaining() }) else {
                // No thread could be created: the rest is built here, where a failure that would
                // stop the program does, as `resolve()` would.
                buildRemaining()
                return
            }
        }
    }

    /// Empties the run's container once the report is made, on a worker as the builds were: a
    /// deinitializer that resolves from the verified container resolves in the run's container
    /// (never in the verified one), and one that fails ends only the worker.
    func dismantle(lendingMainActor: Bool) {
        lendsMainActor = lendingMainActor
        defer { lendsMainActor = false }
        current = -1
        // A deinitializer may resolve what was just dropped again: a few rounds empty it.
        for _ in 0..<Self.dismantlingRounds where !sandbox.keepsNothing {
            _ = onWorker { [sandbox] in
                sandbox.clearAllRegistrations()
                sandbox.dropAllCached()
            }
        }
    }

    /// Runs `body` on a new worker of this run, which holds the main actor when the run lends
    /// it, and waits until the worker ends (`body` returned, or a build ended the thread); false
    /// if no thread could be created.
    private func onWorker(_ body: @escaping () -> Void) -> Bool {
        runOnNewThread(stackSize: Self.workerStackSize) { [self] in
            let state = ThreadState.current
            state.verification = self
            state.callerIsOnMainActor = lendsMainActor
            body()
            state.callerIsOnMainActor = false
            state.verification = nil
        }
    }

    /// How many rounds emptying takes at most: a chain of deinitializers each resolving the next
    /// refills the container once a link. What is left after them is released with the container.
    private static let dismantlingRounds = 32

    /// Builds the items no thread has taken yet, in order (those found meanwhile included).
    private func buildRemaining() {
        while nextForWorkers < items.count {
            let index = nextForWorkers
            nextForWorkers += 1
            if items[index].isMainActorBound && !lendsMainActor {
                outcomes[index] = .needsMainActor
            } else {
                current = index
                outcomes[index] = build(index)
            }
        }
    }

    /// Builds item `index` on this thread.
    private func build(_ index: Int) -> Outcome {
        let item = items[index]
        do {
            try item.build(sandbox)
            return .built
        } catch  where item.prefix.isEmpty && error.yieldsNothing(for: item.owner, atDepth: 0) {
            return .built  // a registration that may legitimately yield no value
        } catch {
            if case .offMainActor = error.reason, !lendsMainActor { return .needsMainActor }
            return .failed(error.prefixed(by: item.prefix))
        }
    }

    /// The stack of a worker: room for ``Resolver/maximumDepth`` levels of an unoptimized build.
    static let workerStackSize = StackGuard.continuationStackSize

    // MARK: Where the program would stop

    /// Records that the build in progress on this worker reached a point where the program
    /// would stop with `error`, and ends the worker.
    func abandonBuild(with error: ResolutionError, state: ThreadState) -> Never {
        let prefix = items.indices.contains(current) ? items[current].prefix : []
        if !items.indices.contains(current) {
            // Emptying the run's container (``dismantle()``): nothing to report.
        } else if case .offMainActor = error.reason {
            outcomes[current] = .needsMainActor
        } else {
            outcomes[current] = .failed(error.prefixed(by: prefix))
        }
        state.settlePendingCompletions(succeeded: false)
        // `withContainer` bodies the thread is in never end: their bindings leave the count.
        let bindings = openBindings
        openBindings = []
        for binding in bindings { binding.uncount() }
        let provisional = state.provisional
        state.provisional = [:]
        Construction.shared.abandonAll(claimedBy: state)
        withExtendedLifetime(provisional) {}  // released before the thread ends, no lock held
        ThreadState.endThread()
    }

    /// Notes a `@LazyInject` (or `@WeakLazyInject`) property of an object built by this run:
    /// what it will resolve is built as an item of its own, its path starting with the object's.
    func noteLazyRequest<T>(_ request: InjectionRequest, in resolver: Resolver, as type: T.Type, state: ThreadState) {
        // While the run's container is emptied, no item is being built: nothing to check.
        guard items.indices.contains(current),
            lazyRequests.insert("\(request.key)@\(request.site)").inserted
        else { return }
        let key = request.key
        let site = request.site
        // The verified container (or an ancestor) given explicitly is built in, as a resolution
        // from it would be; another container is only checked.
        let explicit = resolver === sandbox || replacement(for: resolver) != nil ? nil : resolver
        items.append(
            Item(
                owner: items[current].owner,
                build: { sandbox throws(ResolutionError) in
                    if let explicit {
                        // Another container, given explicitly: checked without building in it.
                        guard explicit.isRegisteredKey(key) else {
                            throw explicit.missingError(for: key, site: site, path: [])
                        }
                        return
                    }
                    let _: T = try sandbox.resolveOrThrow(key, site: site)
                },
                isMainActorBound: false, prefix: state.path))
    }

    /// The container to resolve in instead of `resolver`: the run's own, when `resolver` is the
    /// verified container or one of its ancestors (a factory that resolves from a container it
    /// captured, `Resolver.main`, or an `@Inject(container:)` property), so that what `verify()`
    /// builds never lands in their caches. Nil for any other container.
    func replacement(for resolver: Resolver) -> Resolver? {
        guard resolver !== sandbox else { return nil }
        var container = sandbox.parent
        while let current = container {
            if current === resolver { return sandbox }
            container = current.parent
        }
        return nil
    }

    /// Notes a `withContainer` body starting on this run's worker. Worker only.
    func noteOpen(_ binding: ContainerBinding) {
        openBindings.append(binding)
    }

    /// Notes the end of the innermost `withContainer` body noted open. Worker only.
    func noteClosed(_ binding: ContainerBinding) {
        if openBindings.last === binding { openBindings.removeLast() }
    }

    /// Notes that a registration with a lifetime that holds instances weakly built a value type.
    func noteNotHeldWeakly(_ key: Key, lifetime: String) {
        notHeldWeakly[key] = lifetime
    }
}

extension ThreadState {
    /// Where the program would stop with `error`: in a `verify()` run, the run records it and
    /// the thread ends (``VerificationRun/abandonBuild(with:state:)``); otherwise this returns.
    @inline(never)
    func stopIfVerifying(_ error: @autoclosure () -> ResolutionError) {
        // A failing `registerAllServices()` stops the program as it would at run time: the
        // bootstrap holds its own lock, which an ended thread would never give back.
        guard let verification, !isBootstrapping else { return }
        verification.abandonBuild(with: error(), state: self)
    }

    /// Where the program would stop with `message` (not a resolution error) while resolving a
    /// `type` asked for at `site`: in a `verify()` run, recorded as a ``ResolutionError/Reason/stopped(_:)``.
    func stopIfVerifying(message: String, type: Any.Type, site: SourceLocation?) {
        guard let verification, !isBootstrapping else { return }
        let key = Key(type)
        verification.abandonBuild(
            with:
                ResolutionError(
                    .stopped(message), key: key, path: path, container: container ?? verification.sandbox, site: site),
            state: self)
    }
}
