/// `ResolverRegistering.registerAllServices()`: run once, before the first operation that reaches
/// ``Resolver/main``.
extension Resolver {
    /// Runs `registerAllServices()` (and the modules contributed with ``registerOnBootstrap(_:)``)
    /// if it is still pending for this container's chain: before the first resolution that reaches
    /// ``main``, and before operations that read registrations as a whole (verify, graph, resolveAll).
    func bootstrapIfPending(_ resolution: Resolution = .current) {
        guard !resolution.isBootstrapping, reachesPendingBootstrap(resolution) else { return }
        Self.bootstrapLock.withLock {
            let main = Resolver.main.registry
            guard registryLock.withReadLock(resolution.stripe, { main.bootstrapPending }) else { return }
            resolution.isBootstrapping = true
            let outer = resolution.container
            resolution.container = nil
            defer {
                resolution.isBootstrapping = false
                resolution.container = outer
            }
            Resolver.withContainer(.main) {
                if let registering = Self.registeringType as? any ResolverRegistering.Type {
                    registering.registerAllServices()
                } else if let registering = Self.registeringType as? any MainActorResolverRegistering.Type {
                    // Stops before anything is marked done: nothing runs main-actor code elsewhere.
                    guard resolution.isOnMainActor else { fatalError(Messages.mainActorBootstrapOffMainActor()) }
                    callOnMainActor { registering.registerAllServices() }
                }
            }
            // Modules contributed meanwhile, from `registerAllServices()` or a module, too.
            while !Self.bootstrapModules.isEmpty {
                let contributed = Self.bootstrapModules
                Self.bootstrapModules = []
                Resolver.main.install(contributed)
            }
            registryLock.withWriteLock { _ in main.bootstrapPending = false }
        }
    }

    /// Runs the pending bootstrap before a registration made outside it (``store(_:)``), so that
    /// the registration comes after `registerAllServices()`'s and wins. Returns whether it did
    /// (or found it done).
    ///
    /// A `MainActorResolverRegistering` bootstrap cannot run for a registration made off the main
    /// actor, and stopping the program there would break code that registers from a background
    /// thread at launch: the registration is then made at once, as before, and the bootstrap, when
    /// the first resolution from main-actor code runs it, replaces what it registers again.
    @discardableResult
    func bootstrapBeforeRegistering(_ resolution: Resolution) -> Bool {
        guard !resolution.isBootstrapping else { return false }
        let registering = Self.registeringType
        if !(registering is any ResolverRegistering.Type), registering is any MainActorResolverRegistering.Type,
            !resolution.isOnMainActor
        {
            return false
        }
        bootstrapIfPending(resolution)
        return true
    }

    /// Whether a registry along the chain still waits for its bootstrap.
    private func reachesPendingBootstrap(_ resolution: Resolution) -> Bool {
        registryLock.withReadLock(resolution.stripe) {
            var container: Resolver? = self
            while let current = container {
                if current.registry.bootstrapPending { return true }
                container = current.parent
            }
            return false
        }
    }

    /// The type whose `ResolverRegistering` or `MainActorResolverRegistering` conformance runs:
    /// `Resolver`, which an app extends. Tests set another before the first resolution.
    nonisolated(unsafe) static var registeringType: Any.Type = Resolver.self

    fileprivate static let bootstrapLock = Lock()
    /// Modules contributed before the bootstrap. Guarded by `bootstrapLock`.
    nonisolated(unsafe) fileprivate static var bootstrapModules: [any ResolverModule] = []

    /// Runs `registerAllServices()` (and the modules contributed with ``registerOnBootstrap(_:)``)
    /// now, if they have not run yet: Resolver's `registerServices()`. Later calls, and the first
    /// resolution, do nothing more.
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
    /// app's one `ResolverRegistering` conformance. Before the bootstrap (or from inside it) they are
    /// installed right after `registerAllServices()`; after it, at once.
    ///
    /// ```swift
    /// public enum PaymentsSDK {
    ///     public static func configure() {
    ///         Resolver.registerOnBootstrap(PaymentsModule())
    ///     }
    /// }
    /// ```
    public static func registerOnBootstrap(_ modules: any ResolverModule...) {
        if Resolution.current.isBootstrapping {
            // Called from the bootstrap, which holds `bootstrapLock` on this thread and installs
            // them once `registerAllServices()` has run.
            bootstrapModules.append(contentsOf: modules)
            return
        }
        let isPending = bootstrapLock.withLock {
            let isPending = registryLock.withReadLock(Resolution.current.stripe) { main.registry.bootstrapPending }
            if isPending { bootstrapModules.append(contentsOf: modules) }
            return isPending
        }
        if !isPending { main.install(modules) }
    }
}
