/// A group of registrations, installed together with `Resolver.install(_:)`.
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
///
/// A registration made in `main` before it has run runs it first, then replaces what it
/// registered for the same key: what a tool registers at launch wins over the default registered
/// here.
///
/// ```swift
/// Resolver.register { FileStore(path: options.file) }   // runs registerAllServices() first
/// ```
///
/// It runs on whichever thread first resolves from `main`, so it is nonisolated. An app whose
/// registrations are main-actor code writes `@MainActor static func registerAllServices()` and
/// conforms to ``MainActorResolverRegistering`` instead (a `@MainActor` or `@preconcurrency`
/// conformance to this protocol would run it, or trap, off the main actor; Swift refuses the
/// first, as the protocol's metatype is used from any thread).
#if compiler(>=6.2)
    public protocol ResolverRegistering: SendableMetatype {
        /// Registers the app's services.
        static func registerAllServices()
    }
#else
    public protocol ResolverRegistering {
        /// Registers the app's services.
        static func registerAllServices()
    }
#endif

/// Lets an app register its services in one place from main-actor code, run once and lazily
/// before the first resolution from ``Resolver/main``, which must then come from main-actor code.
///
/// ```swift
/// extension Resolver: @retroactive MainActorResolverRegistering {
///     @MainActor public static func registerAllServices() {
///         register { AssetListViewModel() }   // main-actor-bound, as every factory written here
///         install(NetworkModule())            // a module's own factories stay nonisolated
///     }
/// }
/// ```
///
/// If the first resolution that reaches `main` runs off the main actor, the program stops with
/// Syringe's message, before any registration is missing: resolve something from main-actor code
/// first (at launch, or in a `@MainActor` test). Use ``ResolverRegistering`` for a nonisolated
/// `registerAllServices()`; a type conforming to both runs that one, and writes it `nonisolated`.
///
/// A registration made in `main` before it has run runs it first when made from main-actor code,
/// so the registration wins over what it registers for the same key. Made off the main actor, the
/// registration cannot run it there and does not stop the program: it is made at once, and
/// `registerAllServices()`, when it runs, replaces it with its own registration of that key.
#if compiler(>=6.2)
    public protocol MainActorResolverRegistering: SendableMetatype {
        /// Registers the app's services, on the main actor.
        @MainActor static func registerAllServices()
    }
#else
    public protocol MainActorResolverRegistering {
        /// Registers the app's services, on the main actor.
        @MainActor static func registerAllServices()
    }
#endif

/// A place in the source, captured at registration and by property wrappers.
struct SourceLocation: Sendable, CustomStringConvertible, Equatable {
    let file: StaticString
    let line: UInt

    var description: String { "\(file):\(line)" }

    static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.line == rhs.line && lhs.file.description == rhs.file.description
    }
}
