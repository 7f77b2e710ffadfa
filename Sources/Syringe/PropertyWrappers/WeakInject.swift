/// Resolves its value when the enclosing object is created and holds it weakly, like
/// `weak var`: once nothing else holds the instance, the property reads nil.
///
/// ```swift
/// final class ProfileScreen {
///     @WeakInject var coordinator: AppCoordinator?
/// }
/// ```
/// - SeeAlso: ``Inject``
@propertyWrapper
public struct WeakInject<T: AnyObject> {
    private weak var storage: T?

    /// The instance while something else holds it, else nil.
    public var wrappedValue: T? {
        get { storage }
        set { storage = newValue }
    }

    /// Resolves `T` with no qualifier, from `container` if given.
    public init(
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage =
            InjectionRequest(T.self, container: container, isolation: isolation, file: file, line: line).resolveNow()
            as T
    }

    /// Resolves `T` registered under `qualifier`.
    public init(
        _ qualifier: any Qualifier.Type, container: Resolver? = nil, isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage =
            InjectionRequest(
                T.self, qualifier: qualifier, container: container, isolation: isolation, file: file, line: line
            )
            .resolveNow() as T
    }

    /// Resolves `T` in `scope`, optionally under `qualifier`.
    public init(
        _ scope: any Scope.Type, _ qualifier: (any Qualifier.Type)? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        storage =
            InjectionRequest(
                T.self, scope: scope, qualifier: qualifier, container: container, isolation: isolation, file: file,
                line: line
            )
            .resolveNow() as T
    }

    /// Resolves `T` registered under `name`.
    public init(
        name: String, container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage =
            InjectionRequest(T.self, name: name, container: container, isolation: isolation, file: file, line: line)
            .resolveNow() as T
    }

    /// Uses `provider` instead of the container.
    public init(_ provider: () -> T) {
        storage = provider()
    }

    /// Uses the given value instead of the container.
    public init(_ value: @autoclosure () -> T) {
        storage = value()
    }
}

extension WeakInject: @unchecked Sendable where T: Sendable {}
