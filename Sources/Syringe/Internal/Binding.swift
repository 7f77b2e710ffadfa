/// What a key is bound to in a registry. Guarded by the registry lock.
///
/// A key for type `U` is always bound to a ``Binding`` of `U`, so the resolution path
/// can downcast without a dynamic cast.
class AnyBinding {
    /// The key this binding is stored under.
    let key: Key
    /// Where it was registered.
    let site: SourceLocation
    /// When it was registered, so that `resolveAll()` keeps registration order.
    var order = 0
    /// Where the strongly cached instance is (a `T` for a `Provider<T>`), when the
    /// registration itself holds one; read by the non-generic fast path.
    @exclusivity(unchecked) var cachedSlot: UnsafeRawPointer?
    /// Whether the next instance built must be checked for ``Singleton`` conformance (the
    /// first one, for registrations whose type alone does not tell).
    @exclusivity(unchecked) var checksInstanceForSingleton = false
    /// The keys this registration's factory was seen resolving, in the order it resolved
    /// them (the edges of ``DependencyGraph``). Only providers record; guarded by the lock.
    @exclusivity(unchecked) var observedDependencies = KeyList()

    init(key: Key, site: SourceLocation, origin: AnyBinding? = nil) {
        self.key = key
        self.site = site
        originReference = origin ?? self
    }

    deinit {
        observedDependencies.destroy()
    }

    /// The registration that builds the instance.
    var provider: any ErasedProvider { fatalError("abstract") }

    /// The binding of the registration that builds the instances: itself for a provider,
    /// the target for a key written by `.implements`. Kept alive by the binding.
    var origin: AnyBinding { originReference.unsafelyUnwrapped }
    private unowned(unsafe) var originReference: AnyBinding?
    /// How the registration keeps instances (meaningful on ``origin``). Lock held.
    @exclusivity(unchecked) var storage: Storage = .transient

    /// Resolves this binding from `container` without knowing its type (for `verify()`).
    func resolveErased(in container: Resolver) throws(ResolutionError) -> Any { fatalError("abstract") }
}

/// A binding that yields values of `U`.
class Binding<U>: AnyBinding {
    /// The cached instance for `cache` if there is one, else how to build one.
    /// Called with the read lock held; runs no user code.
    func lookupLocked(in cache: CacheOwner) -> Lookup<U> { fatalError("abstract") }

    /// Builds (or, for cached lifetimes, builds once) an instance. Called with no lock held.
    func produce(_ request: Request, storage: Storage) throws(ResolutionError) -> U { fatalError("abstract") }

    override func resolveErased(in container: Resolver) throws(ResolutionError) -> Any {
        let value: U = try container.resolveBinding(self, key: key, arguments: .none, site: nil)
        return value
    }
}

/// The outcome of a locked look at a binding's cache.
enum Lookup<U> {
    case cached(U)
    case build(Storage)
}

/// Where cached instances of a resolution live: in the registration itself, or in an
/// isolating (test) container that keeps its own copies.
enum CacheOwner {
    case registration
    case container(Resolver)
}

/// Everything one resolution step needs besides the binding.
struct Request {
    let key: Key
    /// The container resolving; factories receive it. The caller keeps it alive.
    unowned(unsafe) let container: Resolver
    let cache: CacheOwner
    unowned(unsafe) let state: ThreadState
    let arguments: ArgumentValues
    /// Where a property wrapper asked for it, when one did.
    let site: SourceLocation?
    /// Whether a built instance should be checked for ``Singleton`` conformance.
    let checksSingleton: Bool
}

/// Runtime arguments as passed to a resolution: a pointer to a tuple of the key's
/// argument type, valid for the length of the call.
struct ArgumentValues: @unchecked Sendable {
    let pointer: UnsafeRawPointer?

    static let none = ArgumentValues(pointer: nil)
}

/// The type-erased face of a registration, for bookkeeping (clear, drop, verify, graph).
protocol ErasedProvider: AnyBinding {
    /// Keys the registration is known to depend on without running it (from `autoregister`).
    var declaredDependencies: [Key]? { get }
    /// The registry the registration belongs to.
    var registry: Registry { get }
    /// Forgets the cached instance in `cache`, returning it so that it is released after the lock.
    func dropCacheLocked(in cache: CacheOwner) -> Any?
    /// The cached instance, if any, for near-match hints.
    func cachedInstanceLocked() -> Any?
}

extension ErasedProvider {
    /// Whether building needs runtime arguments (skipped by `verify()`).
    var needsArguments: Bool { key.arguments != nil }
}

/// How a provider keeps what it builds.
enum Storage: Equatable {
    case transient
    case graph
    case singleton
    case weak
    /// A named scope; `strong` for scopes with ``ScopeRetention/strong``.
    case scoped(ObjectIdentifier, strong: Bool)
    /// An instance given at registration (`registerSingleton`), shared everywhere.
    case fixed

    init(_ lifetime: Lifetime) {
        switch lifetime {
        case .transient: self = .transient
        case .graph: self = .graph
        case .singleton: self = .singleton
        case .weak: self = .weak
        }
    }

    var isCached: Bool {
        switch self {
        case .transient, .graph: false
        case .singleton, .weak, .scoped, .fixed: true
        }
    }

    var holdsWeakly: Bool {
        switch self {
        case .weak: true
        case .scoped(_, let strong): !strong
        default: false
        }
    }

    var lifetimeDescription: String {
        switch self {
        case .transient: "transient"
        case .graph: "graph"
        case .singleton: "singleton"
        case .weak: "weak"
        case .scoped(_, let strong): strong ? "scoped (strong)" : "scoped"
        case .fixed: "singleton (instance)"
        }
    }
}

/// A growable list of keys in manually managed memory, read on the resolution path
/// without reference counting. Guarded by the registry lock (grown under the write lock).
struct KeyList {
    private var base: UnsafeMutablePointer<Key>?
    private(set) var count = 0
    private var capacity = 0

    var keys: [Key] { base.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [] }

    /// Whether `key` is in the list, looking at `position` first.
    @inline(__always)
    func contains(_ key: Key, expectedAt position: Int) -> Bool {
        guard let base else { return false }
        if position < count && base[position] == key { return true }
        for index in 0..<count where base[index] == key { return true }
        return false
    }

    mutating func appendIfAbsent(_ key: Key) {
        if contains(key, expectedAt: count) { return }
        if count == capacity {
            let larger = UnsafeMutablePointer<Key>.allocate(capacity: max(4, capacity * 2))
            if let base {
                larger.moveInitialize(from: base, count: count)
                base.deallocate()
            }
            base = larger
            capacity = max(4, capacity * 2)
        }
        (base! + count).initialize(to: key)
        count += 1
    }

    /// Frees the storage. Called once, when the owner goes.
    func destroy() {
        guard let base else { return }
        base.deinitialize(count: count)
        base.deallocate()
    }
}
