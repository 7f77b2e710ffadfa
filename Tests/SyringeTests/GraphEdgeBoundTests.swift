import Syringe
import Testing

// Recorded dependency edges do not grow with keys made at run time.

private final class GEBLeaf {
    init() {}
}
private final class GEBHub {
    init() {}
}

@Suite struct GraphEdgeBoundTests {
    @Test func aFactoryResolvingRuntimeNamesRecordsABoundedNumberOfEdges() {
        let r = Resolver()
        for index in 0..<1_000 { r.register(name: "leaf \(index)") { GEBLeaf() } }
        let counter = FxCounter()
        r.register { resolver -> GEBHub in
            let index = counter.increment()
            _ = resolver.resolve(GEBLeaf.self, name: "leaf \(index % 1_000)")
            return GEBHub()
        }
        for _ in 0..<1_000 { _ = r.resolve(GEBHub.self) }
        let graph = r.dependencyGraph()
        let hub = graph.nodes.first { $0.title == "GEBHub" }!
        let edges = graph.edges.filter { $0.from == hub.id }
        #expect(edges.count == 64)
    }

    @Test func aFactoryWithFewDependenciesRecordsThemAll() {
        let r = Resolver()
        r.register(name: "a") { GEBLeaf() }
        r.register(name: "b") { GEBLeaf() }
        r.register { resolver -> GEBHub in
            _ = resolver.resolve(GEBLeaf.self, name: "a")
            _ = resolver.resolve(GEBLeaf.self, name: "b")
            return GEBHub()
        }
        _ = r.resolve(GEBHub.self)
        let graph = r.dependencyGraph()
        let hub = graph.nodes.first { $0.title == "GEBHub" }!
        #expect(graph.edges.filter { $0.from == hub.id }.count == 2)
    }
}
