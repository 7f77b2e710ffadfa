/// The async path: `resolveAsync()`, and what builds registrations with an `async` factory.
///
/// It is the synchronous path with suspension points, not a second engine:
/// 1. Lookup and plan: ``Resolver/plan(_:from:provider:in:bindingRead:)`` on the calling thread.
///    An instance kept for this resolution ends it. Anything but the build of an async
///    registration (a synchronous registration, a miss, a `verify()` run's container) is the
///    synchronous path's, run on this thread.
/// 2. Checks: a cycle along the task's path, the depth.
/// 3. Build: the factory runs in the calling task, inside an ``AsyncStep``, the task-local
///    ``ContainerBinding`` that names the registration: static calls in it use the container building, and
///    the synchronous resolutions it makes continue the task's path on whatever thread it runs
///    (``Resolution/continuing(_:_:)``). An instance that several resolutions share is built once:
///    the first caller starts the build as a task of its own, so that no waiter's cancellation
///    cancels it, and every caller suspends until it ends (``AsyncFlight``); no thread blocks.
/// 4. Keep: the `initCompleted` steps run, then the store keeps the instance, as on the
///    synchronous path (``Resolver/keep(_:_:isMarked:in:)``).
extension Resolver {
    /// Resolves `key` from `container` (nil: ``current``), building async registrations too;
    /// throws ``ResolutionError/notRegistered`` when nothing is registered for it, and
    /// `CancellationError` when `cancellable` and the task is cancelled while it waits for
    /// another task's build.
    static func resolveAsync<T>(
        _ key: Key, from container: Resolver?, provider given: AnyProvider? = nil, arguments: Any? = nil,
        site: SourceLocation?, cancellable: Bool = false, isolation: isolated (any Actor)?
    ) async throws -> T {
        // A static call resolves from the innermost binding's container: a `withContainer` body's,
        // else the one building the factory it is made in.
        let binding = Resolver.binding
        let container = container ?? binding?.container
        let step = binding?.asyncStep
        step?.provider.noteDependency(key)
        // 1. Lookup and plan.
        let resolution = Resolution.current
        let found = resolution.continuing(step) { lookUpAsync(key, from: container, provider: given, in: resolution) }
        switch found {
        case .kept(let kept):
            return instance(in: kept)
        case .redirect(let sandbox):
            return try await resolveAsync(
                key, from: sandbox, provider: given, arguments: arguments, site: site, cancellable: cancellable,
                isolation: isolation)
        case .alias(let alias, let resolver):
            let value = try await alias.target.resolveErasedAsync(
                as: key, from: resolver, arguments: arguments, site: site, isolation: isolation)
            guard let converted = value as? T else {
                throw ResolutionError(
                    .notConvertible(from: type(of: value)), key: key, path: step?.path ?? [], container: resolver,
                    site: site, suggestions: [Messages.implementsFix(key, instanceType: type(of: value))])
            }
            return converted
        case .build(var build):
            build.sandbox = binding?.sandbox
            return try await self.build(
                build, key: key, arguments: arguments, site: site, step: step, cancellable: cancellable,
                isolation: isolation)
        case .missing where T.self is any OptionalResolvable.Type:
            let optional = T.self as! any OptionalResolvable.Type
            return try await optional.resolveWrappedAsync(
                key, arguments: arguments, in: container, site: site, isolation: isolation) as! T
        case .missing, .synchronous:
            let outcome: Result<T, ResolutionError> = Result { () throws(ResolutionError) -> T in
                try resolveSynchronously(
                    key, from: container, provider: given, arguments: arguments, site: site, step: step,
                    isolation: isolation)
            }
            guard case .failure(let error) = outcome, error.reason.isAsyncFactory, error.key == key, given == nil
            else { return try outcome.get() }
            // Another thread registered an async factory for the key since it was looked up.
            return try await resolveAsync(
                key, from: container, arguments: arguments, site: site, cancellable: cancellable, isolation: isolation)
        }
    }

    /// What the synchronous path does with `key`, on this thread, as a part of the async
    /// resolution `step`.
    private static func resolveSynchronously<T>(
        _ key: Key, from container: Resolver?, provider given: AnyProvider?, arguments: Any?, site: SourceLocation?,
        step: AsyncStep?, isolation: isolated (any Actor)?
    ) throws(ResolutionError) -> T {
        let resolution = Resolution.current
        let mark = MainActorMark(isolation, resolution)
        defer { mark.end(resolution) }
        return try resolution.continuing(step) { () throws(ResolutionError) -> T in
            guard let arguments else {
                return try Resolver.resolve(key, from: container, provider: given, site: site, in: resolution)
            }
            return try Arguments.with(arguments) { arguments throws(ResolutionError) in
                try Resolver.resolve(
                    key, from: container, provider: given, arguments: arguments, site: site, in: resolution)
            }
        }
    }

    /// The path of the async resolution this task is building, outside its synchronous parts.
    static var asyncPath: [Key] { binding?.asyncStep?.path ?? [] }

    /// What the async path does with `key`.
    private enum AsyncLookup {
        case kept(AnyKept)
        case build(AsyncBuild)
        case alias(Alias, Resolver)
        /// A `verify()` or `verifyAsync()` run resolves in its own container instead.
        case redirect(Resolver)
        /// Nothing is registered for the key itself.
        case missing
        /// What the synchronous path does, which it looks up again.
        case synchronous
    }

    private static func lookUpAsync(
        _ key: Key, from container: Resolver?, provider given: AnyProvider?, in resolution: Resolution
    ) -> AsyncLookup {
        var kept: AnyKept?
        let plan = Resolver.plan(key, from: container, provider: given, in: resolution) { kept = $0 }
        switch plan.kind {
        case .kept:
            return .kept(kept.unsafelyUnwrapped)
        case .transient, .build:
            // A context factory is synchronous: the synchronous path builds with it.
            if plan.contextFactory == 0,
                plan.peek(AnyProvider.self, { $0.isAsync })
            {
                return .build(AsyncBuild(taking: plan))
            }
        case .alias:
            if plan.peek(Alias.self, { $0.target.isAsync }) {
                return .alias(plan.take(Alias.self), plan.takeResolver())
            }
        case .missing:
            plan.release()
            return .missing
        case .redirect:
            plan.resolver?.release()
            return .redirect(plan.take(Resolver.self))
        default:
            break
        }
        plan.release()
        return .synchronous
    }

    /// Checks the build of an async registration and runs it, or waits for the one in flight.
    @inline(__always)
    private static func build<T>(
        _ build: AsyncBuild, key: Key, arguments: Any?, site: SourceLocation?, step: AsyncStep?,
        cancellable: Bool, isolation: isolated (any Actor)?
    ) async throws -> T {
        // 2. Checks.
        if key.arguments == nil && step?.isBuilding(build.provider) == true {
            let path = step?.path ?? []
            throw ResolutionError(.cycle(of: path + [key]), key: key, path: path, container: build.resolver, site: site)
        }
        if let step, step.depth >= maximumDepth {
            throw ResolutionError(.tooDeep, key: key, path: step.path, container: build.resolver, site: site)
        }
        // A shared instance is built once for everyone; so is the first instance of a registration
        // whose type does not say whether it is a `Singleton` (its build decides), but it is
        // everyone's only if it turns out to be one, as on the synchronous path.
        guard build.isClaimed, let store = build.store else {
            return try await run(
                build, key: key, arguments: arguments, site: site, step: step, cancellable: cancellable,
                isolation: isolation)
        }
        // 3. Build once: join the build in flight, or start it. The build this task runs, if
        // any, waits for it meanwhile: a wait that would close a loop of builds is a cycle.
        let holder = step?.innermostFlight
        let joined = AsyncFlight.join(store, building: key, waitingFor: holder, path: step?.path ?? [], site: site) {
            registryLock.withReadLock(Resolution.current.stripe) {
                build.provider.keptInstance(forBuildIn: store, keptBy: build.owner, for: .current)
            }
        }
        let kept: AnyKept
        switch joined {
        case .existing(let instance):
            kept = instance
        case .loop(let keys):
            let path = step?.path ?? []
            throw ResolutionError(.cycle(of: path + keys), key: key, path: path, container: build.resolver, site: site)
        case .joined(let flight) where !store.sharesInstances:
            defer { holder?.stopWaiting(for: flight) }
            do {
                _ = try await flight.wait(cancellable: cancellable)
            } catch is CancellationError where cancellable && Task.isCancelled {
                throw CancellationError()  // this caller's task is cancelled
            } catch {
                // The first build failed (its caller's task cancelled, say): the next is the first,
                // built by one caller while the others wait for it.
                return try await self.build(
                    build, key: key, arguments: arguments, site: site, step: step, cancellable: cancellable,
                    isolation: isolation)
            }
            // A Singleton kept for this container is everyone's. Another container's first instance
            // (a test container's, its parent's) decides nothing here: while this container's first
            // is still to be built, it is built as a first one, once.
            let (own, undecided) = registryLock.withReadLock(Resolution.current.stripe) { () -> (AnyKept?, Bool) in
                let traits = build.owner.map { build.provider.traits(decidingFor: $0) } ?? build.provider.traits
                return (
                    build.provider.store(keptBy: build.owner)?.kept(for: .current), traits.contains(.markerUndecided)
                )
            }
            if let own {
                kept = own
            } else if undecided {
                return try await self.build(
                    build, key: key, arguments: arguments, site: site, step: step, cancellable: cancellable,
                    isolation: isolation)
            } else {
                return try await run(
                    build, key: key, arguments: arguments, site: site, step: step, cancellable: cancellable,
                    isolation: isolation)
            }
        case .joined(let flight):
            defer { holder?.stopWaiting(for: flight) }
            do {
                kept = try await flight.wait(cancellable: cancellable)
            } catch let error as ResolutionError {
                // Its path and site, not those of the caller that started the build.
                throw error.rebased(
                    dropping: flight.starterPathCount, onto: step?.path ?? [], site: site, replacing: flight.starterSite
                )
            }
            // A first instance that was not kept (a test container's copy of a Singleton store whose
            // own first instance is not one) is the caller's that built it: each builds its own.
            if build.isFirst,
                registryLock.withReadLock(
                    Resolution.current.stripe,
                    {
                        build.provider.keptInstance(forBuildIn: store, keptBy: build.owner, for: .current)
                    }) == nil
            {
                return try await run(
                    build, key: key, arguments: arguments, site: site, step: step, cancellable: cancellable,
                    isolation: isolation)
            }
        case .started(let flight) where !store.sharesInstances:
            // The first instance of a registration that keeps none is built in the caller's task,
            // as every later one is; the others wait only to see whether it is a `Singleton`.
            defer { holder?.stopWaiting(for: flight) }
            do {
                let value: T = try await run(
                    build, key: key, arguments: arguments, site: site, step: step, flight: flight,
                    cancellable: cancellable, isolation: isolation)
                flight.finish(.success(Kept(value)))
                return value
            } catch {
                flight.finish(.failure(error))
                throw error
            }
        case .started(let flight):
            defer { holder?.stopWaiting(for: flight) }
            startFlight(flight, build, as: T.self, key: key, site: site, step: step)
            kept = try await flight.wait(cancellable: cancellable)
        }
        return instance(in: kept)
    }

    /// Runs a shared instance's build as a task of its own, which ends `flight`.
    private nonisolated static func startFlight<T>(
        _ flight: AsyncFlight, _ build: AsyncBuild, as type: T.Type, key: Key, site: SourceLocation?,
        step: AsyncStep?
    ) {
        step?.outermost.holdGraph()  // taken now: the caller may end before the task starts
        Task {
            do {
                let value: T = try await run(
                    build, key: key, arguments: nil, site: site, step: step, flight: flight, ownTask: true,
                    isolation: nil)
                flight.finish(.success(Kept(value)))
            } catch {
                flight.finish(.failure(error))
            }
        }
    }

    /// Runs the factory in a step of the task's path, then keeps the instance.
    ///
    /// A shared instance's build runs in a task of its own (`ownTask`), for every caller. It is part
    /// of the async resolution of the caller that started it (its `.graph` instances are that
    /// resolution's), which ends when both have ended: the caller may end first (cancelled, say).
    private static func run<T>(
        _ build: AsyncBuild, key: Key, arguments: Any?, site: SourceLocation?, step: AsyncStep?,
        flight: AsyncFlight? = nil, ownTask: Bool = false, cancellable: Bool = true, isolation: isolated (any Actor)?
    ) async throws -> T {
        let provider = typed(build.provider, as: T.self)
        let binding = AsyncStep(
            build.builder, provider: provider, key: key, site: site, flight: flight, enclosing: step,
            sandbox: build.sandbox)
        let root = binding.outermost
        defer { if step == nil || ownTask { root.retireGraph() } }
        // Bound with `guard let`: `unsafelyUnwrapped` hands the closure back at the generic
        // abstraction level, and re-abstracting it costs an allocation a call.
        guard let make = provider.asyncFactory else { preconditionFailure("an async registration") }
        let value: T
        do {
            value = try await Resolver.$binding.withValue(binding) { try await make(build.builder, arguments) }
        } catch is CancellationError where Task.isCancelled {
            // The factory gave up because the caller's task is cancelled: `tryResolveAsync()`
            // says so; `resolveAsync()`, which cannot throw, builds again in a task of its own,
            // which no cancellation reaches.
            guard !cancellable else { throw CancellationError() }
            let again = UncheckedFactory(make: make, builder: build.builder, arguments: arguments, binding: binding)
            do {
                let built: AnyKept = try await Task { Kept(try await again.run()) }.value
                value = instance(in: built)
            } catch {
                throw ResolutionError(error, key: key, path: binding.path, container: build.builder, site: site)
            }
        } catch {
            throw ResolutionError(error, key: key, path: binding.path, container: build.builder, site: site)
        }
        guard let store = build.store else { return value }
        // 4. Keep. `initCompleted` steps run where the factory was written (a main-actor one's on
        // the main actor), as a part of the task's resolution.
        let built = Kept(value)
        guard build.completion != nil, let isolation = provider.asyncIsolation else {
            return try keep(built, build, store: store, binding: binding, key: key, site: site)
        }
        let kept = try await keepIsolated(built, build, binding: binding, key: key, site: site, isolation: isolation)
        return kept.instance
    }

    /// ``keep(_:_:store:binding:key:site:)`` in `isolation`; the instance to hand out, boxed.
    private static func keepIsolated<T>(
        _ built: Kept<T>, _ build: AsyncBuild, binding: AsyncStep, key: Key, site: SourceLocation?,
        isolation: isolated (any Actor)
    ) throws(ResolutionError) -> Kept<T> {
        Kept(try keep(built, build, store: build.store!, binding: binding, key: key, site: site))
    }

    /// Runs the `initCompleted` steps of a built instance (`built`, a ``Kept``) on this thread, then
    /// keeps it; returns the instance to hand out.
    fileprivate static func keep<T>(
        _ built: Kept<T>, _ build: AsyncBuild, store: InstanceStore, binding: AsyncStep, key: Key,
        site: SourceLocation?
    ) throws(ResolutionError) -> T {
        let value = built.instance
        let resolution = Resolution.current
        return try resolution.continuing(binding) { () throws(ResolutionError) -> T in
            if let steps = build.completion.map({ Self.steps($0, of: T.self) }) {
                // Resolutions inside the step find the instance, as on the synchronous path.
                let id = ObjectIdentifier(store)
                resolution.provisional[id] = built
                defer { resolution.provisional[id] = nil }
                // Run as the synchronous path runs a step, so that the shared instances it builds are
                // published once it has run, not before. (This thread may hold another task's
                // resolution, a task started at once inside a factory: its steps are not ours to run.)
                if resolution.depth == 0 && resolution.pendingCompletions.isEmpty {
                    resolution.enqueueCompletion(
                        Frame(provider: build.provider, site: site), in: build.builder, value: value, step: steps.run
                    ) { _ in }
                    try resolution.runPendingCompletions()
                } else {
                    do {
                        try steps.run(build.builder, value)
                    } catch {
                        throw ResolutionError(
                            error, key: key, path: binding.path, container: build.builder, site: site, inStep: true)
                    }
                }
            }
            let kept = Build(
                provider: build.provider, store: store, builder: build.builder, owner: build.owner,
                isFirst: build.isFirst, isClaimed: build.isClaimed)
            return build.resolver.keep(value, kept, isMarked: build.isFirst && value is any Singleton, in: resolution)
        }
    }
}

/// An async factory's call, made again in a task of its own. Unchecked Sendable: the call moves
/// to that task and the caller only awaits it.
private struct UncheckedFactory<T>: @unchecked Sendable {
    let make: (Resolver, Any?) async throws -> sending T
    let builder: Resolver
    let arguments: Any?
    let binding: AsyncStep

    func run() async throws -> sending T {
        try await Resolver.$binding.withValue(binding) { try await make(builder, arguments) }
    }
}

/// The build of an async registration a plan decided on, with its references counted: it
/// crosses suspension points. Unchecked Sendable: what it refers to is guarded by the
/// registry lock, as on the synchronous path.
private struct AsyncBuild: @unchecked Sendable {
    let provider: AnyProvider
    /// The container resolving.
    let resolver: Resolver
    /// Where the instance is kept; nil for a transient registration, which keeps nothing.
    let store: InstanceStore?
    let completion: AnyObject?
    /// The container whose factory runs.
    let builder: Resolver
    /// The test container that keeps the instance, if one does.
    let owner: Resolver?
    let isFirst: Bool
    let isClaimed: Bool
    /// The `verifyAsync()` run's container the build's resolutions resolve in instead of the
    /// verified one (``ContainerBinding/sandbox``).
    var sandbox: Resolver?

    init(taking plan: Resolver.Plan) {
        provider = plan.take(AnyProvider.self)
        resolver = plan.takeResolver()
        let build = plan.takeBuild()
        store = build.store
        completion = build.completion
        builder = build.builder ?? resolver
        owner = plan.owner
        isFirst = plan.isFirst
        isClaimed = plan.isClaimed
    }
}

extension Optional {
    /// ``OptionalResolvable/resolveWrapped(_:arguments:in:site:)`` on the async path.
    static func resolveWrappedAsync(
        _ key: Key, arguments: Any?, in resolver: Resolver?, site: SourceLocation?, isolation: isolated (any Actor)?
    ) async throws -> Any {
        let wrapped = key.with(type: Wrapped.self)
        let depth = Resolver.asyncPath.count
        do {
            let value: Wrapped = try await Resolver.resolveAsync(
                wrapped, from: resolver, arguments: arguments, site: site, isolation: isolation)
            return Wrapped?.some(value) as Any
        } catch let error as ResolutionError
            where error.isNotRegistered || error.yieldsNothing(for: wrapped, atDepth: depth)
        {
            return Wrapped?.none as Any
        }
    }
}

/// An async factory's build in progress, as its task carries it: the binding of the container
/// building it, which names the registration.
final class AsyncStep: ContainerBinding, @unchecked Sendable {
    // Unchecked Sendable: the graph is guarded by its lock.
    let provider: AnyProvider
    let key: Key
    /// Where the build was asked for.
    let site: SourceLocation?
    /// The flight this build ends, when it builds a shared instance. Weak: a task the factory
    /// started keeps the binding, and the flight keeps its instance.
    weak let flight: AsyncFlight?
    /// The outermost step's: the `.graph` instances of its async resolution, made when first
    /// needed (``graphScope``). Guarded by ``GraphScope/lock``.
    var graph: GraphScope?
    /// Whether the outermost step's build ended: a scope made after it (for a task its factory
    /// started) holds what it keeps weakly. Guarded by ``GraphScope/lock``.
    private var graphEnded = false
    /// The outermost step's: how many of the builds that end its async resolution are still
    /// running (its own, and the shared instances' builds it started in tasks of their own).
    /// Guarded by ``GraphScope/lock``.
    private var holders = 1
    /// The outermost step's: what was let go while its async resolution builds, released when its
    /// build ends. Guarded by ``GraphScope/lock``.
    private var leftovers = Leftovers()

    init(
        _ container: Resolver, provider: AnyProvider, key: Key, site: SourceLocation?, flight: AsyncFlight?,
        enclosing: AsyncStep?, sandbox: Resolver?
    ) {
        self.provider = provider
        self.key = key
        self.site = site
        self.flight = flight
        super.init(container, enclosing: enclosing, outer: Resolver.binding, isStep: true, sandbox: sandbox)
    }
}

extension AsyncStep {
    /// The async builds in progress, innermost first.
    private var steps: UnfoldFirstSequence<AsyncStep> {
        sequence(first: self) { $0.enclosingStep }
    }

    /// The keys of the async builds in progress, outermost first.
    var path: [Key] { steps.map(\.key).reversed() }

    /// The innermost build of a shared instance this task runs, if any.
    var innermostFlight: AsyncFlight? { steps.lazy.compactMap(\.flight).first }

    /// The outermost async build in progress: the one whose end (with the shared instances'
    /// builds it started, ``holdGraph()``) ends the async resolution.
    var outermost: AsyncStep { steps.reduce(self) { $1 } }

    /// How many async builds are in progress.
    var depth: Int { steps.reduce(0) { count, _ in count + 1 } }

    /// Whether an async build in progress is `provider`'s (a dependency cycle).
    func isBuilding(_ provider: AnyProvider) -> Bool {
        steps.contains { $0.provider === provider }
    }

    /// Where the outermost async build was asked for.
    var outermostSite: SourceLocation? { steps.reduce(nil) { $1.site ?? $0 } }

    /// The `.graph` instances of the async resolution: the outermost step's scope, made when first
    /// needed.
    var graphScope: GraphScope {
        let root = outermost
        return GraphScope.lock.withLock {
            if let graph = root.graph { return graph }
            let graph = GraphScope(keepingWeakly: root.graphEnded)
            root.graph = graph
            return graph
        }
    }

    /// Notes a shared instance's build, started by this (the outermost) step's resolution in a task
    /// of its own: the resolution ends when it has ended too.
    func holdGraph() {
        GraphScope.lock.withLock { holders += 1 }
    }

    /// Ends a hold on the async resolution's `.graph` instances (the outermost step's, once it is
    /// built, and each shared instance's build it started): when the last ends, what a lazy
    /// wrapper made in it keeps, and what a task its factory started keeps later, is held weakly
    /// from then on, and what it let go is released.
    func retireGraph() {
        var items = Leftovers()
        GraphScope.lock.withLock { () -> GraphScope? in
            holders -= 1
            guard holders == 0 else { return nil }
            graphEnded = true
            items.take(&leftovers)
            return graph
        }?.retire()
        items.releaseNow()
    }

    /// Releases `items` when the outermost async build ends (now, if it has ended): a deinitializer
    /// may resolve what the async resolution is building.
    func releaseAtEnd(_ items: Leftovers) {
        let root = outermost
        var items = items
        GraphScope.lock.withLock {
            if !root.graphEnded { root.leftovers.take(&items) }
        }
        items.releaseNow()
    }
}

extension Array {
    var nonEmpty: Self? { isEmpty ? nil : self }
}

extension AnyProvider {
    /// Records that the factory resolves `key`, for the dependency graph, if it was not seen
    /// before: from an async factory, where the synchronous path's frames do not see it.
    func noteDependency(_ key: Key) {
        let observed = registryLock.withReadLock(Resolution.current.stripe) { observedDependencies }
        if !observed.contains(key) { registryLock.withWriteLock { _ in recordDependency(key) } }
    }
}

/// The build of a shared instance by an async factory, which every resolution of it awaits: one
/// per store at a time. Its waiters suspend; none blocks a thread.
final class AsyncFlight: @unchecked Sendable {
    // Unchecked Sendable: everything is guarded by `lock`.
    enum Joined {
        /// The instance, kept meanwhile.
        case existing(AnyKept)
        case joined(AsyncFlight)
        /// A new flight, which the caller starts.
        case started(AsyncFlight)
        /// The flight waits, through others, for the caller's own build: a cycle, whose keys (from
        /// the flight joined to the caller's own) it gives.
        case loop([Key])
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var flights: [ObjectIdentifier: AsyncFlight] = [:]

    private let store: ObjectIdentifier
    /// What it builds.
    private let key: Key
    /// How long the path of the caller that started it was, and where that caller asked: what a
    /// failure's path and site hold of that caller's, which another caller's error replaces
    /// (``ResolutionError/rebased(dropping:onto:site:replacing:)``).
    let starterPathCount: Int
    let starterSite: SourceLocation?
    /// The flights whose outcomes this one's build waits for (its child tasks may wait for several).
    private var awaited: [AsyncFlight] = []
    private var outcome: Result<AnyKept, any Error>?
    private var waiters: [Int: CheckedContinuation<AnyKept, any Error>] = [:]
    private var cancelled: Set<Int> = []
    private var nextWaiter = 0

    private init(store: ObjectIdentifier, key: Key, starterPathCount: Int, starterSite: SourceLocation?) {
        self.store = store
        self.key = key
        self.starterPathCount = starterPathCount
        self.starterSite = starterSite
    }

    /// The flight building `store`'s instance, a new one if none is, or the instance `existing`
    /// finds kept (it reads the store under the registry lock). `holder`, the flight of the build
    /// the caller runs, if any, waits for it from then on (until ``stopWaiting()``), unless the
    /// flight already waits for `holder`: then nothing is joined and it is a loop.
    static func join(
        _ store: InstanceStore, building key: Key, waitingFor holder: AsyncFlight?, path: [Key], site: SourceLocation?,
        existing: () -> AnyKept?
    ) -> Joined {
        let id = ObjectIdentifier(store)
        return lock.withLock {
            let flight: AsyncFlight
            let joined: Joined
            if let inFlight = flights[id] {
                if let holder, let keys = inFlight.keys(to: holder) { return .loop(keys + [holder.key]) }
                (flight, joined) = (inFlight, .joined(inFlight))
            } else if let instance = existing() {
                return .existing(instance)
            } else {
                flight = AsyncFlight(store: id, key: key, starterPathCount: path.count, starterSite: site)
                flights[id] = flight
                joined = .started(flight)
            }
            holder?.awaited.append(flight)
            return joined
        }
    }

    /// The keys of the flights from this one to `other` through those it waits for, `other`'s left
    /// out; nil when it does not wait for `other`. Lock held.
    private func keys(to other: AsyncFlight) -> [Key]? {
        var pending: [(flight: AsyncFlight, keys: [Key])] = [(self, [])]
        var seen: Set<ObjectIdentifier> = []
        while let (flight, keys) = pending.popLast() {
            if flight === other { return keys }
            if seen.insert(ObjectIdentifier(flight)).inserted {
                pending += flight.awaited.map { ($0, keys + [flight.key]) }
            }
        }
        return nil
    }

    /// This flight's build no longer waits for `flight` (once: it may wait for it twice).
    func stopWaiting(for flight: AsyncFlight) {
        Self.lock.withLock {
            if let index = awaited.firstIndex(where: { $0 === flight }) { awaited.remove(at: index) }
        }
    }

    /// Ends the flight: every waiter gets `outcome`; a later resolution finds the kept instance, or
    /// (after a failure) builds again.
    func finish(_ outcome: Result<AnyKept, any Error>) {
        let waiting = Self.lock.withLock {
            if Self.flights[store] === self { Self.flights[store] = nil }
            self.outcome = outcome
            defer { waiters = [:] }
            return waiters
        }
        for continuation in waiting.values { continuation.resume(with: outcome) }
    }

    /// Waits for the outcome; when `cancellable`, a cancelled task stops waiting with
    /// `CancellationError` (the build goes on for the others).
    func wait(cancellable: Bool) async throws -> AnyKept {
        let waiter = Self.lock.withLock {
            defer { nextWaiter += 1 }
            return nextWaiter
        }
        let enqueue = { (continuation: CheckedContinuation<AnyKept, any Error>) in
            let ready: Result<AnyKept, any Error>? = Self.lock.withLock {
                if let outcome = self.outcome { return outcome }
                if self.cancelled.remove(waiter) != nil { return .failure(CancellationError()) }
                self.waiters[waiter] = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
        guard cancellable else { return try await withCheckedThrowingContinuation(enqueue) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation(enqueue)
        } onCancel: {
            let continuation = Self.lock.withLock {
                guard let continuation = self.waiters.removeValue(forKey: waiter) else {
                    self.cancelled.insert(waiter)
                    return nil as CheckedContinuation<AnyKept, any Error>?
                }
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
