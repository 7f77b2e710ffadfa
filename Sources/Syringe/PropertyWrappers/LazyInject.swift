/// Resolves its value from the current ``Resolver`` the first time the property is read,
/// and holds it strongly.
///
/// Use it when building the dependency is expensive, or would form a cycle in `init`.
/// The container is the one current when the enclosing object was created inside a factory or a
/// `withContainer` body (kept weakly); for an object created outside both, the one current at the
/// first read. The first read resolves exactly once, even when several threads read at the same
/// moment.
///
/// ```swift
/// final class ProfileModel { @LazyInject var images: ImageCache }
/// ```
/// Its projected value tells whether it has resolved and can make it resolve again:
/// `$images.isResolved`, `$images.release()`, `$images.container`.
/// - SeeAlso: ``Inject``, ``WeakLazyInject``
@propertyWrapper
public struct LazyInject<T> {
    private let box: LazyBox<T>

    /// The value, resolved on first access.
    public var wrappedValue: T {
        get { box.value! }
        nonmutating set { box.set(newValue) }
    }

    /// `$property`: whether the value has resolved, ``LazyInjection/release()`` to resolve it
    /// again on the next read, and the container it resolves from.
    public var projectedValue: LazyInjection { LazyInjection(box: box) }

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

    /// Resolves `T` registered under `qualifier`, optionally with `name` too, on first access.
    public init(
        qualifiedBy qualifier: any Qualifier.Type, name: String? = nil, container: Resolver? = nil,
        isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) {
        box = LazyBox(
            InjectionRequest(
                T.self, qualifier: qualifier, name: name, container: container, isolation: isolation, file: file,
                line: line))
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
                file: file, line: line))
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

/// The storage of the lazy wrappers: resolves once, however many threads read at once, and
/// holds the value strongly (``LazyInject``) or weakly (``WeakLazyInject``).
///
/// A thread resolving the value is, to ``Construction``, a thread building it: one that reads
/// the property meanwhile waits for it, unless waiting would close a loop of threads waiting
/// on one another (then the program stops with a cycle message instead of hanging).
final class LazyBox<T>: AnyLazyBox, @unchecked Sendable {
    private enum Held {
        case nothing
        case strongly(T)
        case weakly(Weak)
    }

    private final class Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject?) { self.object = object }
    }

    /// Guards `held`, `resolver` and `keepsResolver`.
    private let lock = Lock()
    private var held = Held.nothing
    private let holdsWeakly: Bool
    /// What the first read resolves; nil for the provider and value forms, which call `provider`.
    private var request: InjectionRequest?
    private let provider: (() -> T)?
    private let site: SourceLocation?
    /// The container it resolves from: the one given, or the one current when it was made inside a
    /// factory or a `withContainer` body (`keepsResolver`); else the one its first read used.
    /// Weak: an instance the container caches must not keep that container alive.
    private weak var resolver: Resolver?
    private var keepsResolver: Bool
    /// The `.graph` scope of the resolution that created it, if one did: its first read finds
    /// that resolution's instances.
    private let graph: GraphScope?

    init(_ request: InjectionRequest, weakly: Bool = false) {
        let resolution = Resolution.current
        let resolver = request.container ?? Resolver.bound(in: resolution)
        self.request = request.deferred
        provider = nil
        site = request.site
        holdsWeakly = weakly
        self.resolver = resolver
        keepsResolver = resolver != nil
        resolution.verification?.noteLazyRequest(
            request.deferred, in: resolver ?? Resolver.current(in: resolution), as: T.self, path: resolution.path)
        graph = resolution.graphScopeForLazyWrapper()
    }

    init(_ provider: @escaping () -> T, weakly: Bool = false) {
        self.provider = provider
        site = nil
        holdsWeakly = weakly
        keepsResolver = false
        graph = nil
    }

    /// Resolves the value: from the container kept (stopping if it is gone), else from the one
    /// current now (an object made outside any factory and `withContainer` body, such as a test
    /// case that `setUp` registers for, reads the root of its first read, as Resolver's does),
    /// which it notes unless `noting` is false.
    private func make(noting: Bool = true) -> T {
        let (request, kept, keeps) = lock.withLock { (self.request, resolver, keepsResolver) }
        guard let request else { return provider!() }
        if keeps {
            guard let kept else {
                stop(
                    Messages.lazyContainerGone(site: request.site, weakly: holdsWeakly), resolving: T.self,
                    at: request.site)
            }
            return request.resolve(in: kept)
        }
        let current = Resolver.current
        if noting { lock.withLock { resolver = current } }
        return request.resolve(in: current)
    }

    /// Whether a first read in the `verify()` run `run` resolves in the run's own container: one
    /// that resolves from the current container (the run's, inside its factories), or from a
    /// container the run verifies.
    private func resolvesInside(_ run: VerificationRun) -> Bool {
        let (request, kept, keeps) = lock.withLock { (self.request, resolver, keepsResolver) }
        guard request != nil else { return false }
        guard keeps else { return true }
        return kept.map { run.replacement(for: $0) != nil } ?? false
    }

    var value: T? {
        switch lock.withLock({ held }) {
        case .strongly(let value): value
        case .weakly(let weak): weak.object.map { $0 as! T }
        case .nothing: resolveOnce()
        }
    }

    /// The first read: resolves the value, once however many threads read at once.
    @inline(never)
    private func resolveOnce() -> T? {
        let resolution = Resolution.current
        if let run = resolution.verification, resolvesInside(run) {
            // A `verify()` run reads the property of an object that outlives it: the value is built
            // in the run's container, so it is used for this read and not kept.
            return resolution.withGraphScope(graph) { make(noting: false) }
        }
        let claim: Construction.Claim<T?> = Construction.shared.claim(
            self, subject: .lazyValue(type: T.self, site: site), in: resolution
        ) { lock.withLock { self.resolvedValue } }
        switch claim {
        case .existing(let value): return value
        case .loop(_, nil, _): stop(Messages.lazyCycle(site: site, weakly: holdsWeakly), resolving: T.self, at: site)
        case .loop(_, let otherTrail?, _):
            let trail = Construction.Subject.lazyValue(type: T.self, site: site).trail(from: resolution.path)
            let message = Messages.lazyCycleAcrossThreads(
                site: site, weakly: holdsWeakly, trail: trail, otherTrail: otherTrail)
            stop(message, resolving: T.self, at: site)
        case .claimed: break
        }
        let value = resolution.withGraphScope(graph) { make() }
        let newHeld: Held = holdsWeakly ? .weakly(Weak(weakHolder(for: value, site: site))) : .strongly(value)
        var replaced = Held.nothing
        Construction.shared.finish(self) {
            lock.withLock {
                if case .nothing = held { held = newHeld } else { replaced = newHeld }  // a value set meanwhile wins
            }
        }
        withExtendedLifetime(replaced) {}  // released here, after both locks
        return lock.withLock { resolvedValue } ?? (holdsWeakly ? nil : value)
    }

    /// The value once resolved (nil inside while a weakly held one is gone); nil before.
    private var resolvedValue: T?? {
        switch held {
        case .nothing: nil
        case .strongly(let value): .some(value)
        case .weakly(let weak): .some(weak.object.map { $0 as! T })
        }
    }

    /// Sets the value, or forgets it (`nil`) so that the next read resolves again.
    func set(_ newValue: T?) {
        let newHeld: Held
        if let newValue {
            newHeld = holdsWeakly ? .weakly(Weak(weakHolder(for: newValue, site: site))) : .strongly(newValue)
        } else {
            newHeld = .weakly(Weak(nil))
        }
        let old = lock.withLock {
            defer { held = newHeld }
            return held
        }
        withExtendedLifetime(old) {}  // released after the lock
    }

    override var isResolved: Bool {
        // A weakly held instance is read after the lock: the strong reference the read makes may be
        // the last, and its deinit must not run under the lock.
        switch lock.withLock({ held }) {
        case .nothing: false
        case .strongly: true
        case .weakly(let weak): weak.object != nil
        }
    }

    override func release() {
        let old = lock.withLock {
            defer { held = .nothing }
            return held
        }
        withExtendedLifetime(old) {}  // released after the lock
    }

    override var container: Resolver? {
        get {
            let (request, kept, keeps) = lock.withLock { (self.request, resolver, keepsResolver) }
            guard request != nil else { return nil }
            return kept ?? (keeps ? nil : Resolver.current)
        }
        set {
            lock.withLock {
                guard request != nil else { return }  // the provider and value forms use none
                (resolver, keepsResolver) = (newValue, newValue != nil)
            }
        }
    }

    override var name: String? {
        get { lock.withLock { request?.key.name } }
        set { lock.withLock { request?.rename(newValue) } }
    }
}

/// What the projected value of a lazy wrapper reads, without knowing its type.
class AnyLazyBox {
    var isResolved: Bool { fatalError("abstract") }
    func release() { fatalError("abstract") }
    var container: Resolver? {
        get { fatalError("abstract") }
        set { fatalError("abstract") }
    }
    var name: String? {
        get { fatalError("abstract") }
        set { fatalError("abstract") }
    }
}

/// The projected value of ``LazyInject`` and ``WeakLazyInject`` (`$property`): whether it holds a
/// resolved value, a way to make it resolve again, and the container it resolves from.
///
/// ```swift
/// final class ProfileModel {
///     @LazyInject var images: ImageCache
///     func signOut() { $images.release() }   // the next read resolves again
/// }
/// ```
public struct LazyInjection: @unchecked Sendable {
    let box: AnyLazyBox

    /// Whether the property holds a value: the first read (or a set) has happened since it was
    /// created or released and, for a ``WeakLazyInject``, the instance it holds weakly is still
    /// alive (Resolver's `isEmpty` is `!isResolved`).
    public var isResolved: Bool { box.isResolved }

    /// Forgets the value, so that the next read resolves again.
    public func release() { box.release() }

    /// The container the property resolves from: the one given with `container:` (or set here),
    /// or the one current when its object was created inside a factory or a `withContainer` body;
    /// for an object created outside both, ``Resolver/current`` at its first read (and the one
    /// that read used, after it). Nil for the provider and value forms, or once a container kept
    /// is gone.
    ///
    /// Set before the first read (or after ``release()``), it chooses the container the next read
    /// resolves from, as Resolver's `$property.container = …` does.
    public var container: Resolver? {
        get { box.container }
        nonmutating set { box.container = newValue }
    }

    /// The name the property resolves with; set before the first read (or after ``release()``),
    /// it chooses the registration the next read resolves, as Resolver's `$property.name = …` does.
    /// Nil for the provider and value forms.
    public var name: String? {
        get { box.name }
        nonmutating set { box.name = newValue }
    }
}
