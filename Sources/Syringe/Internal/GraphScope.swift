/// The `.graph` instances of one top-level resolution.
///
/// While the resolution runs, they are held strongly, so that everything it builds shares
/// them. A lazy wrapper created during the resolution keeps the scope, so that its first read,
/// later, finds the instances of the resolution that created it (a child's `@WeakLazyInject`
/// back to its `.graph` parent): when the resolution ends, a scope that such a wrapper keeps
/// holds its instances weakly from then on, and one that nothing keeps is emptied.
final class GraphScope {
    // Unchecked exclusivity: a scope is only touched by the thread running its resolution.
    /// Held strongly while the resolution runs.
    @exclusivity(unchecked) private var instances: [RegistrationID: Any] = [:]
    /// Held weakly once the resolution ended, for the lazy wrappers that keep the scope.
    @exclusivity(unchecked) private var retired: [RegistrationID: WeakInstance] = [:]

    private struct WeakInstance {
        weak var object: AnyObject?
    }

    var isEmpty: Bool { instances.isEmpty && retired.isEmpty }

    /// The instance of a registration. Only the thread running the resolution touches a scope.
    func instance(for id: RegistrationID) -> Any? {
        if let value = instances[id] { return value }
        return retired[id]?.object
    }

    func keep(_ value: Any, for id: RegistrationID) {
        instances[id] = value
    }

    /// Ends the resolution's hold: what a lazy wrapper may still ask for is kept weakly.
    func retire() {
        for (id, value) in instances {
            if let object = classInstance(of: value) { retired[id] = WeakInstance(object: object) }
        }
        instances.removeAll()
    }
}

extension ThreadState {
    /// Ends a top-level resolution's `.graph` scope: emptied for reuse when nothing keeps it,
    /// else retired and replaced, so that the lazy wrappers keeping it find its instances.
    func endGraphScope() {
        guard graphTouched else { return }
        graphTouched = false
        if isKnownUniquelyReferenced(&graph) {
            if !graph.isEmpty { graph = GraphScope() }
        } else {
            graph.retire()
            graph = GraphScope()
        }
    }

    /// Runs `body` with `scope` as the `.graph` scope, for a lazy wrapper's first read outside any
    /// resolution.
    func withGraphScope<R>(_ scope: GraphScope?, _ body: () -> R) -> R {
        guard let scope, depth == 0 else { return body() }
        let outer = graph
        graph = scope
        graphTouched = true
        defer {
            graph.retire()
            graph = outer
        }
        return body()
    }
}
