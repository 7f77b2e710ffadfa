/// Resolves its value when the enclosing object is created, or holds nil when nothing
/// is registered for it.
///
/// ```swift
/// final class CheckoutModel {
///     @OptionalInject var analytics: Analytics?
/// }
/// ```
/// - SeeAlso: ``Inject``
@propertyWrapper
public struct OptionalInject<T> {
    /// The resolved value, or nil when nothing is registered.
    public var wrappedValue: T?

    /// Resolves `T` with no qualifier, from `container` if given.
    public init(
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        let request = InjectionRequest(T.self, container: container, isolation: isolation, file: file, line: line)
        wrappedValue = request.optional(in: request.resolver())
    }

    /// Resolves `T` registered under `qualifier`.
    public init(
        _ qualifier: any Qualifier.Type, container: Resolver? = nil, isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        let request = InjectionRequest(
            T.self, qualifier: qualifier, container: container, isolation: isolation, file: file, line: line)
        wrappedValue = request.optional(in: request.resolver())
    }

    /// Resolves `T` in `scope`, optionally under `qualifier`.
    public init(
        _ scope: any Scope.Type, _ qualifier: (any Qualifier.Type)? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        let request = InjectionRequest(
            T.self, scope: scope, qualifier: qualifier, container: container, isolation: isolation, file: file,
            line: line)
        wrappedValue = request.optional(in: request.resolver())
    }

    /// Resolves `T` registered under `name`.
    public init(
        name: String, container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        let request = InjectionRequest(
            T.self, name: name, container: container, isolation: isolation, file: file, line: line)
        wrappedValue = request.optional(in: request.resolver())
    }

    /// Resolves `T` registered under `qualifier`, optionally with `name` too.
    public init(
        qualifiedBy qualifier: any Qualifier.Type, name: String? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        let request = InjectionRequest(
            T.self, qualifier: qualifier, name: name, container: container, isolation: isolation, file: file,
            line: line)
        wrappedValue = request.optional(in: request.resolver())
    }

    /// Resolves `T` in `scope`, optionally under `qualifier` and with `name`.
    public init(
        scopedTo scope: any Scope.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil, name: String? = nil,
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        let request = InjectionRequest(
            T.self, scope: scope, qualifier: qualifier, name: name, container: container, isolation: isolation,
            file: file, line: line)
        wrappedValue = request.optional(in: request.resolver())
    }

    /// Uses `provider` instead of the container.
    public init(_ provider: () -> T?) {
        wrappedValue = provider()
    }

    /// Uses the given value instead of the container.
    public init(_ value: @autoclosure () -> T?) {
        wrappedValue = value()
    }
}

extension OptionalInject: Sendable where T: Sendable {}
