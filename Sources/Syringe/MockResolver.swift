/// A quick container for tests and previews, set up in one expression.
///
/// ```swift
/// let mock = MockResolver(parent: .main) { r in
///     r.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
/// }
/// Resolver.root = mock
/// ```
public final class MockResolver: Resolver, @unchecked Sendable {
    /// A child of `parent` (or a standalone container), with `registrations` applied.
    public init(parent: Resolver? = nil, _ registrations: (Resolver) -> Void = { _ in }) {
        if let parent {
            super.init(parent: parent)
        } else {
            super.init(id: Resolver.privateID("mock \(MockResolver.nextNumber())"))
        }
        registrations(self)
    }

    private static let counterLock = Lock()
    nonisolated(unsafe) private static var count = 0

    private static func nextNumber() -> Int {
        counterLock.withLock {
            count += 1
            return count
        }
    }
}
