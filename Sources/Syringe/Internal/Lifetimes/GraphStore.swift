/// ``Lifetime/graph``: one instance per top-level resolution, kept in the resolution's
/// ``GraphScope`` under the registration's stable identity.
final class GraphStore<T>: InstanceStore<T> {
    let id: RegistrationID

    init(id: RegistrationID) {
        self.id = id
        super.init(buildsOnce: false, keepsInstances: false)
    }

    override func cachedLocked(_ state: ThreadState) -> T? {
        guard let value = state.graph.instance(for: id) else { return nil }
        return (value as! T)
    }

    override func keep(_ value: T, for request: Request, leftovers: inout Leftovers) -> InstanceStore<T>? {
        request.state.graph.keep(value, for: id)
        request.state.graphTouched = true
        return nil
    }

    override var lifetimeDescription: String { "graph" }
}
