/// `ResolverRegistering.registerAllServices()`: run once, before the first operation that
/// reaches ``Resolver/main``.
extension Resolver {
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
            if let registering = Self.registeringType as? any ResolverRegistering.Type {
                runRegistrations(state) { registering.registerAllServices() }
            } else if let registering = Self.registeringType as? any MainActorResolverRegistering.Type {
                // Stops before anything is marked done: nothing runs main-actor code elsewhere.
                guard state.isOnMainActor else { fatalError(Messages.mainActorBootstrapOffMainActor()) }
                runRegistrations(state) { callOnMainActor { registering.registerAllServices() } }
            }
            let contributed = Self.takeBootstrapModules()
            if !contributed.isEmpty { Resolver.main.install(contributed) }
            registryLock.withWriteLock { main.bootstrapPending = false }
        }
    }

    /// Runs an app's `registerAllServices()` with ``Resolver/current`` bound to ``main``.
    private func runRegistrations(_ state: ThreadState, _ body: () -> Void) {
        let outerContainer = state.containerReference
        state.isBootstrapping = true
        state.containerReference = nil
        defer {
            state.isBootstrapping = false
            state.containerReference = outerContainer
        }
        Resolver.withContainer(.main) { body() }
    }

    /// The type whose `ResolverRegistering` or `MainActorResolverRegistering` conformance runs:
    /// `Resolver`, which an app extends. Tests set another before the first resolution.
    nonisolated(unsafe) static var registeringType: Any.Type = Resolver.self

    fileprivate static let bootstrapLock = Lock()

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

// MARK: - Running the bootstrap, and contributing to it

extension Resolver {
    /// Runs `registerAllServices()` (and the modules contributed with
    /// ``registerOnBootstrap(_:)``) now, if they have not run yet: Resolver's
    /// `registerServices()`. Later calls, and the first resolution, do nothing more.
    ///
    /// ```swift
    /// @main struct MyApp: App {
    ///     init() { Resolver.registerServices() }
    /// }
    /// ```
    public static func registerServices() {
        main.bootstrapIfPending()
    }

    /// Adds modules to the registrations of ``main``, for a library or SDK that cannot own the
    /// app's one `ResolverRegistering` conformance. Before the bootstrap they are installed
    /// right after `registerAllServices()`; after it, at once.
    ///
    /// ```swift
    /// public enum PaymentsSDK {
    ///     public static func configure() {
    ///         Resolver.registerOnBootstrap(PaymentsModule())
    ///     }
    /// }
    /// ```
    public static func registerOnBootstrap(_ modules: any ResolverModule...) {
        let installNow = bootstrapLock.withLock { () -> Bool in
            let pending = registryLock.withReadLock(ThreadState.current.stripe) { main.registry.bootstrapPending }
            if pending { bootstrapModules.append(contentsOf: modules) }
            return !pending
        }
        if installNow { main.install(modules) }
    }

    /// Modules contributed before the bootstrap. Guarded by `bootstrapLock`.
    nonisolated(unsafe) private static var bootstrapModules: [any ResolverModule] = []

    /// Takes the contributed modules. `bootstrapLock` held.
    private static func takeBootstrapModules() -> [any ResolverModule] {
        defer { bootstrapModules = [] }
        return bootstrapModules
    }
}
