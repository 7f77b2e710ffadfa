import Syringe
import Testing

// `dependencyGraph()` (SPEC.md §8): the edges seen by `autoregister`, `verify()` and real
// resolutions, as nodes and edges and as exact Mermaid and DOT text.

protocol GraphNetworkProtocol: AnyObject {}
final class GraphNetwork: GraphNetworkProtocol {}
final class GraphClock {}
final class GraphService {
    init(network: any GraphNetworkProtocol, clock: GraphClock) {}
}
enum GraphStaging: Qualifier {}
enum GraphFlow: Scope {}
enum GraphSessionScope: Scope {
    static var retention: ScopeRetention { .strong }
}
final class GraphClient {}
final class GraphSession {}
final class GraphConfig {}
final class GraphConsumer {
    init(network: any GraphNetworkProtocol) {}
}
final class GraphPlain {}
final class GraphScreen {
    @Inject var plain: GraphPlain
    @Inject(GraphStaging.self) var client: GraphClient
}
final class GraphNeedsMissing {
    init(clock: GraphClock) {}
}
final class GraphArgs {}
enum GraphKindsA {
    final class Widget {}
}
enum GraphKindsB {
    final class Widget {}
}

private func lines(_ lines: String...) -> String {
    lines.joined(separator: "\n")
}

/// The edges as "from → to" titles, in the graph's order.
private func titledEdges(_ graph: DependencyGraph) -> [String] {
    let titles = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.id, $0.title) })
    return graph.edges.map { "\(titles[$0.from] ?? "?") → \(titles[$0.to] ?? "?")" }
}

private func node(_ title: String, in graph: DependencyGraph) -> DependencyGraph.Node? {
    graph.nodes.first { $0.title == title }
}

@Suite struct DependencyGraphTests {
    @Test func autoregisterDeclaresEdgesWithoutBuildingAnything() {
        let r = Resolver()
        let builds = FxCounter()
        r.register(lifetime: .singleton) { () -> GraphNetwork in
            builds.increment()
            return GraphNetwork()
        }
        .implements(GraphNetworkProtocol.self)
        r.register { GraphClock() }
        r.autoregister(GraphService.init)
        let graph = r.dependencyGraph()
        #expect(
            titledEdges(graph) == [
                "GraphNetworkProtocol → GraphNetwork",
                "GraphService → GraphNetworkProtocol",
                "GraphService → GraphClock",
            ])
        #expect(builds.value == 0)
    }

    @Test func exactMermaidAndDotForASmallGraph() {
        let r = Resolver()
        r.register(lifetime: .singleton) { GraphNetwork() }.implements(GraphNetworkProtocol.self)
        r.autoregister(GraphService.init)
        r.register(qualifiedBy: GraphStaging.self, lifetime: .graph) { GraphClient() }
        r.register(name: "blue", lifetime: .weak) { GraphClient() }
        r.register(scopedTo: GraphFlow.self) { GraphSession() }
        r.register(scopedTo: GraphSessionScope.self) { GraphSession() }
        r.registerSingleton(GraphConfig.self, GraphConfig())
        let graph = r.dependencyGraph()
        #expect(
            graph.mermaid
                == lines(
                    "graph LR",
                    "    n0[\"GraphNetwork<br/>(singleton)\"]",
                    "    n1[\"GraphNetworkProtocol<br/>(singleton)\"]",
                    "    n2[\"GraphService<br/>(transient)\"]",
                    "    n3[\"GraphClient<GraphStaging><br/>(graph)\"]",
                    "    n4[\"GraphClient<'blue'><br/>(weak)\"]",
                    "    n5[\"GraphSession<scope: GraphFlow><br/>(scoped)\"]",
                    "    n6[\"GraphSession<scope: GraphSessionScope><br/>(scoped (strong))\"]",
                    "    n7[\"GraphConfig<br/>(singleton (instance))\"]",
                    "    n8[\"GraphClock<br/>(missing)\"]",
                    "    n1 --> n0",
                    "    n2 --> n1",
                    "    n2 --> n8"))
        #expect(
            graph.dot
                == lines(
                    "digraph Dependencies {",
                    "    rankdir=LR;",
                    "    node [shape=box, fontname=\"Helvetica\"];",
                    "    n0 [label=\"GraphNetwork\\n(singleton)\"];",
                    "    n1 [label=\"GraphNetworkProtocol\\n(singleton)\"];",
                    "    n2 [label=\"GraphService\\n(transient)\"];",
                    "    n3 [label=\"GraphClient<GraphStaging>\\n(graph)\"];",
                    "    n4 [label=\"GraphClient<'blue'>\\n(weak)\"];",
                    "    n5 [label=\"GraphSession<scope: GraphFlow>\\n(scoped)\"];",
                    "    n6 [label=\"GraphSession<scope: GraphSessionScope>\\n(scoped (strong))\"];",
                    "    n7 [label=\"GraphConfig\\n(singleton (instance))\"];",
                    "    n8 [label=\"GraphClock\\n(missing)\", style=dashed, color=red];",
                    "    n1 -> n0;",
                    "    n2 -> n1;",
                    "    n2 -> n8;",
                    "}"))
        #expect(graph.description == graph.mermaid)
    }

    @Test func nodesCarryTitleAndLifetime() {
        let r = Resolver()
        r.register(GraphClient.self, qualifiedBy: GraphStaging.self, lifetime: .singleton) { GraphClient() }
        r.register(scopedTo: GraphFlow.self, qualifiedBy: GraphStaging.self) { GraphSession() }
        let graph = r.dependencyGraph()
        #expect(graph.nodes.map(\.id) == ["n0", "n1"])
        #expect(node("GraphClient<GraphStaging>", in: graph)?.lifetime == "singleton")
        #expect(node("GraphSession<GraphStaging, scope: GraphFlow>", in: graph)?.lifetime == "scoped")
        #expect(graph.edges.isEmpty)
    }

    @Test func factoriesHaveNoEdgesUntilVerifyRunsThem() {
        let r = Resolver()
        let builds = FxCounter()
        r.register { () -> GraphNetwork in
            builds.increment()
            return GraphNetwork()
        }
        .implements(GraphNetworkProtocol.self)
        r.register { GraphConsumer(network: $0.resolve()) }
        #expect(titledEdges(r.dependencyGraph()) == ["GraphNetworkProtocol → GraphNetwork"])
        #expect(r.verify().isValid)
        #expect(
            titledEdges(r.dependencyGraph()) == [
                "GraphNetworkProtocol → GraphNetwork",
                "GraphConsumer → GraphNetworkProtocol",
            ])
        #expect(builds.value > 0)
    }

    @Test func realResolutionsRecordFactoryEdges() {
        let r = Resolver()
        r.register { GraphNetwork() }.implements(GraphNetworkProtocol.self)
        r.register { GraphConsumer(network: $0.resolve()) }
        _ = r.resolve(GraphConsumer.self)
        #expect(
            titledEdges(r.dependencyGraph()) == [
                "GraphNetworkProtocol → GraphNetwork",
                "GraphConsumer → GraphNetworkProtocol",
            ])
    }

    @Test func realResolutionsRecordInjectEdgesAlsoToCachedSingletons() {
        let r = Resolver()
        r.register(lifetime: .singleton) { GraphPlain() }
        r.register(qualifiedBy: GraphStaging.self) { GraphClient() }
        r.register { GraphScreen() }
        // The singleton is cached before the screen asks for it: the edge must still be seen.
        _ = r.resolve(GraphPlain.self)
        _ = r.resolve(GraphScreen.self)
        let graph = r.dependencyGraph()
        #expect(
            Set(titledEdges(graph)) == [
                "GraphScreen → GraphPlain",
                "GraphScreen → GraphClient<GraphStaging>",
            ])
        #expect(node("GraphPlain", in: graph)?.lifetime == "singleton")
    }

    @Test func repeatedResolutionsDoNotRepeatEdges() {
        let r = Resolver()
        r.register(lifetime: .singleton) { GraphPlain() }
        r.register(qualifiedBy: GraphStaging.self) { GraphClient() }
        r.register { GraphScreen() }
        for _ in 0..<50 { _ = r.resolve(GraphScreen.self) }
        #expect(r.dependencyGraph().edges.count == 2)
    }

    @Test func missingDependencyOfAnAutoregisteredTypeShowsAsMissing() {
        let r = Resolver()
        r.autoregister(GraphNeedsMissing.init)
        let graph = r.dependencyGraph()
        #expect(titledEdges(graph) == ["GraphNeedsMissing → GraphClock"])
        #expect(node("GraphClock", in: graph)?.lifetime == "missing")
        #expect(graph.dot.contains("[label=\"GraphClock\\n(missing)\", style=dashed, color=red];"))
    }

    @Test func missingDependencySeenByAFailedResolutionShowsAsMissing() {
        let r = Resolver()
        r.register { try GraphNeedsMissing(clock: $0.tryResolve()) }
        #expect(throws: ResolutionError.self) { try r.tryResolve(GraphNeedsMissing.self) }
        let graph = r.dependencyGraph()
        #expect(titledEdges(graph) == ["GraphNeedsMissing → GraphClock"])
        #expect(node("GraphClock", in: graph)?.lifetime == "missing")
    }

    @Test func registeringTheMissingDependencyFillsTheNode() {
        let r = Resolver()
        r.autoregister(GraphNeedsMissing.init)
        r.register(lifetime: .singleton) { GraphClock() }
        let graph = r.dependencyGraph()
        #expect(titledEdges(graph) == ["GraphNeedsMissing → GraphClock"])
        #expect(node("GraphClock", in: graph)?.lifetime == "singleton")
        #expect(graph.nodes.count == 2)
    }

    /// Registrations that differ only in their argument types are nodes that read differently.
    @Test func nodesShowArgumentTypes() {
        let r = Resolver()
        r.register(arguments: String.self, Int.self) { _, _ in GraphArgs() }
        r.register(arguments: (String, Int).self) { _ in GraphArgs() }
        r.register(arguments: GraphClock.self) { _ in GraphArgs() }
        r.register { GraphArgs() }
        let graph = r.dependencyGraph()
        #expect(
            graph.nodes.map(\.title) == [
                "GraphArgs(String, Int)", "GraphArgs((String, Int))", "GraphArgs(GraphClock)", "GraphArgs",
            ])
    }

    @Test func sameNamedTypesAreToldApart() {
        let r = Resolver()
        r.register { GraphKindsA.Widget() }
        r.register { GraphKindsB.Widget() }
        r.register { Swift.Hasher() }
        r.register { SyringeTests.Hasher() }
        r.register { GraphClock() }
        #expect(
            r.dependencyGraph().nodes.map(\.title) == [
                "GraphKindsA.Widget", "GraphKindsB.Widget", "Swift.Hasher", "SyringeTests.Hasher", "GraphClock",
            ])
    }

    @Test func childGraphShowsTheNearestRegistrationOnce() {
        let parent = Resolver()
        parent.register(lifetime: .singleton) { GraphClock() }
        parent.autoregister(GraphNeedsMissing.init)
        let child = Resolver(parent: parent)
        child.register { GraphClock() }
        let graph = child.dependencyGraph()
        #expect(graph.nodes.map(\.title) == ["GraphClock", "GraphNeedsMissing"])
        #expect(node("GraphClock", in: graph)?.lifetime == "transient")
        #expect(titledEdges(graph) == ["GraphNeedsMissing → GraphClock"])
        #expect(node("GraphClock", in: parent.dependencyGraph())?.lifetime == "singleton")
    }
}

@Suite struct DependencyGraphContainerTests {
    final class GraphParentService {}
    final class GraphChildModel {
        init(service: GraphParentService) {}
    }

    /// Nodes name their container; DOT and Mermaid show it once the graph spans two.
    @Test func nodesNameTheirContainer() {
        let parent = Resolver(id: "graph-parent")
        parent.register { GraphParentService() }
        let child = Resolver(parent: parent)
        child.register { GraphChildModel(service: $0.resolve()) }
        _ = child.verify()
        let graph = child.dependencyGraph()
        #expect(graph.nodes.map(\.container) == [child.name, "graph-parent"])
        #expect(child.name != "graph-parent")
        #expect(graph.mermaid.contains("(transient, in \(child.name))"))
        #expect(graph.mermaid.contains("(transient, in graph-parent)"))
        #expect(parent.dependencyGraph().mermaid.contains("<br/>(transient)\"]"))
    }
}
