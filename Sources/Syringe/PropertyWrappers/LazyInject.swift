/// Resolves its value from the current ``Resolver`` the first time the property is read,
/// and holds it strongly.
///
/// Use it when building the dependency is expensive, or would form a cycle in `init`.
/// The container is the one current when the enclosing object was created; the first read
/// resolves exactly once, even when several threads read at the same moment.
///
/// ```swift
/// final class ProfileModel { @LazyInject var images: ImageCache }
/// ```
/// - SeeAlso: ``Inject``, ``WeakInject``
@propertyWrapper
public struct LazyInject<T> {
    private let box: LazyBox<T>

    /// The value, resolved on first access.
    public var wrappedValue: T {
        get { box.value }
        nonmutating set { box.set(newValue) }
    }

    /// Resolves `T` with no qualifier on first access, from `container` if given.
    public init(
        container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        box = LazyBox(InjectionRequest(T.self, container: container, isolation: isolation, file: file, line: line))
    }

    /// Resolves `T` registered under `qualifier` on first access.
    public init(
        _ qualifier: any Qualifier.Type, container: Resolver? = nil, isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(
                T.self, qualifier: qualifier, container: container, isolation: isolation, file: file, line: line))
    }

    /// Resolves `T` in `scope`, optionally under `qualifier`, on first access.
    public init(
        _ scope: any Scope.Type, _ qualifier: (any Qualifier.Type)? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(
                T.self, scope: scope, qualifier: qualifier, container: container, isolation: isolation, file: file,
                line: line))
    }

    /// Resolves `T` registered under `name` on first access.
    public init(
        name: String, container: Resolver? = nil, isolation: (any Actor)? = #isolation, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(T.self, name: name, container: container, isolation: isolation, file: file, line: line))
    }

    /// Calls `provider` on first access instead of using the container.
    public init(_ provider: @escaping () -> T) {
        box = LazyBox(provider)
    }

    /// Evaluates `value` on first access instead of using the container.
    public init(_ value: @autoclosure @escaping () -> T) {
        box = LazyBox(value)
    }
}

extension LazyInject: @unchecked Sendable where T: Sendable {}

/// The storage of a ``LazyInject``: resolves once, however many threads read at once.
final class LazyBox<T>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var stored: T?
    private var make: (() -> T)?
    /// The thread resolving the value, while one is.
    private var builder: ObjectIdentifier?
    private let site: SourceLocation?

    init(_ request: InjectionRequest) {
        let resolver = request.resolver()
        let request = request.deferred
        // Weak: an instance the container caches must not keep that container alive.
        make = { [request, weak resolver] in
            guard let resolver else { fatalError(Messages.lazyContainerGone(site: request.site)) }
            return request.resolve(in: resolver)
        }
        site = request.site
    }

    init(_ provider: @escaping () -> T) {
        make = provider
        site = nil
    }

    var value: T {
        let me = ObjectIdentifier(ThreadState.current)
        lock.lock()
        while true {
            if let stored {
                lock.unlock()
                return stored
            }
            guard let builder else { break }
            if builder == me {
                lock.unlock()
                fatalError(Messages.lazyCycle(site: site))
            }
            lock.wait()
        }
        builder = me
        let make = self.make
        lock.unlock()
        let value = make!()
        lock.lock()
        stored = value
        self.make = nil
        builder = nil
        lock.broadcast()
        lock.unlock()
        return value
    }

    func set(_ newValue: T) {
        lock.lock()
        stored = newValue
        make = nil
        lock.unlock()
    }
}
