import Testing

@testable import Syringe

// Creating a container costs the same however many are alive, and a container's name does not
// grow with the depth of its chain. Work is counted, not timed.

// The registries-by-id map is one per process: the suite's tests run one at a time, so that
// one test's 20,000 live containers do not count as another's dead ones.
@Suite(.serialized) struct ContainerScalingTests {
    /// Containers that come and go leave no pile of dead entries behind: the registries-by-id map
    /// holds the registries of live containers only.
    @Test func deadContainersDoNotAccumulateInTheMap() {
        for _ in 0..<20_000 { _ = Resolver() }
        // The live containers of tests running meanwhile are far fewer than this.
        #expect(Registry.sharedCount < 10_000, "\(Registry.sharedCount) entries")
    }

    @Test func aRegistryLivesWhileAContainerWithItsIDDoes() {
        var first: Resolver? = Resolver(id: "scaling-lifetime")
        first?.register { ScalingService() }
        var second: Resolver? = Resolver(id: "scaling-lifetime")
        first = nil
        #expect(second?.optional(ScalingService.self) != nil)
        second = nil
        #expect(Resolver(id: "scaling-lifetime").optional(ScalingService.self) == nil)
        withExtendedLifetime((first, second)) {}
    }

    @Test func sharedIDStillFindsTheLiveRegistryAmongMany() {
        let first = Resolver(id: "scaling-shared")
        let others = (0..<1_000).map { _ in Resolver() }
        first.register { ScalingService() }
        #expect(Resolver(id: "scaling-shared").optional(ScalingService.self) != nil)
        withExtendedLifetime(others) {}
    }

    /// A child's name names its parent by the parent's own short name, not the parent's whole
    /// ancestry, so a chain 1,000 deep has names as short as a chain 2 deep.
    @Test func childNamesStayShortHoweverDeepTheChain() {
        var chain = [Resolver(id: "scaling-root")]
        for _ in 0..<1_000 { chain.append(Resolver(parent: chain[chain.count - 1])) }
        let first = chain[1].name
        #expect(first.hasPrefix("child ") && first.hasSuffix(" of scaling-root"))
        let deepest = chain[chain.count - 1].name
        let parent = chain[chain.count - 2].name
        let parentShortName = parent.firstRange(of: " of ").map { String(parent[..<$0.lowerBound]) } ?? parent
        #expect(deepest.hasSuffix(" of \(parentShortName)"), "\(deepest)")
        #expect(deepest.utf8.count < 40, "\(deepest.utf8.count) bytes")
        // Released from the deepest up, so that no release recurses through the chain.
        while chain.popLast() != nil {}
    }

    /// A child is numbered when a name first asks for it; the number then stays, and no two
    /// children share one, however many threads ask at once.
    @Test func childNumbersAreGivenOnceAndNeverShared() async {
        let parent = Resolver(id: "scaling-numbers")
        let children = (0..<64).map { _ in Resolver(parent: parent) }
        let names = await withTaskGroup(of: (Int, String).self) { group in
            for (index, child) in children.enumerated() { group.addTask { (index, child.name) } }
            return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(Set(names.values).count == children.count)
        for (index, child) in children.enumerated() { #expect(child.name == names[index]) }
    }
}

private final class ScalingService {}
