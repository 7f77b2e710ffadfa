/// ``Lifetime/weak``: the instance is shared while something else holds it.
///
/// A value that is not a class instance cannot be held weakly, so it is not kept: each
/// resolution builds a new one (as a transient would).
class WeakStore<T>: InstanceStore<T> {
    private weak var object: AnyObject?

    init() {
        super.init(buildsOnce: true, keepsInstances: true)
    }

    override func cachedLocked(_ state: ThreadState) -> T? {
        guard let object else { return nil }
        return (object as! T)
    }

    override func keep(_ value: T, for request: Request, leftovers: inout Leftovers) -> InstanceStore<T>? {
        guard let instance = classInstance(of: value) else {
            request.state.verification?.noteNotHeldWeakly(request.key, lifetime: lifetimeDescription)
            return nil
        }
        object = instance
        retained(instance, for: request)
        return nil
    }

    /// Called with each instance kept; scopes hand it to their open handles.
    func retained(_ instance: AnyObject, for request: Request) {}

    override func drop(into leftovers: inout Leftovers) {
        leftovers.append(object)
        object = nil
    }

    override var isIsolatable: Bool { true }

    override func makeIsolatedCopy() -> InstanceStore<T>? { WeakStore() }

    override var lifetimeDescription: String { "weak" }

    override var keptInstance: Any? { object }
}
