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
            if let registering = (Resolver.self as Any.Type) as? any ResolverRegistering.Type {
                let outerContainer = state.containerReference
                state.isBootstrapping = true
                state.containerReference = nil
                defer {
                    state.isBootstrapping = false
                    state.containerReference = outerContainer
                }
                Resolver.withContainer(.main) { registering.registerAllServices() }
            }
            registryLock.withWriteLock { main.bootstrapPending = false }
        }
    }

    private static let bootstrapLock = Lock()

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
