/// How long a resolved instance is kept and who shares it.
///
/// ```swift
/// Resolver.register(lifetime: .singleton) { Database() }
/// Resolver.register { ImageCache() }.lifetime(.weak)
/// ```
///
/// The default is ``transient``; change it per container with ``Resolver/defaultLifetime-property``.
/// - SeeAlso: ``Scope`` for named sharing groups.
public enum Lifetime: Sendable, Hashable, CustomStringConvertible {
    /// A new instance on every resolution.
    case transient
    /// One instance per registration, kept until dropped or the owning container is deallocated.
    case singleton
    /// One instance per top-level resolution: everything one `resolve()` call builds,
    /// property wrappers inside it included, shares it.
    case graph
    /// Shared while something else holds it; built again once every holder is gone.
    /// The registered type must be a class.
    case weak

    public var description: String {
        switch self {
        case .transient: "transient"
        case .singleton: "singleton"
        case .graph: "graph"
        case .weak: "weak"
        }
    }
}
