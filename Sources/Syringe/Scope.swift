/// Marks a named sharing group: everyone resolving a type in the scope gets the same
/// instance while any of them holds it.
///
/// ```swift
/// enum RegistrationFlow: Scope {}
///
/// Resolver.register(scopedTo: RegistrationFlow.self) { User() }
/// final class UsernameScreen { @Inject(RegistrationFlow.self) var user: User }
/// final class PasswordScreen { @Inject(RegistrationFlow.self) var user: User }  // the same User
/// ```
///
/// Once every holder is gone, the next resolution builds a new instance. A scope that
/// declares ``ScopeRetention/strong`` keeps its instances until
/// ``Resolver/dropCached(scopedTo:)-method``:
///
/// ```swift
/// enum Session: Scope { static var retention: ScopeRetention { .strong } }
/// ```
public protocol Scope {
    /// How the scope holds its instances; ``ScopeRetention/weak`` unless the scope says otherwise.
    static var retention: ScopeRetention { get }
}

extension Scope {
    public static var retention: ScopeRetention { .weak }
}

/// How a ``Scope`` holds the instances it shares.
public enum ScopeRetention: Sendable, Hashable {
    /// Instances live while something outside the container holds them (or a
    /// ``ScopeHandle`` from ``Resolver/beginScope(_:)-type.method`` is open).
    case weak
    /// Instances live until ``Resolver/dropCached(scopedTo:)-method`` or the container goes.
    case strong
}

/// The built-in application-wide scope: strong, so its instances live until dropped.
///
/// ```swift
/// Resolver.register(scopedTo: Global.self) { Settings() }
/// ```
public enum Global: Scope {
    public static var retention: ScopeRetention { .strong }
}

/// Marks a type that is always a singleton, whatever its registration says.
///
/// ```swift
/// final class Database: Singleton { }
/// Resolver.register { Database() }   // one Database per container
/// ```
public protocol Singleton {}
