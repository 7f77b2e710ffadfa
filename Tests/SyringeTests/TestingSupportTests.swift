import Foundation
import Syringe
import SyringeTesting
import Testing
import XCTest

// SyringeTesting (SPEC.md §10): the `.isolatedResolver` trait on tests and suites,
// `Resolver.withTestContainer`, and `SyringeTestCase` for XCTest. A test container is a child
// of the container current where it starts and keeps its own cached instances, so what a test
// registers or builds never reaches another test. Its binding is task-local: a new Thread
// does not see it.

final class TSService {
    let label: String
    init(label: String) { self.label = label }
}
final class TSSingleton: Sendable {
    let serial = FxSerial.next()
}
final class TSConsumer {
    let service: TSService
    init(service: TSService) { self.service = service }
}
final class TSShared {}
final class TSSessionObject {}
final class TSOther {}
enum TSSession: Scope {
    static var retention: ScopeRetention { .strong }
}
struct TSFailure: Error {}

/// Lets two tests that run in parallel wait (briefly, boundedly) until both have registered.
private final class TSRendezvous: @unchecked Sendable {
    private let lock = NSLock()
    private var arrived: Set<String> = []

    func arrive(_ name: String) {
        lock.withLock { _ = arrived.insert(name) }
    }

    /// Waits up to about two seconds for `name`; proceeds either way (tests may run serially).
    func wait(for name: String) async {
        for _ in 0..<200 {
            if lock.withLock({ arrived.contains(name) }) { return }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}

private let tsRendezvous = TSRendezvous()

/// The name of the suite container the tests of `TestingSupportTests.IsolatedSuite` saw first.
private final class TSSuiteContainerName: @unchecked Sendable {
    private let lock = NSLock()
    private var name: String?

    /// Records `name` if nothing is recorded yet; returns what was recorded.
    func record(_ candidate: String) -> String {
        lock.withLock {
            if name == nil { name = candidate }
            return name!
        }
    }
}

private let tsSuiteContainerName = TSSuiteContainerName()

/// The instances the cases of a test saw, kept alive so that none is another's address reused.
private final class TSSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [AnyObject] = []

    /// False when `object` was seen already.
    func insert(_ object: AnyObject) -> Bool {
        lock.withLock {
            guard !seen.contains(where: { $0 === object }) else { return false }
            seen.append(object)
            return true
        }
    }
}

private let tsTraitSingletons = TSSeen()

/// What a thread saw.
private final class TSBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

private func tsOnNewThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    return done.wait(timeout: .now() + 60) == .success
}

@Suite struct TestingSupportTests {
    // MARK: The trait on tests

    @Test(.isolatedResolver) func firstOfTwoParallelTestsSeesItsOwnRegistration() async {
        Resolver.register { TSService(label: "first") }
        tsRendezvous.arrive("first")
        await tsRendezvous.wait(for: "second")
        #expect(Resolver.resolve(TSService.self).label == "first")
        #expect(!Resolver.main.isRegistered(TSService.self))
    }

    @Test(.isolatedResolver) func secondOfTwoParallelTestsSeesItsOwnRegistration() async {
        Resolver.register { TSService(label: "second") }
        tsRendezvous.arrive("second")
        await tsRendezvous.wait(for: "first")
        #expect(Resolver.resolve(TSService.self).label == "second")
        #expect(!Resolver.main.isRegistered(TSService.self))
    }

    @Test(.isolatedResolver, arguments: 0..<8)
    func parallelTestCasesSeeTheirOwnSingletons(index: Int) async {
        Resolver.register(lifetime: .singleton) { TSService(label: "case \(index)") }
        let first: TSService = Resolver.resolve()
        await Task.yield()
        let second: TSService = Resolver.resolve()
        #expect(first.label == "case \(index)")
        #expect(second === first)
    }

    @Test(.isolatedResolver) func aTestRunsInATestContainerOfTheRoot() {
        let current = Resolver.current
        #expect(current !== Resolver.root)
        #expect(current.parent === Resolver.root)
        #expect(current.name.hasPrefix("test container "))
    }

    // MARK: Test containers keep their own instances

    @Test func aBaseSingletonIsRebuiltInsideATestContainerAndStaysThere() {
        let base = Resolver(id: "ts-rebuilt-singleton")
        let builds = FxCounter()
        base.register(lifetime: .singleton) { () -> TSSingleton in
            builds.increment()
            return TSSingleton()
        }
        let outside: TSSingleton = base.resolve()
        var inside: TSSingleton?
        Resolver.withContainer(base) {
            Resolver.withTestContainer {
                inside = Resolver.resolve()
                #expect(Resolver.resolve(TSSingleton.self) === inside)
            }
        }
        #expect(inside != nil && inside !== outside)
        #expect(base.resolve(TSSingleton.self) === outside)
        #expect(builds.value == 2)
    }

    @Test func aSingletonFirstBuiltInsideATestContainerDoesNotLeakOut() {
        let base = Resolver(id: "ts-first-inside")
        base.register(lifetime: .singleton) { TSSingleton() }
        base.register(scopedTo: TSSession.self) { TSSessionObject() }
        var insideSingleton: TSSingleton?
        var insideSession: TSSessionObject?
        Resolver.withContainer(base) {
            Resolver.withTestContainer {
                insideSingleton = Resolver.resolve()
                insideSession = Resolver.resolve(scopedTo: TSSession.self)
            }
        }
        #expect(base.resolve(TSSingleton.self) !== insideSingleton)
        #expect(base.resolve(TSSessionObject.self, scopedTo: TSSession.self) !== insideSession)
    }

    @Test func aBaseSingletonBuiltInsideUsesTheTestsOverrides() {
        let base = Resolver(id: "ts-overrides")
        base.register { TSService(label: "real") }
        base.register(lifetime: .singleton) { TSConsumer(service: $0.resolve()) }
        Resolver.withContainer(base) {
            Resolver.withTestContainer {
                Resolver.register { TSService(label: "mock") }
                #expect(Resolver.resolve(TSConsumer.self).service.label == "mock")
            }
        }
        #expect(base.resolve(TSConsumer.self).service.label == "real")
    }

    @Test func registeredInstancesAreSharedWithTestContainers() {
        let base = Resolver(id: "ts-registered-instance")
        let shared = TSShared()
        base.registerSingleton(TSShared.self, shared)
        Resolver.withContainer(base) {
            Resolver.withTestContainer {
                #expect(Resolver.resolve(TSShared.self) === shared)
            }
        }
    }

    @Test func aBaseReRegistrationIsNeverServedAnOldCopy() {
        let base = Resolver(id: "ts-re-registration")
        let test = Resolver.withContainer(base) { Resolver.makeTestContainer() }
        var stale = 0
        for round in 0..<200 {
            base.register(lifetime: .singleton) { TSService(label: "\(round)") }
            if test.resolve(TSService.self).label != "\(round)" { stale += 1 }
            base.clearRegistration(for: TSService.self)
        }
        #expect(stale == 0)
    }

    @Test func aBaseReRegistrationOfAnotherTypeDoesNotCrashATestContainer() async {
        await #expect(processExitsWith: .success) {
            let base = Resolver(id: "ts-re-registration-types")
            let test = Resolver.withContainer(base) { Resolver.makeTestContainer() }
            for _ in 0..<100 {
                base.register(lifetime: .singleton) { TSShared() }
                _ = test.resolve(TSShared.self)
                base.clearRegistration(for: TSShared.self)
                base.register(lifetime: .singleton) { TSOther() }
                _ = test.resolve(TSOther.self)
                base.clearRegistration(for: TSOther.self)
            }
        }
    }

    /// A drop in a test container forgets its copy of a base singleton even while the test's
    /// own registration of the type shadows it; clearing that registration must not bring back
    /// the copy from before the drop.
    @Test func droppingInATestContainerForgetsShadowedCopies() {
        let base = Resolver(id: "ts-drop-shadowed")
        base.register(lifetime: .singleton) { TSSingleton() }
        let test = Resolver.withContainer(base) { Resolver.makeTestContainer() }
        let copy: TSSingleton = test.resolve()
        test.register(lifetime: .singleton) { TSSingleton() }
        #expect(test.resolve(TSSingleton.self) !== copy)
        test.dropCached([TSSingleton.self])
        test.clearRegistration(for: TSSingleton.self)
        #expect(test.resolve(TSSingleton.self) !== copy)
    }

    // MARK: withTestContainer

    @Test func withTestContainerSynchronous() {
        let base = Resolver(id: "ts-sync")
        let label: String = Resolver.withContainer(base) {
            let value = Resolver.withTestContainer { () -> String in
                #expect(Resolver.current.parent === base)
                Resolver.register { TSService(label: "inside") }
                return Resolver.resolve(TSService.self).label
            }
            #expect(Resolver.current === base)
            return value
        }
        #expect(label == "inside")
        #expect(!base.isRegistered(TSService.self))
    }

    @Test func withTestContainerRestoresTheContainerWhenTheBodyThrows() {
        let base = Resolver(id: "ts-throws")
        Resolver.withContainer(base) {
            #expect(throws: TSFailure.self) {
                try Resolver.withTestContainer {
                    Resolver.register { TSService(label: "inside") }
                    throw TSFailure()
                }
            }
            #expect(Resolver.current === base)
        }
        #expect(!base.isRegistered(TSService.self))
    }

    @Test func withTestContainerAsynchronous() async {
        let base = Resolver(id: "ts-async")
        await Resolver.withContainer(base) {
            await Resolver.withTestContainer {
                let container = Resolver.current
                #expect(container.parent === base)
                Resolver.register(lifetime: .singleton) { TSSingleton() }
                let mine: TSSingleton = Resolver.resolve()
                await Task.yield()
                #expect(Resolver.current === container)
                // Child tasks inherit the binding.
                async let fromChild = Resolver.resolve(TSSingleton.self)
                let inherited = await fromChild
                #expect(inherited === mine)
                let fromGroup = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<4 { group.addTask { Resolver.current === container } }
                    return await group.reduce(true) { $0 && $1 }
                }
                #expect(fromGroup)
            }
            #expect(Resolver.current === base)
        }
        #expect(!base.isRegistered(TSSingleton.self))
    }

    @Test func nestedTestContainersNest() {
        let base = Resolver(id: "ts-nested")
        base.register { TSService(label: "base") }
        Resolver.withContainer(base) {
            Resolver.withTestContainer {
                let outer = Resolver.current
                Resolver.register { TSShared() }
                Resolver.withTestContainer {
                    #expect(Resolver.current.parent === outer)
                    #expect(Resolver.resolve(TSService.self).label == "base")
                    #expect(Resolver.optional(TSShared.self) != nil)
                    Resolver.register { TSOther() }
                }
                #expect(Resolver.optional(TSOther.self) == nil)
            }
        }
    }

    // MARK: Threads do not inherit the container

    @Test func aNewThreadSeesTheRootNotTheTestContainer() {
        let seen = TSBox<Resolver>()
        let registeredThere = TSBox<Bool>()
        Resolver.withTestContainer {
            Resolver.register { TSService(label: "test") }
            #expect(
                tsOnNewThread {
                    seen.value = Resolver.current
                    registeredThere.value = Resolver.isRegistered(TSService.self)
                })
        }
        #expect(seen.value === Resolver.root)
        #expect(registeredThere.value == false)
    }

    @Test func aNewThreadCarriesTheContainerWithWithContainer() {
        let label = TSBox<String>()
        Resolver.withTestContainer {
            Resolver.register { TSService(label: "carried") }
            let container = Resolver.current
            #expect(
                tsOnNewThread {
                    label.value = Resolver.withContainer(container) { Resolver.resolve(TSService.self).label }
                })
        }
        #expect(label.value == "carried")
    }

    @Test func aDetachedTaskSeesTheRootUnlessTheContainerIsCarried() async {
        await Resolver.withTestContainer {
            let container = Resolver.current
            let detached = await Task.detached { Resolver.current }.value
            #expect(detached === Resolver.root)
            let carried = await Task.detached { Resolver.withContainer(container) { Resolver.current } }.value
            #expect(carried === container)
        }
    }

    // MARK: The trait's registering form

    @Test(.isolatedResolver { $0.register { TSService(label: "from the trait") } })
    func theTraitRegistersIntoTheTestsContainer() throws {
        #expect(Resolver.resolve(TSService.self).label == "from the trait")
        #expect(Resolver.current.name.hasPrefix("test container "))
        #expect(!Resolver.root.isRegistered(TSService.self))
    }

    @Test(.isolatedResolver { $0.register(lifetime: .singleton) { TSService(label: "case") } }, arguments: 0..<4)
    func eachCaseGetsItsOwnRegistrations(_ index: Int) {
        let service: TSService = Resolver.resolve()
        #expect(service === Resolver.resolve(TSService.self))
        #expect(tsTraitSingletons.insert(service), "another case got the same singleton")
    }

    // MARK: The trait on a suite

    @Suite(.isolatedResolver) struct IsolatedSuite {
        @Test func aTestContainerIsAChildOfTheSuitesContainer() throws {
            let current = Resolver.current
            let suite = try #require(current.parent)
            #expect(current.name.hasPrefix("test container "))
            #expect(suite.name.hasPrefix("test container "))
            #expect(suite.parent === Resolver.root)
            #expect(current.name.hasSuffix("(child of \(suite.name))"))
            #expect(tsSuiteContainerName.record(suite.name) == suite.name)
        }

        @Test func registrationsStayInTheTestsContainer() throws {
            let suite = try #require(Resolver.current.parent)
            Resolver.register { TSService(label: "suite test") }
            #expect(Resolver.resolve(TSService.self).label == "suite test")
            #expect(!suite.isRegistered(TSService.self))
            #expect(tsSuiteContainerName.record(suite.name) == suite.name)
        }

        @Test(arguments: ["a", "b", "c"])
        func eachCaseHasItsOwnContainerInTheSuites(label: String) throws {
            let suite = try #require(Resolver.current.parent)
            Resolver.register { TSService(label: label) }
            #expect(Resolver.resolve(TSService.self).label == label)
            #expect(tsSuiteContainerName.record(suite.name) == suite.name)
        }
    }
}

/// `SyringeTestCase`: setUp, the test and tearDown share one test container per test.
final class TestingSupportXCTests: SyringeTestCase {
    nonisolated(unsafe) private static var previousContainerName: String?

    override func setUp() {
        super.setUp()
        Resolver.register { TSService(label: "mock") }
    }

    override func tearDown() {
        XCTAssertEqual(Resolver.optional(TSService.self)?.label, "mock")
        super.tearDown()
    }

    func testSetUpRegistrationIsResolved() {
        XCTAssertEqual(Resolver.resolve(TSService.self).label, "mock")
        XCTAssertTrue(Resolver.current.name.hasPrefix("test container "))
        XCTAssertFalse(Resolver.root.isRegistered(TSService.self))
        assertFreshContainer()
    }

    func testEachTestHasItsOwnContainer() {
        Resolver.register(lifetime: .singleton) { TSSingleton() }
        XCTAssertTrue(Resolver.resolve(TSSingleton.self) === Resolver.resolve(TSSingleton.self))
        assertFreshContainer()
    }

    private func assertFreshContainer() {
        let name = Resolver.current.name
        XCTAssertNotEqual(name, Self.previousContainerName)
        Self.previousContainerName = name
    }
}

/// The Resolver tutorial's pattern: a test case's own lazy properties, registered for in `setUp`.
/// XCTest creates the test case before `setUp` runs; the first read, in the test, finds the test
/// container's registrations.
final class TestingSupportLazyXCTests: SyringeTestCase {
    @LazyInject private var service: TSService
    @WeakLazyInject private var singleton: TSSingleton?
    private var kept: TSSingleton?

    override func setUp() {
        super.setUp()
        Resolver.register { TSService(label: "set up") }
        Resolver.register(lifetime: .singleton) { TSSingleton() }
        kept = Resolver.resolve()
    }

    func testLazyPropertiesOfTheTestCaseResolveFromTheTestContainer() {
        XCTAssertEqual(service.label, "set up")
        XCTAssertTrue(singleton === kept)
        XCTAssertTrue($service.container === Resolver.current)
    }
}

/// Testing.md: the trait's closure runs before the suite's `init()`, which runs before the test.
@Suite(.isolatedResolver) struct TraitOrderWithSuiteInitTests {
    init() {
        Resolver.register { TSService(label: "suite default") }
    }

    @Test(.isolatedResolver { $0.register { TSService(label: "test override") } })
    func theSuitesInitReplacesWhatTheTestsTraitRegistered() {
        #expect(Resolver.resolve(TSService.self).label == "suite default")
    }

    @Test func anOverrideInTheBodyWins() {
        Resolver.register { TSService(label: "body override") }
        #expect(Resolver.resolve(TSService.self).label == "body override")
    }
}

/// Testing.md: defaults in the suite's own trait closure leave the test's trait the last word.
@Suite(.isolatedResolver { $0.register { TSService(label: "suite default") } })
struct TraitOrderWithSuiteTraitTests {
    @Test(.isolatedResolver { $0.register { TSService(label: "test override") } })
    func theTestsTraitWins() {
        #expect(Resolver.resolve(TSService.self).label == "test override")
    }

    @Test func theSuitesDefaultApplies() {
        #expect(Resolver.resolve(TSService.self).label == "suite default")
    }
}
