/// The dependencies Syringe has seen between registrations: declared by `autoregister`,
/// found by ``Resolver/verify()``, or observed in real resolutions.
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
        /// The type with its qualifier, scope or name, e.g. `APIClient<Staging>`.
        public let title: String
        /// The lifetime (`singleton`, `transient`, …), or `missing` for an unregistered key.
        public let lifetime: String
    }

    /// "`from` depends on `to`".
    public struct Edge: Sendable, Hashable {
        public let from: String
        public let to: String
    }

    public let nodes: [Node]
    public let edges: [Edge]

    /// Graphviz DOT text.
    public var dot: String {
        var lines = ["digraph Dependencies {", "    rankdir=LR;", "    node [shape=box, fontname=\"Helvetica\"];"]
        for node in nodes {
            let style = node.lifetime == "missing" ? ", style=dashed, color=red" : ""
            lines.append("    \(node.id) [label=\"\(escape(node.title))\\n(\(node.lifetime))\"\(style)];")
        }
        for edge in edges { lines.append("    \(edge.from) -> \(edge.to);") }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// Mermaid flowchart text.
    public var mermaid: String {
        var lines = ["graph LR"]
        for node in nodes {
            lines.append("    \(node.id)[\"\(escape(node.title))<br/>(\(node.lifetime))\"]")
        }
        for edge in edges { lines.append("    \(edge.from) --> \(edge.to)") }
        return lines.joined(separator: "\n")
    }

    public var description: String { mermaid }

    private func escape(_ text: String) -> String {
        text.replacingAll("\"", with: "'")
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
    /// edges recorded so far (by `autoregister`, ``verify()`` and real resolutions).
    ///
    /// ```swift
    /// let graph = resolver.dependencyGraph()
    /// print(graph.dot)
    /// ```
    public func dependencyGraph() -> DependencyGraph {
        bootstrapIfPending()
        return registryLock.withReadLock(ThreadState.current.stripe) {
            let bindings = allBindingsLocked()
            var ids: [Key: String] = [:]
            var nodes: [DependencyGraph.Node] = []
            func node(for key: Key, lifetime: String) -> String {
                if let id = ids[key] { return id }
                let id = "n\(nodes.count)"
                ids[key] = id
                nodes.append(DependencyGraph.Node(id: id, title: key.shortDescription, lifetime: lifetime))
                return id
            }
            for binding in bindings {
                _ = node(for: binding.key, lifetime: binding.provider.lifetimeDescriptionLocked)
            }
            var edges: [DependencyGraph.Edge] = []
            var seen: Set<DependencyGraph.Edge> = []
            for binding in bindings {
                let from = ids[binding.key]!
                let provider = binding.provider
                // A key written by `.implements` points at the registration that serves it.
                let dependencies =
                    binding === provider
                    ? (provider.declaredDependencies ?? []) + provider.observedDependencies.keys : [provider.key]
                for dependency in dependencies {
                    let target = findLocked(dependency)
                    let to = node(
                        for: dependency, lifetime: target?.binding.provider.lifetimeDescriptionLocked ?? "missing")
                    let edge = DependencyGraph.Edge(from: from, to: to)
                    if seen.insert(edge).inserted { edges.append(edge) }
                }
            }
            return DependencyGraph(nodes: nodes, edges: edges)
        }
    }
}
