#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `verify()` run: builds every registration in a throw-away test container and learns about
/// every failure without stopping the program. How it goes on past a failure lives here.
///
/// Registrations are built one after another on a worker thread, the only threads Syringe starts.
/// Where the program would stop (a plain `resolve()` that fails inside a factory, a property
/// wrapper of an object being built, a default-argument `Resolver.resolve()`),
/// ``abandonBuild(with:resolution:)`` records the failure, gives up what the worker was building
/// (its claims in ``Construction``, its pending `initCompleted` steps, its `withContainer`
/// bindings) and ends the worker without returning into the factory; the run goes on with the next
/// registration on a new worker. No Syringe lock is held at such a point, so none is left behind.
/// What the abandoned factories held of their own (a lock, a `static let` being initialized, the
/// objects on their stack) stays held: the Diagnostics article lists it.
///
/// Resolutions a build starts from the verified container or its ancestors run in the run's
/// container (``replacement(for:)``); once the report is made, the run's container is emptied on a
/// worker too (``dismantle(lendingMainActor:)``).
///
/// From main-actor code, the workers hold the main actor for the caller, which waits for them:
/// main-actor factories run on them (``runAsMainActor(_:)``). From other code, main-actor-bound
/// registrations are reported as skipped.
final class VerificationRun: @unchecked Sendable {
    // Unchecked Sendable: a worker and the thread that started it never run at once (the caller
    // waits for the worker to end), so every field is used by one thread at a time.

    /// Something to build.
    struct Item {
        /// The registration the item belongs to.
        let owner: Key
        /// Builds it in the run's container.
        let build: (Resolver) throws(ResolutionError) -> Void
        let isMainActorBound: Bool
        /// The path that led to it, for a `@LazyInject` request found while building `owner`.
        let prefix: [Key]
    }

    enum Outcome {
        case built
        case failed(ResolutionError)
        /// It reached a main-actor-bound registration on a worker that does not hold the main actor.
        case needsMainActor
        /// It reached an async registration that keeps its instance, which `verify()` does not build
        /// (an app resolves it with `resolveAsync()` first).
        case needsAsyncInstance
    }

    /// The throw-away test container everything is built in.
    let sandbox: Resolver
    /// What to build; grows while building (requests of `@LazyInject` properties).
    private(set) var items: [Item] = []
    private(set) var outcomes: [Int: Outcome] = [:]
    /// The item being built, and the first no worker has taken yet.
    private var current = 0
    private var next = 0
    /// Lazy requests seen so far (key and declaration site), built once each.
    private var lazyRequests: Set<String> = []
    /// The `withContainer` bindings whose bodies are in progress on the worker, innermost last.
    private var openBindings: [ContainerBinding] = []
    /// What the stores let go during builds that ended their worker.
    private var abandoned = Leftovers()
    /// Registrations whose weak lifetime met a value type, with that lifetime.
    private(set) var notHeldWeakly: [Key: String] = [:]
    /// Whether the workers hold the main actor for their caller, which waits for them on it.
    private(set) var lendsMainActor = false

    /// Whether the async registrations were built before this run (`verifyAsync()`).
    let builtAsync: Bool

    init(sandbox: Resolver, builtAsync: Bool) {
        self.sandbox = sandbox
        self.builtAsync = builtAsync
    }

    func add(_ item: Item) {
        items.append(item)
    }

    /// Builds every item on workers; main-actor-bound ones only when `lendingMainActor` (the caller is
    /// main-actor code), else they keep the ``Outcome/needsMainActor`` outcome.
    func run(lendingMainActor: Bool) {
        lendsMainActor = lendingMainActor
        defer { lendsMainActor = false }
        while next < items.count {
            // Where no thread can be created, the rest is built here, stopping where `resolve()` would.
            guard onWorker({ [self] in buildRemaining() }) else { return buildRemaining() }
        }
    }

    /// Empties the run's container once the report is made, on a worker as the builds were, so that
    /// a deinitializer that resolves lands in the run's container and one that fails ends only the
    /// worker. A deinitializer may resolve what was just dropped again: a few rounds empty it.
    func dismantle(lendingMainActor: Bool) {
        lendsMainActor = lendingMainActor
        defer { lendsMainActor = false }
        current = -1
        if !abandoned.isEmpty {
            _ = onWorker { [self] in
                var items = Leftovers()
                items.take(&abandoned)
                items.release()  // and let go here, on the worker, at the end of the closure
            }
        }
        for _ in 0..<32 where !sandbox.keepsNothing {
            _ = onWorker { [sandbox] in
                sandbox.clearAllRegistrations()
                sandbox.dropAllCached()
            }
        }
    }

    /// Runs `body` on a new worker of this run and waits until it ends (`body` returned, or a build
    /// ended the thread); false if no thread could be created.
    private func onWorker(_ body: @escaping () -> Void) -> Bool {
        runOnNewThread { [self] in
            let resolution = Resolution.current
            resolution.verification = self
            resolution.callerIsOnMainActor = lendsMainActor
            body()
            resolution.callerIsOnMainActor = false
            resolution.verification = nil
        }
    }

    private func buildRemaining() {
        while next < items.count {
            let index = next
            next += 1
            guard !items[index].isMainActorBound || lendsMainActor else {
                outcomes[index] = .needsMainActor
                continue
            }
            current = index
            outcomes[index] = build(items[index])
        }
    }

    private func build(_ item: Item) -> Outcome {
        do {
            try item.build(sandbox)
            return .built
        } catch  where item.prefix.isEmpty && error.yieldsNothing(for: item.owner, atDepth: 0) {
            return .built  // a registration that may legitimately yield no value
        } catch {
            return outcome(of: error, prefix: item.prefix)
        }
    }

    /// What a build that failed with `error` reports: a failure, or what it could not be built without.
    private func outcome(of error: ResolutionError, prefix: [Key]) -> Outcome {
        switch error.reason {
        case .offMainActor where !lendsMainActor:
            return .needsMainActor
        case .asyncFactory where !builtAsync:
            let keepsInstances = sandbox.withChainReadLock {
                sandbox.visibleBinding(for: error.key)?.provider.store.sharesInstances ?? false
            }
            return keepsInstances ? .needsAsyncInstance : .failed(error.prefixed(by: prefix))
        default:
            return .failed(error.prefixed(by: prefix))
        }
    }

    // MARK: Where the program would stop

    /// Records that the build in progress on this worker reached a point where the program would
    /// stop with `error`, and ends the worker.
    func abandonBuild(with error: ResolutionError, resolution: Resolution) -> Never {
        if items.indices.contains(current) {  // else: emptying the run's container, nothing to report
            outcomes[current] = outcome(of: error, prefix: items[current].prefix)
        }
        resolution.settlePendingCompletions(succeeded: false)
        // `withContainer` bodies the thread is in never end: their bindings leave the count.
        for binding in openBindings { binding.uncount() }
        openBindings = []
        resolution.provisional = [:]
        Construction.shared.abandonAll(claimedBy: resolution)
        // The top-level resolution that would release them never ends; released by `dismantle`,
        // on a worker of their own (a deinitializer must not meet this build's frames).
        abandoned.take(&resolution.leftovers)
        pthread_exit(nil)
    }

    /// Notes a `@LazyInject` (or `@WeakLazyInject`) property of an object built by this run: what it
    /// will resolve is built as an item of its own, its path starting with the object's.
    func noteLazyRequest<T>(_ request: InjectionRequest, in resolver: Resolver, as type: T.Type, path: [Key]) {
        guard items.indices.contains(current), lazyRequests.insert("\(request.key)@\(request.site)").inserted
        else { return }
        let key = request.key
        let site = request.site
        // The verified container (or an ancestor) is built in, as a resolution from it would be;
        // another container given explicitly is only checked.
        let explicit = resolver === sandbox || replacement(for: resolver) != nil ? nil : resolver
        let item = Item(
            owner: items[current].owner,
            build: { sandbox throws(ResolutionError) in
                guard let explicit else {
                    do throws(ResolutionError) {
                        let _: T = try Resolver.resolve(key, from: sandbox, site: site, in: .current)
                    } catch {
                        throw error.isNotRegistered ? sandbox.missingError(for: key, site: site) : error
                    }
                    return
                }
                guard explicit.isRegisteredKey(key) else { throw explicit.missingError(for: key, site: site, path: []) }
            }, isMainActorBound: false, prefix: path)
        items.append(item)
    }

    /// The container to resolve in instead of `resolver`: the run's own, when `resolver` is the
    /// verified container or one of its ancestors (a factory that captured it, `Resolver.main`, an
    /// `@Inject(container:)` property), so that what `verify()` builds never lands in their caches.
    func replacement(for resolver: Resolver) -> Resolver? {
        Self.replacement(for: resolver, in: sandbox)
    }

    /// ``replacement(for:)`` for a run whose container is `sandbox`: `verifyAsync()`'s async builds
    /// carry their run's container (``ContainerBinding/sandbox``).
    static func replacement(for resolver: Resolver, in sandbox: Resolver) -> Resolver? {
        guard resolver !== sandbox else { return nil }
        var container = sandbox.parent
        while let ancestor = container {
            if ancestor === resolver { return sandbox }
            container = ancestor.parent
        }
        return nil
    }

    /// Notes a `withContainer` body starting and ending on this run's worker.
    func noteOpen(_ binding: ContainerBinding) {
        openBindings.append(binding)
    }

    func noteClosed(_ binding: ContainerBinding) {
        if openBindings.last === binding { openBindings.removeLast() }
    }

    /// Notes that the registration being built has a weak lifetime and built a value type.
    func noteNotHeldWeakly(lifetime: String, resolution: Resolution) {
        if let key = resolution.innermostFrame?.provider.key { notHeldWeakly[key] = lifetime }
    }
}

extension Resolution {
    /// Where the program would stop with `error`: in a `verify()` run, the run records it and the
    /// thread ends; otherwise this returns. A failing `registerAllServices()` stops the program as it
    /// would at run time (the bootstrap holds its lock, which an ended thread would never give back).
    func stopIfVerifying(_ error: @autoclosure () -> ResolutionError) {
        guard let verification, !isBootstrapping else { return }
        verification.abandonBuild(with: error(), resolution: self)
    }
}
