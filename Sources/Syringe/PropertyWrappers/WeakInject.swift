/// Resolves its value when the enclosing object is created and holds it weakly, like
/// `weak var`: once nothing else holds the instance, the property reads nil.
///
/// ```swift
/// protocol Coordinator: AnyObject {}
///
/// final class ProfileScreen {
///     @WeakInject var coordinator: AppCoordinator?
///     @WeakInject var delegate: Coordinator?     // a class-bound protocol works too
/// }
/// ```
///
/// `T` is a class or a class-bound protocol. A value that is not a class instance cannot be
/// held weakly: it stops the program with a message naming the type and the line that declares
/// the property.
/// - SeeAlso: ``Inject``, ``WeakLazyInject``
@propertyWrapper
public struct WeakInject<T> {
    private weak var storage: AnyObject?

    /// The instance while something else holds it, else nil.
    public var wrappedValue: T? {
        get { storage.map { $0 as! T } }
        set { storage = newValue.map { weakHolder(for: $0, site: nil) } }
    }

    /// Resolves `T` with no qualifier, from `container` if given.
    public init(
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage = InjectionRequest(T.self, container: container, isolation: isolation, file: file, line: line)
            .resolveWeakly(T.self)
    }

    /// Resolves `T` registered under `qualifier`.
    public init(
        _ qualifier: any Qualifier.Type, container: Resolver? = nil, isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage = InjectionRequest(
            T.self, qualifier: qualifier, container: container, isolation: isolation, file: file, line: line
        )
        .resolveWeakly(T.self)
    }

    /// Resolves `T` in `scope`, optionally under `qualifier`.
    public init(
        _ scope: any Scope.Type, _ qualifier: (any Qualifier.Type)? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        storage = InjectionRequest(
            T.self, scope: scope, qualifier: qualifier, container: container, isolation: isolation, file: file,
            line: line
        )
        .resolveWeakly(T.self)
    }

    /// Resolves `T` registered under `name`.
    public init(
        name: String, container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage = InjectionRequest(
            T.self, name: name, container: container, isolation: isolation, file: file, line: line
        )
        .resolveWeakly(T.self)
    }

    /// Resolves `T` registered under `qualifier`, optionally with `name` too.
    public init(
        qualifiedBy qualifier: any Qualifier.Type, name: String? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        storage = InjectionRequest(
            T.self, qualifier: qualifier, name: name, container: container, isolation: isolation, file: file,
            line: line
        )
        .resolveWeakly(T.self)
    }

    /// Resolves `T` in `scope`, optionally under `qualifier` and with `name`.
    public init(
        scopedTo scope: any Scope.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil, name: String? = nil,
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage = InjectionRequest(
            T.self, scope: scope, qualifier: qualifier, name: name, container: container, isolation: isolation,
            file: file, line: line
        )
        .resolveWeakly(T.self)
    }

    /// Uses `provider` instead of the container.
    public init(_ provider: () -> T) {
        storage = weakHolder(for: provider(), site: nil)
    }

    /// Uses the given value instead of the container.
    public init(_ value: @autoclosure () -> T) {
        storage = weakHolder(for: value(), site: nil)
    }
}

extension WeakInject: @unchecked Sendable where T: Sendable {}

extension InjectionRequest {
    /// Resolves now, for a holder that keeps the instance weakly.
    func resolveWeakly<T>(_ type: T.Type) -> AnyObject {
        weakHolder(for: resolveNow() as T, site: site)
    }
}

/// The class instance to hold weakly for `value`, or a stop with Syringe's message when it is
/// not one.
func weakHolder<T>(for value: T, site: SourceLocation?) -> AnyObject {
    guard let object = classInstance(of: value) else {
        stop(Messages.notHeldWeakly(T.self, valueType: type(of: value as Any), site: site), resolving: T.self, at: site)
    }
    return object
}
