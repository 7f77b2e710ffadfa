import Syringe
import Testing

/// Runs a test (or every test of a suite) against its own test container, so that
/// Swift Testing's parallel tests never see each other's registrations or singletons.
///
/// ```swift
/// @Test(.isolatedResolver) func fetchesAssets() {
///     Resolver.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
///     let service: AssetService = Resolver.resolve()
///     …
/// }
///
/// @Suite(.isolatedResolver) struct CheckoutTests { … }
/// ```
///
/// On a suite, the suite gets a container and each of its tests a child of it.
///
/// `.isolatedResolver { … }` also registers into each test's container before the test runs, as
/// Factory's `.container { … }` and swift-dependencies' `.dependencies { … }` traits do:
///
/// ```swift
/// @Test(.isolatedResolver { $0.register { MockNetworkService() }.implements(NetworkServiceProtocol.self) })
/// func fetchesAssets() { let service: AssetService = Resolver.resolve() }
/// ```
public struct IsolatedResolverTrait: TestTrait, SuiteTrait, TestScoping {
    /// Registers into each test's container (on a suite, into each of its tests').
    private let registering: (@Sendable (Resolver) -> Void)?

    fileprivate init(registering: (@Sendable (Resolver) -> Void)? = nil) {
        self.registering = registering
    }

    /// `true`: on a suite, the trait applies to every test and nested suite in it.
    ///
    /// ```swift
    /// @Suite(.isolatedResolver) struct CheckoutTests {
    ///     @Suite struct Payment { @Test func charges() { … } }   // isolated too
    /// }
    /// ```
    public var isRecursive: Bool { true }

    /// A container for the suite itself, and one for each test case (nested in its suite's).
    ///
    /// Swift Testing calls it; a parameterized test gets one container per argument:
    ///
    /// ```swift
    /// @Test(.isolatedResolver, arguments: ["staging", "production"])
    /// func connects(to environment: String) { Resolver.register(name: environment) { … } }
    /// ```
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        if test.isSuite { return self }
        return testCase == nil ? nil : self
    }

    /// Runs `function` inside `Resolver.withTestContainer`, so that `Resolver.current` is a new
    /// test container for its duration. Swift Testing calls it around each test.
    ///
    /// ```swift
    /// @Test(.isolatedResolver) func usesItsOwnContainer() {
    ///     Resolver.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
    ///     #expect(Resolver.isRegistered(NetworkServiceProtocol.self))   // in this test only
    /// }
    /// ```
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Resolver.withTestContainer {
            if let registering, testCase != nil { registering(Resolver.current) }
            try await function()
        }
    }
}

extension Trait where Self == IsolatedResolverTrait {
    /// Runs the test (or suite) against its own child of the current container.
    ///
    /// ```swift
    /// @Test(.isolatedResolver) func fetchesAssets() {
    ///     Resolver.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
    ///     let service: AssetService = Resolver.resolve()
    /// }
    /// ```
    public static var isolatedResolver: Self { Self() }

    /// Runs the test (or each test of the suite) against its own child of the current container,
    /// into which `register` registers first.
    ///
    /// ```swift
    /// @Test(.isolatedResolver { $0.register { MockNetworkService() }.implements(NetworkServiceProtocol.self) })
    /// func fetchesAssets() { let service: AssetService = Resolver.resolve() }
    /// ```
    public static func isolatedResolver(_ register: @escaping @Sendable (Resolver) -> Void) -> Self {
        Self(registering: register)
    }
}
