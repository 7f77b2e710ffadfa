/// The registrations of a container, shared by every container made with the same id.
/// Every field is guarded by ``registryLock``.
final class Registry {
    let id: String
    /// The registrations and `.implements` keys, by key.
    private(set) var bindings: [Key: AnyBinding] = [:]
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
    /// Registration order across all registries, so that `resolveAll()` keeps it.
    nonisolated(unsafe) private static var sequence = 0

    init(id: String) {
        self.id = id
    }

    /// Binds `binding.key`, returning what it replaces. Write lock held.
    func bind(_ binding: AnyBinding) -> AnyBinding? {
        Self.sequence += 1
        binding.order = Self.sequence
        let replaced = bindings.updateValue(binding, forKey: binding.key)
        if let replaced {
            unindex(replaced)
            if replaced.site != binding.site, replacedSites[binding.key, default: []].count < 3,
                replacedSites[binding.key]?.contains(replaced.site) != true
            {
                replacedSites[binding.key, default: []].append(replaced.site)
            }
        }
        index(binding)
        return replaced
    }

    /// Unbinds `key`, returning what it was bound to. Write lock held.
    func unbind(_ key: Key) -> AnyBinding? {
        guard let removed = bindings.removeValue(forKey: key) else { return nil }
        replacedSites[key] = nil
        unindex(removed)
        return removed
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
        let plain = binding.key.withoutArguments
        argumentBindings[plain]?[ObjectIdentifier(binding)] = nil
        if argumentBindings[plain]?.isEmpty == true { argumentBindings[plain] = nil }
        guard let scope = binding.indexedScope else { return }
        binding.indexedScope = nil
        byScope[scope]?[ObjectIdentifier(binding)] = nil
        if byScope[scope]?.isEmpty == true { byScope[scope] = nil }
    }

    // MARK: Registries by id

    /// Registries by id, for `Resolver(id:)`; a registry lives while a container uses it. Guarded
    /// by its own lock, so that creating a container never needs the registry lock.
    ///
    /// Entries of registries that are gone are pruned once the map has grown to twice what was
    /// left after the last pruning, so creating a container costs amortized O(1).
    nonisolated(unsafe) private static var byID: [String: WeakRegistry] = [:]
    nonisolated(unsafe) private static var byIDWork = ByIDWork()
    nonisolated(unsafe) private static var pruneThreshold = 64
    private static let byIDLock = Lock()

    /// The live registry with `id`, or a new one.
    static func shared(id: String) -> Registry {
        byIDLock.withLock {
            if let registry = byID[id]?.registry { return registry }
            let registry = Registry(id: id)
            byID[id] = WeakRegistry(registry: registry)
            byIDWork.insertions += 1
            if byID.count > pruneThreshold {
                byIDWork.prunedEntriesVisited += byID.count
                byID = byID.filter { $0.value.registry != nil }
                pruneThreshold = max(64, 2 * byID.count)
            }
            return registry
        }
    }

    /// What ``shared(id:)`` has done so far, for tests that count its work.
    struct ByIDWork {
        var insertions = 0
        var prunedEntriesVisited = 0
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
