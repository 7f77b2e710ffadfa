/// Resolves its value the first time the property is read and holds it weakly: the
/// back-reference of a child to its parent, of a screen to its coordinator, of a delegate.
///
/// ```swift
/// final class Parent { @Inject var child: Child }
/// final class Child { @WeakLazyInject var parent: Parent? }
///
/// Resolver.register(lifetime: .graph) { Parent() }
/// Resolver.register { Child() }
/// let parent: Parent = Resolver.resolve()   // parent.child.parent === parent
/// ```
///
/// The container is chosen as ``LazyInject``'s is (the one current when the enclosing object was
/// created in a factory or a `withContainer` body, else the one current at the first read). The
/// first read resolves exactly once, however many threads read at once; once nothing else holds the
/// instance the property reads nil and `$property.isResolved` is false (it does not resolve again
/// unless ``LazyInjection/release()`` is called on `$property`). `T` is a class or a class-bound
/// protocol.
/// - SeeAlso: ``LazyInject``, ``WeakInject``
@propertyWrapper
public struct WeakLazyInject<T> {
    private let box: LazyBox<T>

    /// The instance, resolved on first access, while something else holds it; else nil.
    public var wrappedValue: T? {
        get { box.value }
        nonmutating set { box.set(newValue) }
    }

    /// `$property`: whether it holds an instance (false before the first read, after a release, and
    /// once the instance is gone), ``LazyInjection/release()`` to resolve again on the next read,
    /// and the container it resolves from.
    public var projectedValue: LazyInjection { LazyInjection(box: box) }

    /// Resolves `T` with no qualifier on first access, from `container` if given.
    public init(
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(T.self, container: container, isolation: isolation, file: file, line: line), weakly: true)
    }

    /// Resolves `T` registered under `qualifier` on first access.
    public init(
        _ qualifier: any Qualifier.Type, container: Resolver? = nil, isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(
                T.self, qualifier: qualifier, container: container, isolation: isolation, file: file, line: line),
            weakly: true)
    }

    /// Resolves `T` in `scope`, optionally under `qualifier`, on first access.
    public init(
        _ scope: any Scope.Type, _ qualifier: (any Qualifier.Type)? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(
                T.self, scope: scope, qualifier: qualifier, container: container, isolation: isolation, file: file,
                line: line),
            weakly: true)
    }

    /// Resolves `T` registered under `name` on first access.
    public init(
        name: String, container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(T.self, name: name, container: container, isolation: isolation, file: file, line: line),
            weakly: true)
    }

    /// Resolves `T` registered under `qualifier`, optionally with `name` too, on first access.
    public init(
        qualifiedBy qualifier: any Qualifier.Type, name: String? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(
                T.self, qualifier: qualifier, name: name, container: container, isolation: isolation, file: file,
                line: line),
            weakly: true)
    }

    /// Resolves `T` in `scope`, optionally under `qualifier` and with `name`, on first access.
    public init(
        scopedTo scope: any Scope.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil, name: String? = nil,
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(
                T.self, scope: scope, qualifier: qualifier, name: name, container: container, isolation: isolation,
                file: file, line: line),
            weakly: true)
    }

    /// Calls `provider` on first access instead of using the container.
    public init(_ provider: @escaping () -> T) {
        box = LazyBox(provider, weakly: true)
    }
}

extension WeakLazyInject: @unchecked Sendable where T: Sendable {}
