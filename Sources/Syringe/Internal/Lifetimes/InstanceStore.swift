/// What the resolution path reads of a store without knowing its type.
class AnyInstanceStore {
    /// Whether a build must be coordinated across threads, so that one instance is built and
    /// published under the write lock (every lifetime that shares an instance).
    final let buildsOnce: Bool
    /// Whether the instances are kept beyond the resolution that built them, and so belong to
    /// the registration's container rather than to the container that resolved them.
    final let keepsInstances: Bool
    /// Whether nothing is kept at all (a plain transient), so that a resolution may call the
    /// factory directly.
    final let isTransient: Bool

    init(buildsOnce: Bool, keepsInstances: Bool, isTransient: Bool = false) {
        self.buildsOnce = buildsOnce
        self.keepsInstances = keepsInstances
        self.isTransient = isTransient
    }
}

/// How one registration keeps the instances it builds: one subclass per lifetime, chosen once
/// when the registration is made (``InstanceStore/make(for:id:)``) and replaced whole when its
/// lifetime changes.
///
/// A store is guarded by ``registryLock``: it is read under the read lock and changed under the
/// write lock, and it never runs user code. Whatever it stops keeping goes to the caller's
/// ``Leftovers``, released once the lock is gone.
///
/// The resolution path asks it three things: is an instance kept for this resolution
/// (``cachedLocked(_:)``), must a build happen at most once at a time (``buildsOnce``), and
/// what to do with a built instance (``keep(_:for:leftovers:)``).
class InstanceStore<T>: AnyInstanceStore {
    /// The instance to hand out without building, if one is kept for this resolution.
    /// Read lock held.
    func cachedLocked(_ state: ThreadState) -> T? { nil }

    /// Keeps a newly built instance: under the write lock for stores that build once, with no
    /// lock otherwise. Returns the store that replaces this one from now on, if the instance
    /// decides it (see ``SingletonProbeStore``).
    func keep(_ value: T, for request: Request, leftovers: inout Leftovers) -> InstanceStore<T>? { nil }

    /// Forgets the kept instance (`dropCached`). Write lock held.
    func drop(into leftovers: inout Leftovers) {}

    /// Where a strongly kept instance lives, for the resolution fast path; nil when every
    /// resolution must ask ``cachedLocked(_:)``. Lock held.
    var strongSlot: UnsafeRawPointer? { nil }

    /// An empty store of the same lifetime, for a test container's own copies; nil when the
    /// instance is shared everywhere or never kept.
    func makeIsolatedCopy() -> InstanceStore<T>? { nil }

    /// Whether test containers keep their own copies (``makeIsolatedCopy()`` is not nil).
    var isIsolatable: Bool { false }

    /// The lifetime, as messages and the dependency graph name it.
    var lifetimeDescription: String { fatalError("abstract") }

    /// The scope or named cache the instances belong to, for `dropCached(scopedTo:)`.
    var scope: ObjectIdentifier? { nil }

    /// Whether open ``ScopeHandle``s of ``scope`` keep the instances alive.
    var isWeaklyScoped: Bool { false }

    /// What is kept now, for hints and scope handles. Lock held.
    var keptInstance: Any? { nil }
}

extension InstanceStore {
    /// The store for `lifetime`, for a registration with the stable identity `id`.
    static func make(for lifetime: Lifetime, id: RegistrationID) -> InstanceStore<T> {
        switch lifetime {
        case .transient: TransientStore()
        case .graph: GraphStore(id: id)
        case .singleton: SingletonStore()
        case .weak: WeakStore()
        case .cached(let scope): NamedCacheStore(cache: scope)
        case .timeToLive(let duration): TimeToLiveStore(duration: duration)
        }
    }
}

/// A registration's identity for per-resolution caches: unique for the life of the process,
/// unlike an object's address, which a later registration may reuse.
struct RegistrationID: Hashable {
    let value: UInt64

    private static let lock = Lock()
    nonisolated(unsafe) private static var last: UInt64 = 0

    static func next() -> RegistrationID {
        lock.withLock {
            last += 1
            return RegistrationID(value: last)
        }
    }
}

/// One strongly kept instance in manually allocated memory, so that the fast path can read it
/// through a raw pointer without knowing the store.
struct StrongSlot<T> {
    private var pointer: UnsafeMutablePointer<T>?
    private(set) var isFilled = false

    var raw: UnsafeRawPointer? { isFilled ? UnsafeRawPointer(pointer) : nil }
    var value: T? { isFilled ? pointer.unsafelyUnwrapped.pointee : nil }

    /// Keeps `value`; the instance it replaces goes to the leftovers.
    mutating func fill(_ value: T, leftovers: inout Leftovers) {
        empty(into: &leftovers)
        let storage = pointer ?? UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer = storage
        storage.initialize(to: value)
        isFilled = true
    }

    mutating func empty(into leftovers: inout Leftovers) {
        guard isFilled else { return }
        leftovers.append(pointer.unsafelyUnwrapped.move())
        isFilled = false
    }

    /// Frees the memory (and the instance, if any). Called once, by the owning store's deinit.
    func destroy() {
        if isFilled { pointer.unsafelyUnwrapped.deinitialize(count: 1) }
        pointer?.deallocate()
    }
}

/// The class instance a value holds, if it can be held weakly: the value itself, or what an
/// Optional wraps.
func classInstance(of value: Any) -> AnyObject? {
    if let optional = value as? any OptionalWrapping { return optional.wrappedAny.flatMap(classInstance(of:)) }
    guard type(of: value) is AnyClass else { return nil }
    return value as AnyObject
}

/// Lets ``classInstance(of:)`` look inside an Optional without knowing its type.
protocol OptionalWrapping {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalWrapping {
    var wrappedAny: Any? { self.map { $0 as Any } }
}
