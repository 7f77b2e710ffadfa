/// A registration made with `register(scopedTo:)` in a scope whose retention is
/// ``ScopeRetention/weak``: shared while something holds the instance, or while a
/// ``ScopeHandle`` of the scope is open on the resolving container or one of its ancestors.
final class WeakScopeStore<T>: WeakStore<T> {
    private let scopeID: ObjectIdentifier

    init(scope: any Scope.Type) {
        scopeID = ObjectIdentifier(scope)
    }

    override func retained(_ instance: AnyObject, for request: Request) {
        request.resolving.retainInOpenScopesLocked(instance, scope: scopeID)
    }

    override func makeIsolatedCopy() -> InstanceStore<T>? { WeakScopeStore(scopeID: scopeID) }

    private init(scopeID: ObjectIdentifier) {
        self.scopeID = scopeID
    }

    override var lifetimeDescription: String { "scoped" }
    override var scope: ObjectIdentifier? { scopeID }
    override var isWeaklyScoped: Bool { true }
}

/// A registration made with `register(scopedTo:)` in a scope whose retention is
/// ``ScopeRetention/strong``: kept until `dropCached(scopedTo:)`.
final class StrongScopeStore<T>: SingletonStore<T> {
    private let scopeID: ObjectIdentifier

    init(scope: ObjectIdentifier) {
        scopeID = scope
    }

    override func makeIsolatedCopy() -> InstanceStore<T>? { StrongScopeStore(scope: scopeID) }

    override var lifetimeDescription: String { "scoped (strong)" }
    override var scope: ObjectIdentifier? { scopeID }
}

extension InstanceStore {
    /// The store for a registration in `scope`, by the scope's retention.
    static func scoped(_ scope: any Scope.Type) -> InstanceStore<T> {
        switch scope.retention {
        case .weak: WeakScopeStore(scope: scope)
        case .strong: StrongScopeStore(scope: ObjectIdentifier(scope))
        }
    }
}
