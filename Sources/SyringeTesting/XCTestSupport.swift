#if canImport(XCTest)
    import Syringe
    import XCTest

    /// An `XCTestCase` whose every test runs against its own test container, as the
    /// `.isolatedResolver` trait does for Swift Testing.
    ///
    /// ```swift
    /// final class AssetServiceTests: SyringeTestCase {
    ///     override func setUp() {
    ///         super.setUp()
    ///         Resolver.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
    ///     }
    ///     func testFetchAssets() { let service: AssetService = Resolver.resolve(); … }
    /// }
    /// ```
    ///
    /// `setUp`, the test and `tearDown` all see the same container.
    open class SyringeTestCase: XCTestCase {
        /// Runs the test, `setUp` and `tearDown` included, inside `Resolver.withTestContainer`.
        ///
        /// A subclass that overrides it calls `super` to keep the isolation:
        ///
        /// ```swift
        /// override func invokeTest() {
        ///     FeatureFlags.reset()   // runs before the test container exists
        ///     super.invokeTest()     // setUp, the test and tearDown, in their own container
        /// }
        /// ```
        override open func invokeTest() {
            Resolver.withTestContainer {
                super.invokeTest()
            }
        }
    }

    /// Fails the current XCTest with the report's text when `resolver` does not verify
    /// (`Resolver.verify(skipping:providing:isolation:)`); prints the report when it verifies
    /// with warnings.
    ///
    /// ```swift
    /// func testContainerIsSound() { XCTAssertResolves(Resolver.main) }
    /// ```
    public func XCTAssertResolves(
        _ resolver: Resolver, skipping: [any Any.Type] = [], providing standIns: ((Resolver) -> Void)? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #filePath, line: UInt = #line
    ) {
        record(resolver.verify(skipping: skipping, providing: standIns, isolation: isolation), file: file, line: line)
    }

    /// ``XCTAssertResolves(_:skipping:providing:isolation:file:line:)`` with
    /// `Resolver.verifyAsync(skipping:providing:isolation:)`, which also builds the async
    /// registrations.
    ///
    /// ```swift
    /// func testContainerIsSound() async { await XCTAssertResolvesAsync(Resolver.main) }
    /// ```
    public func XCTAssertResolvesAsync(
        _ resolver: Resolver, skipping: [any Any.Type] = [], providing standIns: ((Resolver) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation, file: StaticString = #filePath, line: UInt = #line
    ) async {
        let report = await resolver.verifyAsync(skipping: skipping, providing: standIns, isolation: isolation)
        record(report, file: file, line: line)
    }

    private func record(_ report: VerificationReport, file: StaticString, line: UInt) {
        if !report.isValid {
            XCTFail(report.description, file: file, line: line)
        } else if !report.warnings.isEmpty {
            print("\(file):\(line): warning: \(report.description)")
        }
    }
#endif
