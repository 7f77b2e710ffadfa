/// Keeps a scope's instances alive between screens, until ``end()`` or until the handle
/// is released. Returned by ``Resolver/beginScope(_:)-type.method``.
///
/// ```swift
/// let flow = Resolver.beginScope(RegistrationFlow.self)
/// showUsernameScreen()     // resolves the flow's User
/// // … no screen holds the User here …
/// showPasswordScreen()     // the same User
/// flow.end()               // the next flow gets a new User
/// ```
public final class ScopeHandle: @unchecked Sendable {
    /// The scope kept alive.
    public let scope: any Scope.Type
    /// Instances held for the scope. Guarded by ``registryLock``.
    var held: [AnyObject] = []
    private(set) var isOpen = true

    init(scope: any Scope.Type) {
        self.scope = scope
    }

    /// Stops keeping the scope's instances alive; those nobody else holds are released.
    public func end() {
        registryLock.withWriteLock { leftovers in
            isOpen = false
            leftovers.append(held)
            held = []
        }
    }
}

extension Resolver {
    /// Keeps the instances of `scope` resolved through this container alive until the
    /// returned handle ends or is released.
    ///
    /// ```swift
    /// let flow = resolver.beginScope(RegistrationFlow.self)
    /// defer { flow.end() }
    /// ```
    public func beginScope(_ scope: any Scope.Type) -> ScopeHandle {
        let handle = ScopeHandle(scope: scope)
        let id = ObjectIdentifier(scope)
        registryLock.withWriteLock { leftovers in
            // A handle read here may be let go meanwhile by its last holder: released after the lock.
            var handles = scopeHandles[id, default: []].filter { entry in
                guard let handle = entry.handle else { return false }
                leftovers.append(handle)
                return true
            }
            handles.append(WeakScopeHandle(handle: handle))
            leftovers.append(scopeHandles.updateValue(handles, forKey: id))
            // Instances of the scope that a resolution from here would get right now.
            var container: Resolver? = self
            while let current = container {
                for binding in current.registry.bindings(in: id)
                where binding.provider.isWeaklyScoped && visibleBinding(for: binding.key) === binding {
                    let owner = cacheOwner(of: binding.provider)
                    if let live = binding.provider.keptInstance(keptBy: owner) { handle.held.append(live as AnyObject) }
                }
                container = current.parent
            }
        }
        return handle
    }

    /// Keeps the instances of `scope` resolved through ``current`` alive until the handle ends.
    ///
    /// ```swift
    /// let flow = Resolver.beginScope(RegistrationFlow.self)
    /// ```
    public static func beginScope(_ scope: any Scope.Type) -> ScopeHandle {
        current.beginScope(scope)
    }

    /// Hands a new scoped instance, built for a resolution from this container, to the open
    /// handles of its scope on this container and its ancestors, up to the nearest test
    /// container (which keeps its own instances). Write lock held; a handle read here that its
    /// last holder lets go meanwhile goes to `leftovers`.
    func retainInOpenScopes(_ instance: AnyObject, scope: ObjectIdentifier, leftovers: inout Leftovers) {
        var container: Resolver? = self
        while let current = container {
            if let handles = current.scopeHandles[scope] {
                for entry in handles {
                    guard let handle = entry.handle else { continue }
                    if handle.isOpen { handle.held.append(instance) }
                    leftovers.append(handle)
                }
            }
            // A test container keeps its own instances: its ancestors' handles do not hold them.
            if current.isolatesCache { return }
            container = current.parent
        }
    }
}

struct WeakScopeHandle {
    weak var handle: ScopeHandle?
}
