/// The registrations of a container, shared by every container made with the same id.
/// Every field is guarded by ``registryLock``.
///
/// A registry is read at first by the threads of one stripe of the lock, the stripe of the thread
/// that made it, and a registration locks that stripe alone until a thread of another stripe reads
/// it (``isShared``): a server's container per request takes its registrations without the write
/// lock, which every thread's stripe would have to give up (callgrind, a request's Syringe work:
/// 18,481 → 17,437 instructions; two threads each making containers and registering three values
/// in them: 1.0 → 1.7 times the throughput of one).
final class Registry {
    let id: String
    /// The stripe of ``registryLock`` whose readers may read this registry while it is not shared.
    let ownerStripe: Int
    /// Whether threads of other stripes read it; from then on, a registration takes the write
    /// lock. Set under the write lock, never cleared: readable under any stripe.
    var isShared = false
    /// The registrations and `.implements` keys, by key.
    let bindings = BindingTable()
    /// Registrations with runtime arguments, by their key without arguments: where a call whose
    /// values have other static types looks for one that accepts them.
    private var argumentBindings: [Key: [ObjectIdentifier: AnyBinding]] = [:]
    /// Registrations by the scope or named cache their instances belong to.
    private var byScope: [ObjectIdentifier: [ObjectIdentifier: AnyBinding]] = [:]
    /// The container's own default lifetime; nil follows ``Resolver/globalDefaultLifetime``.
    var defaultLifetime: Lifetime?
    /// Whether `registerAllServices()` still has to run first (only ever true for ``Resolver/main``'s).
    var bootstrapPending = false
    var allowsOverrides = true
    /// Where each key was registered before its current binding replaced it, when that was
    /// elsewhere (at most a few sites a key), for `verify()`'s warnings.
    private(set) var replacedSites: [Key: [SourceLocation]] = [:]
    /// Registration order, so that `resolveAll()` and `verify()` keep it.
    private var sequence = 0

    init(id: String, ownerStripe: Int = Resolution.current.stripe) {
        self.id = id
        self.ownerStripe = ownerStripe
    }

    /// Whether a thread of `stripe` may read it under its read lock.
    @inline(__always)
    func isReadable(by stripe: Int) -> Bool { isShared || stripe == ownerStripe }

    /// Binds `binding.key`; what it replaces goes to `leftovers`. The keys `.implements` bound to a
    /// replaced registration move to `binding`'s. Lock held that excludes its readers
    /// (``StripedLock/withWriteLock(excludingReadersOf:_:)``).
    func bind(_ binding: AnyBinding, leftovers: inout Leftovers, following: Bool = true) {
        if following, binding.aliasTarget != nil, let alias = binding as? Alias {
            // Written for a registration since bound anew or removed (through a `Registration` kept
            // meanwhile): it serves what the registration's key is bound to now, or goes with it.
            guard let current = bindings[alias.target.key] else { return leftovers.append(alias) }
            if current.provider !== alias.target {
                return bind(alias.moved(to: current.provider), leftovers: &leftovers, following: false)
            }
        }
        sequence += 1
        binding.order = sequence
        binding.aliasTarget?.noteAliasKey(binding.key)
        let replaced = bindings.bind(binding)
        index(binding)
        guard let replaced else { return }
        unindex(replaced)
        if replaced.site != binding.site, replacedSites[binding.key, default: []].count < 3,
            replacedSites[binding.key]?.contains(replaced.site) != true
        {
            replacedSites[binding.key, default: []].append(replaced.site)
        }
        leftovers.append(replaced)
        // The key was its registration's own (a registration, or `.implements` of its own type).
        if replaced.provider.key == replaced.key && replaced.provider !== binding.provider {
            moveAliases(of: replaced.provider, to: binding.provider, leftovers: &leftovers)
        }
    }

    /// Unbinds `key`, and the keys `.implements` bound to the registration it was bound to; what
    /// they were bound to goes to `leftovers`. Write lock held.
    func unbind(_ key: Key, leftovers: inout Leftovers) {
        guard let removed = bindings.unbind(key) else { return }
        replacedSites[key] = nil
        unindex(removed)
        leftovers.append(removed)
        if removed.provider.key == key { moveAliases(of: removed.provider, to: nil, leftovers: &leftovers) }
    }

    /// Moves the keys `.implements` bound to `old` (those still bound to it) to `new`, or unbinds
    /// them (nil); the aliases they were bound to go to `leftovers`. Lock held.
    private func moveAliases(of old: AnyProvider, to new: AnyProvider?, leftovers: inout Leftovers) {
        for key in old.aliasKeys ?? [] {
            guard let alias = bindings[key] as? Alias, alias.target === old else { continue }
            unindex(alias)
            if let new {
                let moved = alias.moved(to: new)
                _ = bindings.bind(moved)
                index(moved)
                new.noteAliasKey(key)
            } else {
                _ = bindings.unbind(key)
                replacedSites[key] = nil
            }
            leftovers.append(alias)
        }
    }

    /// The registrations with runtime arguments of `key`'s type and selectors, in registration
    /// order. Lock held.
    func argumentBindings(for key: Key) -> [AnyBinding] {
        (argumentBindings[key.withoutArguments]?.values).map { $0.sorted { $0.order < $1.order } } ?? []
    }

    /// The registration of `key`'s type and selectors whose only argument is Optional, which a
    /// call without arguments may resolve. Lock held.
    func optionalArgumentBinding(for key: Key) -> AnyBinding? {
        argumentBindings[key]?.values.first { $0.provider.acceptsNoArguments }
    }

    /// The registrations whose instances belong to the scope or named cache `scope`. Lock held.
    func bindings(in scope: ObjectIdentifier) -> [AnyBinding] {
        byScope[scope].map { Array($0.values) } ?? []
    }

    /// Files a registration under its argument-less key and its scope. Write lock held.
    func index(_ binding: AnyBinding) {
        if binding.key.arguments != nil {
            argumentBindings[binding.key.withoutArguments, default: [:]][ObjectIdentifier(binding)] = binding
        }
        guard binding.provider === binding, let scope = binding.provider.scope else { return }
        byScope[scope, default: [:]][ObjectIdentifier(binding)] = binding
        binding.indexedScope = scope
    }

    /// Takes a registration out of the indexes. Write lock held.
    func unindex(_ binding: AnyBinding) {
        if binding.key.arguments != nil {
            let plain = binding.key.withoutArguments
            argumentBindings[plain]?[ObjectIdentifier(binding)] = nil
            if argumentBindings[plain]?.isEmpty == true { argumentBindings[plain] = nil }
        }
        guard let scope = binding.indexedScope else { return }
        binding.indexedScope = nil
        byScope[scope]?[ObjectIdentifier(binding)] = nil
        if byScope[scope]?.isEmpty == true { byScope[scope] = nil }
    }

    // MARK: Registries by id

    /// Registries by id, for `Resolver(id:)`, each with how many containers use it: a registry
    /// leaves the map when the last of them goes. Guarded by their own lock, so that creating a
    /// container never needs the registry lock. (Strong references: a weakly referenced object
    /// pays for every retain on the resolution path.)
    nonisolated(unsafe) private static var byID: [String: (registry: Registry, users: Int)] = [:]
    private static let byIDLock = Lock()

    /// The registry with `id`, or a new one; ``release(_:)`` when the container goes.
    static func shared(id: String) -> Registry {
        let stripe = Resolution.current.stripe
        return byIDLock.withLock {
            let registry = byID[id]?.registry ?? Registry(id: id, ownerStripe: stripe)
            byID[id] = (registry, (byID[id]?.users ?? 0) + 1)
            return registry
        }
    }

    /// Ends a container's use of the registry it got from ``shared(id:)``.
    static func release(_ registry: Registry) {
        let removed: Registry? = byIDLock.withLock {
            guard let entry = byID[registry.id], entry.registry === registry else { return nil }
            guard entry.users == 1 else {
                byID[registry.id] = (registry, entry.users - 1)
                return nil
            }
            return byID.removeValue(forKey: registry.id)?.registry
        }
        withExtendedLifetime(removed) {}  // released after the lock, with whatever it kept
    }

    /// How many registries the map holds, for tests.
    static var sharedCount: Int { byIDLock.withLock { byID.count } }
}
