/// The registrations of a container, shared by every container made with the same id.
/// Every field is guarded by ``registryLock``.
final class Registry {
    let id: String
    /// Every binding, for iteration (clearing, verification, near matches).
    private(set) var bindings: [Key: AnyBinding] = [:]
    /// The same bindings, for lookups on the resolution path.
    let table: UnsafeMutablePointer<LookupTable>
    /// For registrations whose only argument is Optional: the same key without arguments.
    private(set) var optionalArgumentBindings: [Key: AnyBinding] = [:]
    /// Registrations with runtime arguments, by their key without arguments: where a call whose
    /// values have other static types looks for a registration that accepts them.
    private var argumentBindings: [Key: [ObjectIdentifier: AnyBinding]] = [:]
    /// Registrations by the scope or named cache their instances belong to.
    private var byScope: [ObjectIdentifier: [ObjectIdentifier: AnyBinding]] = [:]
    /// The container's own default lifetime; nil follows ``Resolver/globalDefaultLifetime``.
    var defaultLifetime: Lifetime?
    /// Whether `ResolverRegistering.registerAllServices()` still has to run before
    /// resolutions reaching this registry (only ever true for ``Resolver/main``'s).
    var bootstrapPending = false
    var allowsOverrides = true
    /// Where each key was registered before its current binding replaced it, when that was
    /// elsewhere (at most a few sites a key), for `verify()`'s warnings.
    private(set) var replacedSites: [Key: [SourceLocation]] = [:]
    /// Registration order across all registries, so that `resolveAll()` returns instances in it.
    nonisolated(unsafe) private static var sequence = 0

    init(id: String) {
        self.id = id
        table = .allocate(capacity: 1)
        table.initialize(to: LookupTable())
    }

    deinit {
        table.pointee.destroy()
        table.deinitialize(count: 1)
        table.deallocate()
    }

    /// Binds `binding.key`, returning what it replaces. Write lock held.
    func bind(_ binding: AnyBinding) -> AnyBinding? {
        table.pointee.insert(binding, for: binding.key)
        let replaced = bindings.updateValue(binding, forKey: binding.key)
        if let replaced {
            unindex(replaced)
            noteReplaced(replaced, by: binding)
        }
        index(binding)
        return replaced
    }

    /// Unbinds `key`, returning what it was bound to. Write lock held.
    func unbind(_ key: Key) -> AnyBinding? {
        guard let removed = bindings.removeValue(forKey: key) else { return nil }
        replacedSites[key] = nil
        table.pointee.remove(key)
        unindex(removed)
        return removed
    }

    /// Remembers where `replaced` was registered, unless `binding` comes from the same place (the
    /// same registration code run again). Write lock held.
    private func noteReplaced(_ replaced: AnyBinding, by binding: AnyBinding) {
        let site = replaced.site
        guard site != binding.site else { return }
        var sites = replacedSites[binding.key] ?? []
        guard sites.count < Self.maximumReplacedSites, !sites.contains(site) else { return }
        sites.append(site)
        replacedSites[binding.key] = sites
    }

    /// How many earlier sites a key keeps for the warning: enough to point at the mistake.
    private static let maximumReplacedSites = 3

    /// The registrations with runtime arguments of `key`'s type and selectors, in registration
    /// order. Lock held.
    func argumentBindings(for key: Key) -> [AnyBinding] {
        (argumentBindings[key.withoutArguments]?.values).map { $0.sorted { $0.order < $1.order } } ?? []
    }

    /// The binding of `key` in this registry. Lock held.
    func binding(for key: Key) -> AnyBinding? { bindings[key] }

    /// Every binding, in no particular order. Lock held.
    var allBindings: Dictionary<Key, AnyBinding>.Values { bindings.values }

    /// The registrations whose instances belong to the scope or named cache `scope`. Lock held.
    func bindings(in scope: ObjectIdentifier) -> Dictionary<ObjectIdentifier, AnyBinding>.Values {
        (byScope[scope] ?? [:]).values
    }

    /// Files a registration under the scope its lifetime names, if any. Write lock held.
    func index(_ binding: AnyBinding) {
        if binding.key.arguments != nil {
            argumentBindings[binding.key.withoutArguments, default: [:]][ObjectIdentifier(binding)] = binding
            if binding.provider.acceptsNoArgumentsLocked {
                optionalArgumentBindings[binding.key.withoutArguments] = binding
            }
        }
        guard binding.origin === binding, let scope = binding.provider.scopeLocked else { return }
        byScope[scope, default: [:]][ObjectIdentifier(binding)] = binding
        binding.indexedScope = scope
    }

    /// Takes a registration out of the indexes. Write lock held.
    func unindex(_ binding: AnyBinding) {
        let plainKey = binding.key.withoutArguments
        if binding.key.arguments != nil {
            argumentBindings[plainKey]?[ObjectIdentifier(binding)] = nil
            if argumentBindings[plainKey]?.isEmpty == true { argumentBindings[plainKey] = nil }
            if optionalArgumentBindings[plainKey] === binding { optionalArgumentBindings[plainKey] = nil }
        }
        guard let scope = binding.indexedScope else { return }
        binding.indexedScope = nil
        byScope[scope]?[ObjectIdentifier(binding)] = nil
        if byScope[scope]?.isEmpty == true { byScope[scope] = nil }
    }

    func nextSequence() -> Int {
        Self.sequence += 1
        return Self.sequence
    }

    /// Registries by id, for `Resolver(id:)`. A registry lives while a container uses it.
    /// Guarded by its own lock, so that creating a container (``Resolver/main`` is created
    /// lazily, possibly while the registry lock is held) never needs the registry lock.
    ///
    /// Entries of registries that are gone are pruned once the map has grown to twice what was
    /// left after the last pruning, so creating a container costs amortized O(1) however many
    /// are alive. (A registry does not remove its own entry when it goes: it may be released
    /// while this lock is held, by the last strong reference a weak load made inside it.)
    nonisolated(unsafe) private static var byID: [String: WeakRegistry] = [:]
    nonisolated(unsafe) private static var byIDPruneThreshold = minimumPruneThreshold
    nonisolated(unsafe) private static var byIDWork = ByIDWork()
    private static let byIDLock = Lock()
    private static let minimumPruneThreshold = 64

    /// The live registry with `id`, or a new one.
    static func shared(id: String) -> Registry {
        byIDLock.withLock {
            if let registry = byID[id]?.registry { return registry }
            let registry = Registry(id: id)
            byID[id] = WeakRegistry(registry: registry)
            byIDWork.insertions += 1
            if byID.count > byIDPruneThreshold {
                byIDWork.prunedEntriesVisited += byID.count
                byID = byID.filter { $0.value.registry != nil }
                byIDPruneThreshold = max(minimumPruneThreshold, 2 * byID.count)
            }
            return registry
        }
    }

    /// What ``shared(id:)`` has done so far, for tests that count its work.
    struct ByIDWork {
        /// Registries created and entered in the map.
        var insertions = 0
        /// Entries looked at while pruning, over all prunings.
        var prunedEntriesVisited = 0
        /// Entries in the map now, live or not.
        var entries = 0
    }

    static var byIDWorkSoFar: ByIDWork {
        byIDLock.withLock {
            var work = byIDWork
            work.entries = byID.count
            return work
        }
    }
}

struct WeakRegistry {
    weak var registry: Registry?
}

struct WeakScopeHandle {
    weak var handle: ScopeHandle?
}
