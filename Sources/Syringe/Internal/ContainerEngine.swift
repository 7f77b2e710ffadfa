/// What the engine keeps for one container, apart from the public ``Resolver``: its
/// registrations, whether it keeps its own instances (test containers), those instances, and
/// the scope handles begun on it.
final class ContainerEngine {
    /// The registrations, shared with other containers of the same id.
    let registry: Registry
    /// Whether this container keeps its own instances of everything it resolves. Set once,
    /// before the container is shared.
    @exclusivity(unchecked) var isolatesCache = false
    /// An isolating container's own copies of registrations' stores, by registration: one per
    /// registration it resolved, however many instances come and go. Guarded by ``registryLock``.
    var isolatedCopies: [ObjectIdentifier: AnyIsolatedCopy] = [:]
    /// Open ``ScopeHandle``s begun on the container, by scope. Guarded by ``registryLock``.
    var scopeHandles: [ObjectIdentifier: [WeakScopeHandle]] = [:]

    init(registry: Registry) {
        self.registry = registry
    }
}

extension Resolver {
    /// The registrations, shared with other containers of the same id.
    var registry: Registry {
        @inline(__always) get { engine.registry }
    }

    /// Whether this container keeps its own instances of everything it resolves (test containers).
    var isolatesCache: Bool {
        @inline(__always) get { engine.isolatesCache }
    }

    /// See ``ContainerEngine/isolatedCopies``. Lock held.
    var isolatedCopies: [ObjectIdentifier: AnyIsolatedCopy] {
        _read { yield engine.isolatedCopies }
        _modify { yield &engine.isolatedCopies }
    }

    /// See ``ContainerEngine/scopeHandles``. Lock held.
    var scopeHandles: [ObjectIdentifier: [WeakScopeHandle]] {
        _read { yield engine.scopeHandles }
        _modify { yield &engine.scopeHandles }
    }
}
