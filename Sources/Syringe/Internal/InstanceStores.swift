/// How one registration keeps the instances it builds: one small store per lifetime, chosen when
/// the registration is made (``make(for:)``) and replaced whole when its lifetime changes.
///
/// A store is guarded by ``registryLock`` (read under the read lock, changed under the write
/// lock) and never runs user code: whatever it stops keeping goes to the caller's ``Leftovers``,
/// released once the lock is gone. A test container keeps an ``emptyCopy()`` of its own. The base
/// class is ``Lifetime/transient``: nothing is kept.
class InstanceStore<T> {
    /// Whether an instance outlives the resolution that built it: it is built once however many
    /// threads ask, by the container that owns the registration.
    var sharesInstances: Bool { false }

    /// The instance to hand out without building, if one is kept for `resolution`.
    func instance(for resolution: Resolution) -> T? { nil }

    /// Keeps a new instance built for `resolution` by a resolution from `container`.
    func keep(_ value: T, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers) {}

    /// Forgets the kept instance (`dropCached`).
    func drop(into leftovers: inout Leftovers) {}

    /// Whether a test container keeps instances of its own in an ``emptyCopy()``; otherwise the
    /// registration's instance is the same for every container, or nothing is kept.
    var isCopiedPerContainer: Bool { false }

    /// An empty store of the same lifetime, for a test container's own instances.
    func emptyCopy() -> InstanceStore<T> { self }

    /// The lifetime, as messages and the dependency graph name it.
    var lifetimeDescription: String { "transient" }

    /// The scope or named cache the instances belong to, for `dropCached(scopedTo:)`.
    var scope: ObjectIdentifier? { nil }

    /// Whether open ``ScopeHandle``s of ``scope`` keep the instances alive.
    var isWeaklyScoped: Bool { false }

    /// What is kept now, for hints and scope handles.
    var keptInstance: Any? { nil }

    /// The store for `lifetime`.
    static func make(for lifetime: Lifetime) -> InstanceStore<T> {
        switch lifetime {
        case .transient: InstanceStore()
        case .graph: GraphStore()
        case .singleton: SingletonStore()
        case .weak: WeakStore()
        case .cached(let cache): SingletonStore("cached in \(typeName(cache))", scope: ObjectIdentifier(cache))
        case .timeToLive(let duration): TimeToLiveStore(duration: duration)
        }
    }

    /// The store for a registration in `scope`, by the scope's retention.
    static func scoped(_ scope: any Scope.Type) -> InstanceStore<T> {
        switch scope.retention {
        case .weak: WeakStore(scope: ObjectIdentifier(scope))
        case .strong: SingletonStore("scoped (strong)", scope: ObjectIdentifier(scope))
        }
    }
}

/// ``Lifetime/graph``: one instance per top-level resolution, kept in its ``GraphScope``.
final class GraphStore<T>: InstanceStore<T> {
    override func instance(for resolution: Resolution) -> T? {
        resolution.graph.instance(for: self) as? T
    }

    override func keep(_ value: T, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers) {
        resolution.keepInGraph(value, for: self)
    }

    override var lifetimeDescription: String { "graph" }
}

/// ``Lifetime/singleton``: one instance, kept strongly until dropped. Named caches and strong
/// scopes are singletons that answer to a scope.
class SingletonStore<T>: InstanceStore<T> {
    private(set) var value: T?
    private let name: String
    private let scopeID: ObjectIdentifier?

    init(_ name: String = "singleton", scope: ObjectIdentifier? = nil, value: T? = nil) {
        self.name = name
        scopeID = scope
        self.value = value
    }

    override var sharesInstances: Bool { true }
    override func instance(for resolution: Resolution) -> T? { value }

    override func keep(_ value: T, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers) {
        leftovers.append(self.value)
        self.value = value
    }

    override func drop(into leftovers: inout Leftovers) {
        leftovers.append(value)
        value = nil
    }

    override var isCopiedPerContainer: Bool { true }
    override func emptyCopy() -> InstanceStore<T> { SingletonStore(name, scope: scopeID) }
    override var lifetimeDescription: String { name }
    override var scope: ObjectIdentifier? { scopeID }
    override var keptInstance: Any? { value }
}

/// `registerSingleton(_:)`: the instance given is the registration itself, shared by every
/// container that reaches it (test containers included) and never dropped.
final class FixedInstanceStore<T>: SingletonStore<T> {
    init(_ instance: T) {
        super.init("singleton (instance)", value: instance)
    }

    override func drop(into leftovers: inout Leftovers) {}
    override var isCopiedPerContainer: Bool { false }
}

/// ``Lifetime/timeToLive(_:)``: a singleton built again on the first resolution after it has
/// lived `duration`.
final class TimeToLiveStore<T>: SingletonStore<T> {
    private let duration: Duration
    private var expiry = ContinuousClock.now

    init(duration: Duration) {
        self.duration = duration
        super.init("time to live \(duration)")
    }

    override func instance(for resolution: Resolution) -> T? {
        ContinuousClock.now < expiry ? value : nil
    }

    override func keep(_ value: T, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers) {
        super.keep(value, for: resolution, from: container, leftovers: &leftovers)
        expiry = ContinuousClock.now.advanced(by: duration)
    }

    override func emptyCopy() -> InstanceStore<T> { TimeToLiveStore(duration: duration) }
}

/// ``Lifetime/weak``, and scopes of ``ScopeRetention/weak`` retention: the instance is shared
/// while something else holds it (or a ``ScopeHandle`` of its scope is open).
///
/// A value that is not a class instance cannot be held weakly: each resolution builds a new one.
final class WeakStore<T>: InstanceStore<T> {
    private weak var object: AnyObject?
    private let scopeID: ObjectIdentifier?

    init(scope: ObjectIdentifier? = nil) {
        scopeID = scope
    }

    override var sharesInstances: Bool { true }

    override func instance(for resolution: Resolution) -> T? {
        object.map { $0 as! T }
    }

    override func keep(_ value: T, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers) {
        guard let instance = classInstance(of: value) else {
            resolution.verification?.noteNotHeldWeakly(lifetime: lifetimeDescription, resolution: resolution)
            return
        }
        object = instance
        if let scopeID { container.retainInOpenScopes(instance, scope: scopeID) }
    }

    override func drop(into leftovers: inout Leftovers) {
        leftovers.append(object)
        object = nil
    }

    override var isCopiedPerContainer: Bool { true }
    override func emptyCopy() -> InstanceStore<T> { WeakStore(scope: scopeID) }
    override var lifetimeDescription: String { scopeID == nil ? "weak" : "scoped" }
    override var scope: ObjectIdentifier? { scopeID }
    override var isWeaklyScoped: Bool { scopeID != nil }
    override var keptInstance: Any? { object }
}

/// The class instance a value holds, if it can be held weakly: the value itself, or what an
/// Optional wraps.
func classInstance(of value: Any) -> AnyObject? {
    if let optional = value as? any OptionalType { return optional.wrappedAny.flatMap(classInstance(of:)) }
    guard type(of: value) is AnyClass else { return nil }
    return value as AnyObject
}
