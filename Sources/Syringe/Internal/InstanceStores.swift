/// How one registration keeps the instances it builds: one small store per lifetime, chosen when
/// the registration is made (``make(for:)``) and replaced whole when its lifetime changes. The base
/// class is ``Lifetime/transient``: nothing is kept.
///
/// A store is guarded by ``registryLock`` (read under the read lock, changed under the write
/// lock) and never runs user code: whatever it stops keeping goes to the caller's ``Leftovers``,
/// released once the lock is gone. A test container keeps an ``emptyCopy()`` of its own. Stores
/// hold instances boxed (``Kept``), so that they need not know the instances' type.
class InstanceStore {
    /// Whether an instance outlives the resolution that built it: it is built once however many
    /// threads ask, by the container that owns the registration.
    var sharesInstances: Bool { false }

    /// The instance to hand out without building, if one is kept for `resolution`.
    func kept(for resolution: Resolution) -> AnyKept? { nil }

    /// Keeps a new instance built for `resolution` by a resolution from `container`.
    func keep(_ instance: AnyKept, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers) {}

    /// Forgets the kept instance (`dropCached`).
    func drop(into leftovers: inout Leftovers) {}

    /// Whether a test container keeps instances of its own in an ``emptyCopy()``; otherwise the
    /// registration's instance is the same for every container, or nothing is kept.
    var isCopiedPerContainer: Bool { false }

    /// An empty store of the same lifetime, for a test container's own instances.
    func emptyCopy() -> InstanceStore { self }

    /// What the stores of one line share, once a drop has continued it
    /// (``AnyProvider/dropCache(keptBy:leftovers:)``): a test container's copy made from any of them
    /// still serves the registration. A token rather than the first store, which would keep what a
    /// build under way at the first drop keeps in it.
    private(set) final var lineageToken: AnyObject?
    /// The line's identity: its token, or this store while no drop has continued it.
    final var lineage: AnyObject { lineageToken ?? self }
    /// How many drops the line had when this store began serving it: a store of the same line with a
    /// higher count came after a drop, one with the same count replaced it otherwise (a marked first
    /// instance's singleton, ``continueLine(of:)``).
    private(set) final var drops: UInt32 = 0

    /// An empty store like this one, continuing its line: what a drop gives the registration, so
    /// that a build under way keeps its instance in this one, which nothing serves any more. Write
    /// lock held.
    final func successorAfterDrop() -> InstanceStore {
        if lineageToken == nil { lineageToken = LineageToken() }
        let successor = type(of: self) == InstanceStore.self ? InstanceStore() : emptyCopy()
        successor.lineageToken = lineageToken
        successor.drops = drops &+ 1
        return successor
    }

    /// Makes this new store take `store`'s place in its line, after the same drops: the singleton
    /// store a registration's marked first instance replaces its transient one with, so that a first
    /// build begun before a drop still sees the drop and one begun after it does not. Write lock held.
    final func continueLine(of store: InstanceStore) {
        lineageToken = store.lineageToken
        drops = store.drops
    }

    /// The lifetime, as messages and the dependency graph name it.
    var lifetimeDescription: String { "transient" }

    /// The scope or named cache the instances belong to, for `dropCached(scopedTo:)`.
    var scope: ObjectIdentifier? { nil }

    /// Whether open ``ScopeHandle``s of ``scope`` keep the instances alive.
    var isWeaklyScoped: Bool { false }

    /// What is kept now, for hints and scope handles.
    var keptInstance: Any? { nil }

    /// The transient store of every registration whose store nothing tells apart from another's
    /// (``Provider/initialStore(for:key:isMarked:isAsync:)``): one allocation less a registration.
    // Only the line's fields are state of the base class, and a drop never continues the line of
    // this one (only registrations whose instances tell nothing apart share it).
    nonisolated(unsafe) private static let shared = InstanceStore()

    /// A transient store: the shared one when `shared`, else one of its own.
    static func transient(shared: Bool) -> InstanceStore { shared ? Self.shared : InstanceStore() }

    /// The store for `lifetime`.
    static func make(for lifetime: Lifetime) -> InstanceStore {
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
    static func scoped(_ scope: any Scope.Type) -> InstanceStore {
        switch scope.retention {
        case .weak: WeakStore(scope: ObjectIdentifier(scope))
        case .strong: SingletonStore("scoped (strong)", scope: ObjectIdentifier(scope))
        }
    }
}

/// An instance, boxed: what stores keep.
///
/// Unchecked Sendable: a kept instance is handed to every thread and task that resolves it, which
/// is what a lifetime that shares instances means; the box itself never changes.
/// The identity a line of stores shares (``InstanceStore/lineage``).
private final class LineageToken {}

class AnyKept: @unchecked Sendable {
    /// The instance.
    var value: Any { fatalError("abstract") }
    /// The class instance the value is, if it can be held weakly.
    var object: AnyObject? { fatalError("abstract") }
    /// The instance `object` is, boxed again (`object` is a value this box's type kept once).
    class func rebox(_ object: AnyObject) -> AnyKept { fatalError("abstract") }
}

final class Kept<T>: AnyKept, @unchecked Sendable {
    let instance: T

    init(_ instance: T) {
        self.instance = instance
    }

    override var value: Any { instance }
    override var object: AnyObject? { classInstance(of: instance) }
    override class func rebox(_ object: AnyObject) -> AnyKept { Kept(object as! T) }
}

/// ``Lifetime/graph``: one instance per top-level resolution, kept in its ``GraphScope``.
final class GraphStore: InstanceStore {
    override func kept(for resolution: Resolution) -> AnyKept? {
        resolution.graphInstance(for: self)
    }

    override func keep(
        _ instance: AnyKept, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers
    ) {
        _ = resolution.keepInGraph(instance, for: self)  // the caller reads what was kept
    }

    override var lifetimeDescription: String { "graph" }
}

/// ``Lifetime/singleton``: one instance, kept strongly until dropped. Named caches and strong
/// scopes are singletons that answer to a scope.
class SingletonStore: InstanceStore {
    private(set) final var instance: AnyKept?
    private let name: String
    private let scopeID: ObjectIdentifier?

    init(_ name: String = "singleton", scope: ObjectIdentifier? = nil, instance: AnyKept? = nil) {
        self.name = name
        scopeID = scope
        self.instance = instance
    }

    override var sharesInstances: Bool { true }
    override func kept(for resolution: Resolution) -> AnyKept? { instance }

    override func keep(
        _ instance: AnyKept, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers
    ) {
        leftovers.append(self.instance)
        self.instance = instance
    }

    override func drop(into leftovers: inout Leftovers) {
        leftovers.append(instance)
        instance = nil
    }

    override var isCopiedPerContainer: Bool { true }
    override func emptyCopy() -> InstanceStore { SingletonStore(name, scope: scopeID) }
    override var lifetimeDescription: String { name }
    override var scope: ObjectIdentifier? { scopeID }
    override var keptInstance: Any? { instance?.value }
}

/// `registerSingleton(_:)`: the instance given is the registration itself, shared by every
/// container that reaches it (test containers included) and never dropped.
final class FixedInstanceStore: SingletonStore {
    init(_ instance: AnyKept) {
        super.init("singleton (instance)", instance: instance)
    }

    override func drop(into leftovers: inout Leftovers) {}
    override var isCopiedPerContainer: Bool { false }
}

/// ``Lifetime/timeToLive(_:)``: a singleton built again on the first resolution after it has
/// lived `duration`.
final class TimeToLiveStore: SingletonStore {
    private let duration: Duration
    private var expiry = ContinuousClock.now

    init(duration: Duration) {
        self.duration = duration
        super.init("time to live \(duration)")
    }

    override func kept(for resolution: Resolution) -> AnyKept? {
        ContinuousClock.now < expiry ? instance : nil
    }

    override func keep(
        _ instance: AnyKept, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers
    ) {
        super.keep(instance, for: resolution, from: container, leftovers: &leftovers)
        expiry = ContinuousClock.now.advanced(by: duration)
    }

    override func emptyCopy() -> InstanceStore { TimeToLiveStore(duration: duration) }
}

/// ``Lifetime/weak``, and scopes of ``ScopeRetention/weak`` retention: the instance is shared
/// while something else holds it (or a ``ScopeHandle`` of its scope is open).
///
/// A value that is not a class instance cannot be held weakly: each resolution builds a new one.
final class WeakStore: InstanceStore {
    private weak var object: AnyObject?
    /// The box the instance came in, to box it again for each resolution that finds it.
    private var boxType: AnyKept.Type?
    private let scopeID: ObjectIdentifier?

    init(scope: ObjectIdentifier? = nil) {
        scopeID = scope
    }

    override var sharesInstances: Bool { true }

    override func kept(for resolution: Resolution) -> AnyKept? {
        guard let object, let boxType else { return nil }
        return boxType.rebox(object)
    }

    override func keep(
        _ instance: AnyKept, for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers
    ) {
        guard let object = instance.object else {
            resolution.verification?.noteNotHeldWeakly(lifetime: lifetimeDescription, resolution: resolution)
            return
        }
        self.object = object
        boxType = type(of: instance)
        if let scopeID { container.retainInOpenScopes(object, scope: scopeID, leftovers: &leftovers) }
    }

    override func drop(into leftovers: inout Leftovers) {
        leftovers.append(object)
        object = nil
    }

    override var isCopiedPerContainer: Bool { true }
    override func emptyCopy() -> InstanceStore { WeakStore(scope: scopeID) }
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
