import Foundation
import Syringe
import SyringeTesting
import Testing
import XCTest

// `verify()` (SPEC.md §8): every registration that needs no runtime argument is built in a
// throw-away child, every failure is reported at once, and the container's own singletons
// are left alone. Also the test helpers built on it: `expectValid()` and `XCTAssertResolves`.

protocol VerNetworkProtocol: AnyObject {}
final class VerNetwork: VerNetworkProtocol {
    let serial = FxSerial.next()
}
final class VerClock {}
final class VerService {
    let network: any VerNetworkProtocol
    init(network: any VerNetworkProtocol, clock: VerClock) { self.network = network }
}
final class VerLazySingleton {
    let serial = FxSerial.next()
}
final class VerShared {}
final class VerAPI {}
final class VerCache {}
final class VerFeed {
    init(api: VerAPI, cache: VerCache) {}
}
final class VerProfile {
    init(feed: VerFeed) {}
}
final class VerCycleA {
    init(b: VerCycleB) {}
}
final class VerCycleB {
    init(a: VerCycleA) {}
}
final class VerArgs {
    init(_ label: String) {}
}
final class VerFine {}
final class VerArgumentUser {
    init(_ args: VerArgs) {}
}
struct VerOffline: Error, Equatable {}
final class VerFailing {}

/// The `#fileID` that request sites of this file print as.
private let verFile = "SyringeTests/VerificationTests.swift"

private func lines(_ lines: String...) -> String {
    lines.joined(separator: "\n")
}

/// A container whose graph is sound: a singleton network serving a protocol, a transient
/// clock, an autoregistered service and an argument registration (skipped).
private func makeSoundContainer(id: String, networkBuilds: FxCounter = FxCounter()) -> Resolver {
    let r = Resolver(id: id)
    r.register(lifetime: .singleton) { () -> VerNetwork in
        networkBuilds.increment()
        return VerNetwork()
    }
    .implements(VerNetworkProtocol.self)
    r.register { VerClock() }
    r.autoregister(VerService.init)
    return r
}

/// Where `makeBrokenContainer` asks for what cannot be built: the `autoregister` call of VerFeed
/// asks for its dependencies, each cycle's factory for the other side.
private let brokenFeedLine = #line + 7
private let brokenCycleALine = #line + 8
private let brokenCycleBLine = #line + 8

/// A container with four kinds of trouble, each found by one `verify()`.
private func makeBrokenContainer(id: String) -> Resolver {
    let r = Resolver(id: id)
    r.autoregister(VerFeed.init)  // both dependencies missing
    r.autoregister(VerProfile.init)  // VerFeed is registered, but cannot be built
    r.register { try VerCycleA(b: $0.tryResolve()) }
    r.register { try VerCycleB(a: $0.tryResolve()) }
    r.register(arguments: String.self) { VerArgs($0) }
    r.register { VerFine() }
    return r
}

/// Two missing dependencies of one object: its build ends at the first.
final class VerMissingFirst {}
final class VerMissingSecond {}
final class VerTwoMissing {
    @Inject var first: VerMissingFirst
    @Inject var second: VerMissingSecond
}

@Suite struct VerificationTests {
    // MARK: Sound graphs

    /// The README and Diagnostics: every registration that fails is reported, each with its first
    /// failure; a second missing `@Inject` of the same object shows once the first is fixed.
    @Test func aRegistrationIsReportedWithItsFirstFailure() {
        let r = Resolver(id: "ver-first-failure")
        r.register { VerTwoMissing() }
        r.register { VerFeed(api: VerAPI(), cache: $0.resolve()) }
        let report = r.verify()
        #expect(report.failedRegistrationCount == 2)
        #expect(report.failures.map(\.requested) == ["VerMissingFirst", "VerCache"])
        r.register { VerMissingFirst() }
        #expect(r.verify().failures.map(\.requested) == ["VerMissingSecond", "VerCache"])
    }

    @Test func soundGraphIsValid() {
        let r = makeSoundContainer(id: "ver-sound")
        let report = r.verify()
        #expect(report.isValid)
        #expect(report.failures.isEmpty)
        #expect(report.skipped.isEmpty)
        #expect(report.verified == ["VerNetwork", "VerNetworkProtocol", "VerClock", "VerService"])
        #expect(report.description == "Syringe: all 4 keys resolve (3 registrations, 1 alias)")
    }

    @Test func emptyContainerIsNotValid() {
        let report = Resolver(id: "ver-empty").verify()
        #expect(!report.isValid)
        #expect(
            report.description
                == lines(
                    "Syringe: nothing is registered, so nothing was verified",
                    "  register the app's services first (or verify the container that has them)"))
    }

    @Test func argumentRegistrationsAreSkippedAndListed() {
        let r = makeSoundContainer(id: "ver-skipped")
        r.register(arguments: String.self) { VerArgs($0) }
        r.register(qualifiedBy: VerQualifier.self, arguments: String.self, Int.self) { label, _ in VerArgs(label) }
        let report = r.verify()
        #expect(report.isValid)
        #expect(
            report.skipped == [
                "VerArgs with arguments (String)", "VerArgs qualified by VerQualifier with arguments (String, Int)",
            ])
        #expect(
            report.description
                == lines(
                    "Syringe: all 4 keys resolve (5 registrations, 1 alias)",
                    "",
                    "skipped (they need runtime arguments): VerArgs with arguments (String), "
                        + "VerArgs qualified by VerQualifier with arguments (String, Int)"))
    }

    @Test func aSingletonResolvedBeforeVerifyIsTheSameInstanceAfter() {
        let builds = FxCounter()
        let r = makeSoundContainer(id: "ver-singleton-before", networkBuilds: builds)
        let before: VerNetwork = r.resolve()
        #expect(builds.value == 1)
        #expect(r.verify().isValid)
        // verify() builds in a throw-away child that keeps its own instances...
        #expect(builds.value == 2)
        // ...so the container's instance is untouched, and not built again.
        let after: VerNetwork = r.resolve()
        #expect(after === before)
        #expect((r.resolve() as any VerNetworkProtocol) === before)
        #expect(builds.value == 2)
    }

    @Test func aSingletonNeverResolvedIsStillNotBuiltInTheContainerAfterVerify() {
        let built = FxRecorder<Int>()
        let r = Resolver(id: "ver-singleton-never")
        r.register(lifetime: .singleton) { () -> VerLazySingleton in
            let instance = VerLazySingleton()
            built.append(instance.serial)
            return instance
        }
        #expect(r.verify().isValid)
        #expect(built.values.count == 1)
        // The instance verify() built stayed in its child: the container builds its own.
        let first: VerLazySingleton = r.resolve()
        #expect(built.values.count == 2)
        #expect(first.serial == built.values.last)
        #expect(first.serial != built.values.first)
        let second: VerLazySingleton = r.resolve()
        #expect(second === first)
        #expect(built.values.count == 2)
    }

    @Test func registeredInstancesAreNotRebuilt() {
        let r = Resolver(id: "ver-instance")
        let shared = VerShared()
        r.registerSingleton(VerShared.self, shared)
        let report = r.verify()
        #expect(report.verified == ["VerShared"])
        #expect((r.resolve() as VerShared) === shared)
    }

    @Test func aChildsRegistrationsCompleteItsParentsGraph() {
        let parent = Resolver(id: "ver-parent")
        parent.autoregister(VerFeed.init)
        let child = Resolver(parent: parent)
        child.register { VerAPI() }
        child.register { VerCache() }
        let childReport = child.verify()
        #expect(childReport.isValid, "\(childReport)")
        #expect(Set(childReport.verified) == ["VerAPI", "VerCache", "VerFeed"])
        #expect(parent.verify().failures.count == 2)
    }

    // MARK: Broken graphs

    @Test func brokenGraphReportsEveryFailureAtOnce() {
        let r = makeBrokenContainer(id: "ver-broken")
        let report = r.verify()
        let container = "  in container verification of ver-broken"
        #expect(!report.isValid)
        #expect(
            report.failures.map(\.description) == [
                lines(
                    "Syringe: no registration for VerAPI",
                    "  while resolving VerFeed → VerAPI",
                    container,
                    "  requested at \(verFile):\(brokenFeedLine)",
                    "  register it first, e.g. Resolver.register { VerAPI(…) }"),
                lines(
                    "Syringe: no registration for VerCache",
                    "  while resolving VerFeed → VerCache",
                    container,
                    "  requested at \(verFile):\(brokenFeedLine)",
                    "  register it first, e.g. Resolver.register { VerCache(…) }"),
                lines(
                    "Syringe: no registration for VerAPI",
                    "  while resolving VerProfile → VerFeed → VerAPI",
                    container,
                    "  requested at \(verFile):\(brokenFeedLine)",
                    "  register it first, e.g. Resolver.register { VerAPI(…) }"),
                lines(
                    "Syringe: dependency cycle while resolving VerCycleA",
                    "  cycle: VerCycleA → VerCycleB → VerCycleA",
                    container,
                    "  requested at \(verFile):\(brokenCycleBLine)",
                    "  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created"
                ),
                lines(
                    "Syringe: dependency cycle while resolving VerCycleB",
                    "  cycle: VerCycleB → VerCycleA → VerCycleB",
                    container,
                    "  requested at \(verFile):\(brokenCycleALine)",
                    "  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created"
                ),
            ])
        #expect(report.skipped == ["VerArgs with arguments (String)"])
        #expect(report.verified == ["VerFine"])
    }

    @Test func brokenGraphDescriptionListsEveryFailureAndTheSkipped() {
        let report = makeBrokenContainer(id: "ver-broken-text").verify()
        let body = report.failures.map { "\n\n" + $0.description }.joined()
        let description = report.description
        let header = description.prefix { $0 != "\n" }
        #expect(
            description.dropFirst(header.count)
                == body + "\n\nskipped (they need runtime arguments): VerArgs with arguments (String)")
        #expect(header.hasPrefix("Syringe: ") && header.hasSuffix(" cannot be resolved (6 registrations, 0 aliases)"))
    }

    /// Five registrations are checked (one more is skipped) and four of them fail; one of those
    /// (VerFeed) fails twice. The header must count registrations, not failures.
    @Test func brokenGraphHeaderCountsRegistrations() {
        let report = makeBrokenContainer(id: "ver-broken-count").verify()
        #expect(report.failures.count == 5)
        let header = report.description.prefix { $0 != "\n" }
        #expect(header == "Syringe: 4 of 5 keys cannot be resolved (6 registrations, 0 aliases)")
    }

    @Test func argumentMismatchInsideAFactoryIsReported() {
        let r = Resolver(id: "ver-arguments")
        r.register(arguments: String.self) { VerArgs($0) }
        let line = #line + 1
        r.register { try VerArgumentUser($0.tryResolve(VerArgs.self, arguments: 42)) }
        let report = r.verify()
        #expect(report.skipped == ["VerArgs with arguments (String)"])
        #expect(
            report.failures.map(\.description) == [
                lines(
                    "Syringe: no registration for VerArgs with arguments (Int)",
                    "  while resolving VerArgumentUser → VerArgs",
                    "  in container verification of ver-arguments",
                    "  requested at \(verFile):\(line)",
                    "  VerArgs is registered with arguments (String), called with (Int)")
            ])
    }

    @Test func aFactorysOwnErrorIsReportedWithTheOriginal() {
        let r = Resolver(id: "ver-factory-error")
        r.register(VerFailing.self) { throw VerOffline() }
        let report = r.verify()
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.underlyingError as? VerOffline == VerOffline())
        #expect(
            report.failures.first?.description.hasPrefix("Syringe: the factory for VerFailing threw an error: ") == true
        )
    }

    @Test func verifyLeavesTheRegistrationsAsTheyWere() {
        let r = makeBrokenContainer(id: "ver-broken-after")
        _ = r.verify()
        #expect(!r.isRegistered(VerAPI.self))
        #expect((r.optional() as VerFine?) != nil)
        #expect(r.verify().failures.count == 5)
    }

    // MARK: expectValid

    @Test func expectValidOnASoundContainerReturnsTheReport() {
        let report = makeSoundContainer(id: "ver-expect-valid").expectValid()
        #expect(report.isValid)
        #expect(report.verified.count == 4)
    }

    @Test func expectValidRecordsAnIssueWithTheReport() {
        let r = makeBrokenContainer(id: "ver-expect-broken")
        let expected = r.verify().description
        let line = #line + 3
        var report: VerificationReport?
        withKnownIssue {
            report = r.expectValid()
        } matching: { issue in
            issue.comments.map(\.rawValue) == [expected] && issue.sourceLocation?.line == line
        }
        #expect(report?.isValid == false)
        #expect(report?.failures.count == 5)
    }
}

extension VerificationTests {
    /// A valid report with warnings passes the test (the warnings are recorded as warnings).
    @Test func expectValidPassesWithWarnings() {
        let r = Resolver(id: "ver-expect-warnings")
        r.register { VerFine() }
        r.register { VerFine() }
        let report = r.expectValid()
        #expect(report.isValid)
        #expect(report.warnings.count == 1)
    }

    /// `expectValid` takes the caller's isolation and the same skipping and stand-ins as `verify()`.
    @MainActor @Test func expectValidFromMainActorCodeWithStandIns() {
        let r = Resolver(id: "ver-expect-main")
        r.register { @MainActor resolver in VerMainModel(api: resolver.resolve()) }
        r.register { VerArgumentUser(VerArgs("x")) }
        let report = r.expectValid(skipping: [VerArgumentUser.self], providing: { $0.register { VerAPI() } })
        #expect(report.verified == ["VerMainModel"])
        #expect(report.skipped == ["VerArgumentUser"])
    }
}

@MainActor final class VerMainModel {
    init(api: VerAPI) {}
}

enum VerQualifier: Qualifier {}

/// `XCTAssertResolves` passes for a sound container and fails with the report for a broken one.
final class VerificationXCTests: XCTestCase {
    private var capturedFailures: [String] = []
    private var capturesFailures = false

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturesFailures {
            capturedFailures.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testSoundContainerResolves() {
        XCTAssertResolves(makeSoundContainer(id: "ver-xctest-sound"))
    }

    func testBrokenContainerFailsWithTheReport() {
        let r = makeBrokenContainer(id: "ver-xctest-broken")
        let expected = r.verify().description
        capturesFailures = true
        XCTAssertResolves(r)
        capturesFailures = false
        XCTAssertEqual(capturedFailures.count, 1)
        XCTAssertTrue(capturedFailures.first?.contains(expected) == true, "\(capturedFailures)")
    }

    /// Testing.md: on Linux, a test method hops to the main actor rather than being `@MainActor`.
    func testFromTheMainActor() async {
        await MainActor.run {
            let r = makeSoundContainer(id: "ver-xctest-main-actor")
            r.register { @MainActor in VerMainActorModel() }
            XCTAssertResolves(r)
            XCTAssertEqual(r.verify().skipped, [], "from main-actor code nothing is skipped")
        }
    }

    func testAsyncTwinBuildsTheAsyncRegistrations() async {
        let r = Resolver()
        r.register(lifetime: .singleton) { () async -> VerAsyncStore in VerAsyncStore() }
        r.register { r in VerAsyncClient(store: r.resolve()) }
        await XCTAssertResolvesAsync(r)
        XCTAssertTrue(r.verify().isValid)  // the client is listed as skipped there
    }

    func testAsyncTwinFailsWithTheReport() async {
        let r = Resolver()
        r.register(lifetime: .singleton) { () async throws -> VerAsyncStore in throw VerAsyncFailure() }
        let expected = await r.verifyAsync().description
        capturesFailures = true
        await XCTAssertResolvesAsync(r)
        capturesFailures = false
        XCTAssertEqual(capturedFailures.count, 1)
        XCTAssertTrue(capturedFailures.first?.contains(expected) == true, "\(capturedFailures)")
    }
}

@MainActor final class VerMainActorModel {}
actor VerAsyncStore {}
struct VerAsyncFailure: Error {}
final class VerAsyncClient {
    let store: VerAsyncStore
    init(store: VerAsyncStore) { self.store = store }
}
