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
    /// Whether the registration keeps nothing and builds without runtime arguments: the
    /// resolution may call its factory directly. Only providers set it; lock held.
    @exclusivity(unchecked) var isPlainTransient = false
    /// The keys this registration's factory was seen resolving, in the order it resolved
    /// them (the edges of ``DependencyGraph``). Only providers record; guarded by the lock.
    @exclusivity(unchecked) var observedDependencies = KeyList()
    /// The scope the registry filed it under, if any. Lock held.
    var indexedScope: ObjectIdentifier?
    /// Whether the factory is isolated to the main actor, so that every resolution must run on
    /// it (decided at registration; a key written by `.implements` takes its target's).
    let isMainActorBound: Bool

    init(key: Key, site: SourceLocation, origin: AnyBinding? = nil, isMainActorBound: Bool = false) {
        self.key = key
        self.site = site
        self.isMainActorBound = origin?.isMainActorBound ?? isMainActorBound
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

    /// Gives `container` (a test container) its own empty copy of the registration's store.
    /// Write lock held.
    func makeIsolatedCopyLocked(in container: Resolver, leftovers: inout Leftovers) { fatalError("abstract") }

    /// Resolves this binding from `container` without knowing its type (for `verify()`).
    func resolveErased(in container: Resolver) throws(ResolutionError) -> Any { fatalError("abstract") }
}

/// A binding that yields values of `U`.
class Binding<U>: AnyBinding {
    /// The instance kept for this resolution, or the store to build it in.
    /// Read lock held; runs no user code.
    func lookupLocked(in cache: CacheOwner, state: ThreadState) -> Lookup<U> { fatalError("abstract") }

    /// Builds an instance in `store` (once, for lifetimes that share one); `completes` says
    /// whether the registration has `initCompleted` steps. No lock held.
    func produce(_ request: Request, in store: AnyInstanceStore, completes: Bool) throws(ResolutionError) -> U {
        fatalError("abstract")
    }

    override func resolveErased(in container: Resolver) throws(ResolutionError) -> Any {
        let value: U = try container.resolveBinding(self, key: key, arguments: .none, site: nil)
        return value
    }
}

/// The outcome of a locked look at a binding's store.
enum Lookup<U> {
    /// An instance is kept for this resolution.
    case cached(U)
    /// Build one in this store (an ``InstanceStore`` of the registration's type); `completes`
    /// when the registration has `initCompleted` steps.
    case build(AnyInstanceStore, completes: Bool)
    /// A test container needs its own copy of the store first.
    case needsIsolatedCopy
}

/// Where cached instances of a resolution live: in the registration itself, or in an
/// isolating (test) container that keeps its own copies.
enum CacheOwner {
    case registration
    case container(Resolver)
}

/// Everything one build needs besides the binding.
struct Request {
    let key: Key
    /// The container the resolution asked; open scope handles along its chain keep what
    /// is built. The caller keeps it alive.
    unowned(unsafe) let resolving: Resolver
    /// The container the factory receives (and static calls inside it use).
    unowned(unsafe) let factoryContainer: Resolver
    let cache: CacheOwner
    unowned(unsafe) let state: ThreadState
    let arguments: ArgumentValues
    /// Where it was asked for (a resolve call, a property wrapper), when known.
    let site: SourceLocation?
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
    /// Forgets the cached instance in `cache`. Write lock held.
    func dropCacheLocked(in cache: CacheOwner, leftovers: inout Leftovers)
    /// The cached instance, if any, for near-match hints and scope handles. Lock held.
    func cachedInstanceLocked(in cache: CacheOwner) -> Any?
    /// The lifetime, as messages and the dependency graph name it. Lock held.
    var lifetimeDescriptionLocked: String { get }
    /// The scope or named cache its instances belong to. Lock held.
    var scopeLocked: ObjectIdentifier? { get }
    /// Whether open scope handles keep its instances. Lock held.
    var isWeaklyScopedLocked: Bool { get }
    /// Whether a registration with one Optional argument may be resolved without arguments.
    var acceptsNoArgumentsLocked: Bool { get }
    /// Resolves the registration with `values` converted to its argument types, or nil when
    /// they do not convert, for a call at `site`. No lock held.
    func resolveConverting(
        _ values: [Any], in container: Resolver, site: SourceLocation
    ) throws(ResolutionError) -> Any?
}

extension ErasedProvider {
    /// Whether building needs runtime arguments (skipped by `verify()`).
    var needsArguments: Bool { key.arguments != nil }
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
