/// A group of registrations, installed together with ``Resolver/install(_:)-type.method``.
///
/// ```swift
/// struct NetworkModule: ResolverModule {
///     func register(in resolver: Resolver) {
///         resolver.register(NetworkServiceProtocol.self) { NetworkService() }
///         resolver.register { URLComponentsService() }
///     }
/// }
///
/// Resolver.install(NetworkModule())
/// ```
///
/// A module can also act once every module of the same `install` call has registered
/// (Swinject's `Assembly.loaded`), for work that needs their registrations:
///
/// ```swift
/// struct AnalyticsModule: ResolverModule {
///     func register(in resolver: Resolver) { resolver.register(lifetime: .singleton) { Analytics() } }
///     func loaded(into resolver: Resolver) { (resolver.resolve() as Analytics).start() }
/// }
/// ```
public protocol ResolverModule {
    /// Adds the module's registrations to `resolver`.
    func register(in resolver: Resolver)

    /// Called after every module of the same `install` call has registered. Does nothing unless
    /// the module implements it.
    func loaded(into resolver: Resolver)
}

extension ResolverModule {
    public func loaded(into resolver: Resolver) {}
}

/// Lets an app register its services in one place, run once and lazily before the first
/// resolution from ``Resolver/main``.
///
/// ```swift
/// extension Resolver: @retroactive ResolverRegistering {
///     public static func registerAllServices() {
///         register { NetworkService() }.implements(NetworkServiceProtocol.self)
///         register { AssetService() }
///     }
/// }
/// ```
///
/// While it runs, ``Resolver/current`` is ``Resolver/main``, so its bare `register`
/// calls land in `main` even when the first resolution happens inside a test container.
public protocol ResolverRegistering {
    /// Registers the app's services.
    static func registerAllServices()
}

/// A place in the source, captured at registration and by property wrappers.
struct SourceLocation: Sendable, CustomStringConvertible {
    let file: StaticString
    let line: UInt

    var description: String { "\(file):\(line)" }
}
