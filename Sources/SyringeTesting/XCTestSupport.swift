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

    /// Fails the current XCTest with the report's text when `resolver` does not verify.
    ///
    /// ```swift
    /// func testContainerIsSound() { XCTAssertResolves(Resolver.main) }
    /// ```
    public func XCTAssertResolves(_ resolver: Resolver, file: StaticString = #filePath, line: UInt = #line) {
        let report = resolver.verify()
        if !report.isValid {
            XCTFail(report.description, file: file, line: line)
        }
    }
#endif
