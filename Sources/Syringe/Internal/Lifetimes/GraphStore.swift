/// ``Lifetime/graph``: one instance per top-level resolution, kept in the resolving thread's
/// state under the registration's stable identity and forgotten when that resolution ends.
final class GraphStore<T>: InstanceStore<T> {
    let id: RegistrationID

    init(id: RegistrationID) {
        self.id = id
        super.init(buildsOnce: false, keepsInstances: false)
    }

    override func cachedLocked(_ state: ThreadState) -> T? {
        guard state.depth != 0, let value = state.graph[id] else { return nil }
        return (value as! T)
    }

    override func keep(_ value: T, for request: Request, leftovers: inout Leftovers) -> InstanceStore<T>? {
        request.state.graph[id] = value
        return nil
    }

    override var lifetimeDescription: String { "graph" }
}
