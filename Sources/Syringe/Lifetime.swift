/// How long a resolved instance is kept and who shares it.
///
/// ```swift
/// Resolver.register(lifetime: .singleton) { Database() }
/// Resolver.register { ImageCache() }.lifetime(.weak)
/// Resolver.register { AuthService() }.lifetime(.cached(in: Session.self))
/// Resolver.register { FeatureFlags() }.lifetime(.timeToLive(.seconds(300)))
/// ```
///
/// The default is ``transient``; change it per container with ``Resolver/defaultLifetime-property``.
/// - SeeAlso: ``Scope`` for named sharing groups.
// Unchecked: the only payload that is not `Sendable` to the compiler is a scope's metatype, which
// is immutable and safe to share.
public enum Lifetime: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// A new instance on every resolution.
    case transient
    /// One instance per registration, kept until dropped or the owning container is deallocated.
    case singleton
    /// One instance per top-level resolution: everything one `resolve()` call builds,
    /// property wrappers inside it included, shares it. Only a class instance is shared, as in
    /// Resolver and Swinject: a value (a struct) is built anew at each resolution.
    case graph
    /// Shared while something else holds it; built again once every holder is gone.
    /// A value that is not a class instance cannot be held weakly: each resolution builds a new one.
    case weak
    /// One instance per registration, kept in the named cache `scope` until
    /// ``Resolver/dropCached(scopedTo:)-method`` empties that cache (a log-out, say). The scope is
    /// not part of the key: consumers resolve the type plainly.
    ///
    /// ```swift
    /// enum Session: Scope {}
    /// Resolver.register { AuthService() }.lifetime(.cached(in: Session.self))
    /// let auth: AuthService = Resolver.resolve()      // no scope named here
    /// Resolver.dropCached(scopedTo: Session.self)     // every Session instance goes
    /// ```
    case cached(in: any Scope.Type)
    /// One instance per registration, built again on the first resolution after `duration`
    /// has passed since it was built.
    case timeToLive(Duration)

    public var description: String {
        switch self {
        case .transient: "transient"
        case .singleton: "singleton"
        case .graph: "graph"
        case .weak: "weak"
        case .cached(let scope): "cached in \(typeName(scope))"
        case .timeToLive(let duration): "time to live \(duration)"
        }
    }

    public static func == (lhs: Lifetime, rhs: Lifetime) -> Bool {
        switch (lhs, rhs) {
        case (.transient, .transient), (.singleton, .singleton), (.graph, .graph), (.weak, .weak): true
        case (.cached(let left), .cached(let right)): ObjectIdentifier(left) == ObjectIdentifier(right)
        case (.timeToLive(let left), .timeToLive(let right)): left == right
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .transient: hasher.combine(0)
        case .singleton: hasher.combine(1)
        case .graph: hasher.combine(2)
        case .weak: hasher.combine(3)
        case .cached(let scope):
            hasher.combine(4)
            hasher.combine(ObjectIdentifier(scope))
        case .timeToLive(let duration):
            hasher.combine(5)
            hasher.combine(duration)
        }
    }
}
