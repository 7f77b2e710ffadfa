/// The dependencies Syringe has seen between registrations: declared by `autoregister`,
/// found by ``Resolver/verify(skipping:providing:isolation:)``, or observed in real resolutions.
///
/// ```swift
/// _ = Resolver.main.verify()
/// print(Resolver.main.dependencyGraph().mermaid)
/// ```
public struct DependencyGraph: Sendable, CustomStringConvertible {
    /// A registration (or a key something asked for that nothing serves).
    public struct Node: Sendable, Hashable {
        /// A stable identifier usable in DOT and Mermaid (`n0`, `n1`, …).
        public let id: String
        /// The type with its qualifier, scope or name and its argument types, e.g.
        /// `APIClient<Staging>` or `ClassD(String, Int)`. Types that would read the same as
        /// another in the graph are written with their module (`Payments.Widget`).
        public let title: String
        /// The lifetime (`singleton`, `transient`, …), or `missing` for an unregistered key.
        public let lifetime: String
        /// The name of the container that holds the registration (nil for a missing key).
        /// DOT and Mermaid show it when the graph spans more than one container.
        public let container: String?
        /// Whether the registration's factory is `async` (resolved with `resolveAsync()`).
        public let isAsync: Bool
        /// The contexts the registration has a factory of its own for (`.onTest`, …), in the order
        /// added: `test`, `argument -mockAPI`.
        public let contexts: [String]
    }

    /// "`from` depends on `to`".
    public struct Edge: Sendable, Hashable {
        public let from: String
        public let to: String
    }

    public let nodes: [Node]
    public let edges: [Edge]

    /// The lifetime of each node and, when the graph spans several containers, its container.
    private var captions: [String] {
        let spansContainers = Set(nodes.compactMap(\.container)).count > 1
        return nodes.map { node in
            var lifetime = node.isAsync ? "\(node.lifetime), async" : node.lifetime
            if !node.contexts.isEmpty { lifetime += ", on \(node.contexts.joined(separator: ", "))" }
            guard spansContainers, let container = node.container else { return lifetime }
            return "\(lifetime), in \(container)"
        }
    }

    /// Graphviz DOT text.
    public var dot: String {
        var lines = ["digraph Dependencies {", "    rankdir=LR;", "    node [shape=box, fontname=\"Helvetica\"];"]
        for (node, caption) in zip(nodes, captions) {
            let style = node.lifetime == "missing" ? ", style=dashed, color=red" : ""
            lines.append("    \(node.id) [label=\"\(escape(node.title))\\n(\(escape(caption)))\"\(style)];")
        }
        for edge in edges { lines.append("    \(edge.from) -> \(edge.to);") }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// Mermaid flowchart text.
    public var mermaid: String {
        var lines = ["graph LR"]
        for (node, caption) in zip(nodes, captions) {
            lines.append("    \(node.id)[\"\(escape(node.title))<br/>(\(escape(caption)))\"]")
        }
        for edge in edges { lines.append("    \(edge.from) --> \(edge.to)") }
        return lines.joined(separator: "\n")
    }

    public var description: String { mermaid }

    private func escape(_ text: String) -> String {
        text.replacingAll("\"", with: "'")
    }
}

extension DependencyGraph {
    /// The nodes' titles: each key's short description and argument types, its type written with
    /// its module when another type in the graph would read the same.
    fileprivate static func titles(of keys: [Key]) -> [String] {
        var types: [Any.Type] = []
        var seen: Set<ObjectIdentifier> = []
        for key in keys where seen.insert(ObjectIdentifier(key.type)).inserted { types.append(key.type) }
        let names = Dictionary(uniqueKeysWithValues: zip(types.map(ObjectIdentifier.init), distinctTypeNames(types)))
        return keys.map { key in
            key.shortDescription(typeName: names[ObjectIdentifier(key.type)]!) + (key.argumentsDescription ?? "")
        }
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}

extension Resolver {
    /// The dependency graph of every registration reachable from this container, with the
    /// edges recorded so far (by `autoregister`, ``verify(skipping:providing:isolation:)`` and real resolutions).
    ///
    /// ```swift
    /// let graph = resolver.dependencyGraph()
    /// print(graph.dot)
    /// ```
    public func dependencyGraph() -> DependencyGraph {
        bootstrapIfPending()
        return withChainReadLock {
            let bindings = allBindingsLocked()
            var containers: [Key: String] = [:]
            var container: Resolver? = self
            while let current = container {
                for binding in current.registry.bindings.values where containers[binding.key] == nil {
                    containers[binding.key] = current.name
                }
                container = current.parent
            }
            var contexts: [Key: [String]] = [:]
            for binding in bindings where binding === binding.provider && !binding.provider.contexts.isEmpty {
                contexts[binding.key] = binding.provider.contexts.map(\.description)
            }
            var ids: [Key: String] = [:]
            var nodeKeys: [(key: Key, lifetime: String, isAsync: Bool)] = []
            func node(for key: Key, lifetime: String, isAsync: Bool = false) -> String {
                if let id = ids[key] { return id }
                let id = "n\(nodeKeys.count)"
                ids[key] = id
                nodeKeys.append((key, lifetime, isAsync))
                return id
            }
            for binding in bindings {
                _ = node(
                    for: binding.key, lifetime: binding.provider.lifetimeDescription, isAsync: binding.provider.isAsync)
            }
            var edges: [DependencyGraph.Edge] = []
            var seen: Set<DependencyGraph.Edge> = []
            for binding in bindings {
                let from = ids[binding.key]!
                let provider = binding.provider
                // A key written by `.implements` points at the registration that serves it.
                let dependencies =
                    binding === provider
                    ? (provider.declaredDependencies ?? []) + provider.observedDependencies : [provider.key]
                for dependency in dependencies {
                    let target = visibleBinding(for: dependency)
                    let to = node(
                        for: dependency, lifetime: target?.provider.lifetimeDescription ?? "missing",
                        isAsync: target?.provider.isAsync ?? false)
                    let edge = DependencyGraph.Edge(from: from, to: to)
                    if seen.insert(edge).inserted { edges.append(edge) }
                }
            }
            let titles = DependencyGraph.titles(of: nodeKeys.map(\.key))
            let nodes = nodeKeys.indices.map { index in
                DependencyGraph.Node(
                    id: "n\(index)", title: titles[index], lifetime: nodeKeys[index].lifetime,
                    container: nodeKeys[index].lifetime == "missing" ? nil : containers[nodeKeys[index].key],
                    isAsync: nodeKeys[index].isAsync, contexts: contexts[nodeKeys[index].key] ?? [])
            }
            return DependencyGraph(nodes: nodes, edges: edges)
        }
    }
}
