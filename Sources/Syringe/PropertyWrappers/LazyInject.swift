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
///
/// A thread resolving the value is, to ``Construction``, a thread building it: one that reads
/// the property meanwhile waits for it, unless waiting would close a loop of threads waiting
/// on one another (then the program stops with a cycle message instead of hanging).
final class LazyBox<T>: @unchecked Sendable {
    /// Guards `stored` and `make`, for reads once the value is there.
    private let lock = Lock()
    private var stored: T?
    private var make: (() -> T)?
    private let site: SourceLocation?

    init(_ request: InjectionRequest) {
        let resolver = request.resolver()
        var request = request
        // An object created by a factory that a main-actor caller is resolving was created on
        // the main actor too, even where the wrapper's own default argument cannot tell.
        if !request.isOnMainActor { request.isOnMainActor = ThreadState.current.callerIsOnMainActor }
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
        lock.lock()
        if let stored {
            lock.unlock()
            return stored
        }
        lock.unlock()
        return resolveOnce()
    }

    /// Resolves the value, or waits for the thread resolving it.
    @inline(never)
    private func resolveOnce() -> T {
        let claim: LazyClaim<T> = Construction.shared.claimLazyValue(in: self, type: T.self, site: site) {
            lock.withLock { stored }
        }
        switch claim {
        case .existing(let value): return value
        case .cycle(let message): fatalError(message)
        case .claimed: break
        }
        let (make, current) = lock.withLock { (self.make, stored) }
        guard let make else {
            // Set meanwhile.
            Construction.shared.abandon(.lazyValue(ObjectIdentifier(self)))
            return current!
        }
        let value = make()
        Construction.shared.finish(.lazyValue(ObjectIdentifier(self))) {
            lock.withLock {
                stored = value
                self.make = nil
            }
        }
        return value
    }

    func set(_ newValue: T) {
        lock.lock()
        stored = newValue
        make = nil
        lock.unlock()
    }
}
