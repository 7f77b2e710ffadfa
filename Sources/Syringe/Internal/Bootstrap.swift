/// `ResolverRegistering.registerAllServices()`: run once, before the first operation that reaches
/// ``Resolver/main``.
extension Resolver {
    /// Runs `registerAllServices()` (and the modules contributed with ``registerOnBootstrap(_:)``)
    /// if it is still pending for this container's chain: before the first resolution that reaches
    /// ``main``, and before operations that read registrations as a whole (verify, graph, resolveAll).
    ///
    /// `site`: the call that needs it, where a stop in it is reported.
    func bootstrapIfPending(_ resolution: Resolution = .current, calledAt site: SourceLocation? = nil) {
        guard !resolution.isBootstrapping, reachesPendingBootstrap(resolution) else { return }
        Self.bootstrapLock.withLock {
            let main = Resolver.main.registry
            // The resets counted when it starts: one made while it runs leaves it pending.
            let start = registryLock.withWriteLock { _ -> Int? in
                guard main.bootstrapPending else { return nil }
                Self.isBootstrapRunning = true
                return Self.resets
            }
            guard let start else { return }
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
                    guard resolution.isOnMainActor else {
                        stop(Messages.mainActorBootstrapOffMainActor(calledAt: site), at: site)
                    }
                    callOnMainActor { registering.registerAllServices() }
                }
            }
            // Modules contributed meanwhile (from `registerAllServices()`, a module, or another
            // thread), then the registrations other threads made meanwhile, which come last and win.
            var duplicate: (first: AnyBinding, second: AnyBinding)?
            while let contributed = registryLock.withWriteLock({
                finishBootstrap(of: main, startedAfter: start, duplicate: &duplicate, leftovers: &$0)
            }) {
                Resolver.main.install(contributed)
            }
            if let (first, second) = duplicate {
                fatalError(
                    Messages.duplicate(
                        second.key, container: Resolver.main.name, first: first.site, second: second.site),
                    file: second.site.file, line: second.site.line)
            }
        }
    }

    /// ``Resolver/reset()``: `main` without registrations or settings, the root `main`, and the
    /// bootstrap pending again, also when one is running now (it stays pending when it ends, and
    /// runs again whole). What goes is released after the lock.
    static func resetMain() {
        registryLock.withWriteLock { leftovers in
            let registry = main.registry
            for binding in registry.bindings.values { registry.unbind(binding.key, leftovers: &leftovers) }
            registry.defaultLifetime = nil
            registry.allowsOverrides = true
            leftovers.append(main.ownContext)
            main.ownContext = nil
            registry.bootstrapPending = true
            resets += 1
            leftovers.append(Globals.root)
            Globals.root = main
        }
    }

    /// The modules contributed to the bootstrap since it last looked, if any; else binds what other
    /// threads registered while it ran and marks it done, and returns nil. Write lock held.
    private func finishBootstrap(
        of main: Registry, startedAfter resets: Int, duplicate: inout (first: AnyBinding, second: AnyBinding)?,
        leftovers: inout Leftovers
    ) -> [any ResolverModule]? {
        if !Self.bootstrapModules.isEmpty {
            defer { Self.bootstrapModules = [] }
            return Self.bootstrapModules
        }
        for binding in Self.deferredBindings {
            if !main.allowsOverrides, let existing = main.bindings[binding.key] {
                duplicate = (existing, binding)
                continue
            }
            main.bind(binding, leftovers: &leftovers)
        }
        Self.deferredBindings = []
        main.bootstrapPending = Self.resets != resets
        Self.isBootstrapRunning = false
        return nil
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
    /// Modules contributed before the bootstrap, or while it runs. Guarded by ``registryLock``.
    nonisolated(unsafe) fileprivate static var bootstrapModules: [any ResolverModule] = []
    /// How many times ``Resolver/reset()`` ran. Guarded by ``registryLock``.
    nonisolated(unsafe) private static var resets = 0
    /// Whether a thread is running the bootstrap. Guarded by ``registryLock``.
    nonisolated(unsafe) static var isBootstrapRunning = false
    /// Registrations into ``main`` that other threads made while the bootstrap ran (a thread the
    /// bootstrap started and waits for, say), bound when it ends: waiting for it would never end.
    /// Guarded by ``registryLock``.
    nonisolated(unsafe) static var deferredBindings: [AnyBinding] = []

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
        // The bootstrap, on this thread or another, takes them when `registerAllServices()` has run.
        let isPending = registryLock.withWriteLock { _ in
            if main.registry.bootstrapPending { bootstrapModules.append(contentsOf: modules) }
            return main.registry.bootstrapPending
        }
        if !isPending { main.install(modules) }
    }
}
