/// What a key is bound to in a registry: a registration (``Provider``), or a key that
/// `.implements` writes (``Alias``). Guarded by ``registryLock``.
class AnyBinding {
    let key: Key
    /// Where it was registered.
    let site: SourceLocation
    /// When it was registered, so that `resolveAll()` keeps registration order. Lock held.
    var order = 0
    /// The scope the registry filed it under, if any. Lock held.
    var indexedScope: ObjectIdentifier?

    /// The registration an alias serves from; nil for a registration.
    let aliasTarget: AnyProvider?

    init(key: Key, site: SourceLocation, aliasTarget: AnyProvider? = nil) {
        self.key = key
        self.site = site
        self.aliasTarget = aliasTarget
    }

    /// The registration that builds the instances: itself, or the one an alias serves from.
    var provider: AnyProvider { aliasTarget ?? self as! AnyProvider }
}

/// A key written by `.implements(P.self)`: serves `P` from another registration, sharing its
/// instances. It follows the registration: when the registration's key is bound anew, it serves
/// the new binding; when the registration is removed, so is it (``Registry/bind(_:leftovers:)``).
final class Alias: AnyBinding {
    var target: AnyProvider { aliasTarget! }
    /// Whether a value is a `P`, which the compiler cannot check for `.implements(P.self)`:
    /// `verify()` asks it of the instance it builds.
    let accepts: (Any) -> Bool

    init(key: Key, target: AnyProvider, site: SourceLocation, accepts: @escaping (Any) -> Bool) {
        self.accepts = accepts
        super.init(key: key, site: site, aliasTarget: target)
    }

    /// The same key, written at the same place and in the same order, served by `target`.
    func moved(to target: AnyProvider) -> Alias {
        let moved = Alias(key: key, target: target, site: site, accepts: accepts)
        moved.order = order
        return moved
    }
}

/// A registration, without its type: the store that keeps its instances, and what bookkeeping
/// (clearing, dropping, `verify()`, the graph, messages) needs. Guarded by ``registryLock``.
class AnyProvider: AnyBinding {
    unowned let registry: Registry
    /// Whether the factory (or a context factory) is isolated to the main actor, so that every
    /// resolution must run there. Lock held.
    fileprivate(set) var isMainActorBound: Bool
    /// Whether the factory is `async`, so that only `resolveAsync()` builds its instances.
    let isAsync: Bool
    /// How the registration keeps its instances.
    private(set) var store: InstanceStore
    /// How many times ``store`` was replaced, the replacement its first instance's ``Singleton``
    /// marker makes aside: a test container's copy made by its own first instance holds while this
    /// is unchanged (``StoreCopy/decidedAt``).
    private(set) var storeChanges: UInt32 = 0
    /// The store the registration's own marked first instance replaced: where a test container's
    /// unmarked first instance is kept (an empty copy of it). Write lock held.
    private var storeBeforeMarker: InstanceStore?
    /// What a plan asks of every registration, read in one access (each access of a class's
    /// stored property is checked for exclusivity at run time; callgrind, a transient resolution:
    /// 1,333 instructions with a field of its own for `hasContexts`, 1,249 with one byte for both).
    fileprivate(set) var traits: Traits
    /// The `initCompleted` steps (a ``Completion`` of the registered type), if any.
    fileprivate(set) var completion: AnyObject?
    /// What the factory resolves, known without running it (from `autoregister`).
    var declaredDependencies: [Key]?
    /// The keys the factory was seen resolving, in order: the edges of ``DependencyGraph``.
    ///
    /// Every access copies it out or swaps it in, calling nothing while it lasts: the optimizer then
    /// drops the run-time exclusivity check that each access of a class's stored property otherwise
    /// makes, which every resolution inside a factory paid to read it (callgrind, a static
    /// resolution: chain3 4,794 → 4,648 instructions, ten singletons resolved by one factory
    /// 12,541 → 11,759).
    private(set) var observedDependencies: [Key] = []
    /// The contexts with a factory of their own (`.onTest`, …), if any (``Traits/hasContexts``).
    fileprivate(set) var contextFactories: AnyContextFactories?
    /// The keys `.implements` bound to it in its registry, which follow it when it is replaced or
    /// removed; one may since be bound to something else. Lock held.
    private(set) var aliasKeys: [Key]?

    /// Notes that `.implements` bound `key` to it. Lock held.
    func noteAliasKey(_ key: Key) {
        if aliasKeys?.contains(key) != true { aliasKeys = (aliasKeys ?? []) + [key] }
    }
    /// The contexts with a factory of their own, in the order added.
    var contexts: [ContextCase] { contextFactories?.contexts ?? [] }

    struct Traits: OptionSet {
        let rawValue: UInt8
        /// The ``Singleton`` marker is still to be read off the registration's first instance: the
        /// registered type does not tell (a protocol, a class with subclasses).
        static let markerUndecided = Traits(rawValue: 1)
        static let hasContexts = Traits(rawValue: 2)
        /// The registered type does not tell, so each test container reads the marker off its own
        /// first instance (``AnyProvider/traits(decidingFor:)``). Never removed.
        static let markerFromInstance = Traits(rawValue: 4)
    }

    init(
        key: Key, site: SourceLocation, registry: Registry, store: InstanceStore, isMainActorBound: Bool,
        isAsync: Bool = false
    ) {
        self.registry = registry
        self.store = store
        self.isMainActorBound = isMainActorBound
        self.isAsync = isAsync
        traits = []
        super.init(key: key, site: site)
    }

    /// The store serving resolutions whose instances `container` keeps (a test container) or, when
    /// nil, the registration's own; nil while the container's copy is still to be made.
    @inline(__always)
    func store(keptBy container: Resolver?) -> InstanceStore? {
        guard let container else { return store }
        if let copy = container.storeCopies[ObjectIdentifier(self)], copy.isCurrent { return copy.store }
        return store.isCopiedPerContainer ? nil : store
    }

    /// Gives `container` its own empty copy of the store. Write lock held.
    func makeCopy(keptBy container: Resolver, leftovers: inout Leftovers) {
        guard store(keptBy: container) == nil else { return }
        container.keep(StoreCopy(provider: self, original: store, store: store.emptyCopy()), leftovers: &leftovers)
    }

    /// Keeps the first instance of a registration whose type does not tell whether it is a
    /// ``Singleton``: as the singleton when `isMarked`, else in `store`. Returns the instance to hand
    /// out (the singleton another thread kept first, if any). Write lock held.
    ///
    /// A test container (`owner`) decides for itself alone: its first instance (a mock's, say, or
    /// one built with its overrides) tells nothing of the parent's, and the parent and the other
    /// test containers decide from their own first instances.
    func keepFirst(
        _ instance: AnyKept, isMarked: Bool, in store: InstanceStore, keptBy owner: Resolver?,
        for resolution: Resolution, from container: Resolver, leftovers: inout Leftovers
    ) -> AnyKept {
        // Dropped since the build began (``dropCache(keptBy:leftovers:)``): the instance is for the
        // callers that asked before the drop, kept in the store they wait on, which nothing serves
        // any more; nothing is decided.
        if isDropped(since: store, keptBy: owner) {
            store.keep(instance, for: resolution, from: container, leftovers: &leftovers)
            return store.kept(for: resolution) ?? instance
        }
        if owner != nil || !traits.contains(.markerUndecided),
            let singleton = self.store(keptBy: owner) as? SingletonStore, let kept = singleton.instance
        {
            return kept  // another thread's first instance was marked
        }
        guard let owner else {
            traits.remove(.markerUndecided)
            guard isMarked else {
                store.keep(instance, for: resolution, from: container, leftovers: &leftovers)
                return store.kept(for: resolution) ?? instance  // a `.graph` one another task kept first
            }
            storeBeforeMarker = self.store
            let singleton = SingletonStore(instance: instance)
            singleton.continueLine(of: self.store)
            replaceStore(with: singleton, keepingCopies: true, leftovers: &leftovers)
            return instance
        }
        // Unmarked, it is kept as the registration says: in the store the parent's own marked first
        // instance replaced, not in the test container's copy of that singleton.
        let own =
            isMarked
            ? SingletonStore(instance: instance)
            : (store is SingletonStore ? storeBeforeMarker.map { $0.emptyCopy() } : nil) ?? store
        owner.keep(
            StoreCopy(provider: self, original: self.store, store: own, decidedAt: storeChanges), leftovers: &leftovers)
        if !isMarked { own.keep(instance, for: resolution, from: container, leftovers: &leftovers) }
        return own.kept(for: resolution) ?? instance
    }

    /// ``traits`` as a resolution kept by test container `owner` reads them: `.markerUndecided` when
    /// the next instance it keeps is its first, which decides for it whether the registration's
    /// instances are ``Singleton``s (``keepFirst``). Read lock held.
    @inline(never)
    func traits(decidingFor owner: Resolver) -> Traits {
        var traits = self.traits
        traits.remove(.markerUndecided)
        guard traits.contains(.markerFromInstance) else { return traits }
        if let copy = owner.storeCopies[ObjectIdentifier(self)], copy.decidedAt != nil, copy.isCurrent { return traits }
        traits.insert(.markerUndecided)
        return traits
    }

    /// Gives a registration not bound yet, made with a transient store, the store of `lifetime`.
    /// Write lock held.
    func takeLifetime(_ lifetime: Lifetime, leftovers: inout Leftovers) {
        if case .transient = lifetime, type(of: store) == InstanceStore.self { return }
        leftovers.append(store)
        store = .make(for: lifetime)
    }

    /// Gives the registration another store; test containers' copies of the old one are dropped
    /// on their next use, but for those their own first instance made when `keepingCopies`.
    /// Write lock held.
    func replaceStore(with newStore: InstanceStore, keepingCopies: Bool = false, leftovers: inout Leftovers) {
        registry.unindex(self)
        leftovers.append(store)
        store = newStore
        if !keepingCopies { storeChanges &+= 1 }
        if registry.bindings[key] === self { registry.index(self) }
    }

    /// Whether `key` is among the recorded dependencies, looking at `position` first (factories
    /// resolve their dependencies in the same order every time). Read lock held.
    @inline(__always)
    func knowsDependency(_ key: Key, expectedAt position: Int) -> Bool {
        let observed = observedDependencies
        if position < observed.count && observed[position] == key { return true }
        return observed.count >= 64 || observed.contains(key)
    }

    /// Records a dependency. At most 64: a factory that resolves keys made at run time (names,
    /// say) must not grow the record without bound. Write lock held.
    func recordDependency(_ key: Key) {
        var observed = observedDependencies
        guard observed.count < 64 && !observed.contains(key) else { return }
        observed.append(key)
        swap(&observedDependencies, &observed)
    }

    /// Whether `store`, which a build began with, was dropped since (for resolutions kept by
    /// `owner`): the store serving them now is one of its line after more drops. Lock held.
    func isDropped(since store: InstanceStore, keptBy owner: Resolver?) -> Bool {
        // A test container's build on a store the registration does not copy for it (a first
        // instance, which decides for the test container alone): the registration's drops are not
        // the test container's.
        if owner != nil && !store.isCopiedPerContainer { return false }
        guard let current = self.store(keptBy: owner) else { return false }
        return current.lineage === store.lineage && current.drops > store.drops
    }

    /// The instance kept for the callers of a build that began with `store`: in the store serving
    /// them now, or, when that build's store was dropped since, in the build's own store (theirs
    /// asked before the drop). Read lock held.
    func keptInstance(forBuildIn store: InstanceStore, keptBy owner: Resolver?, for resolution: Resolution) -> AnyKept?
    {
        isDropped(since: store, keptBy: owner)
            ? store.kept(for: resolution) : self.store(keptBy: owner)?.kept(for: resolution)
    }

    /// Forgets what is cached for resolutions from `container`, or the registration's own when nil.
    /// Write lock held.
    ///
    /// The store is replaced as well as emptied (the registration's own, or the test container's
    /// copy): a build begun before the drop keeps its instance in the old one (its callers get it),
    /// and the resolutions from now on build anew rather than join it. So is the transient store of
    /// a registration whose first instance is still to tell whether it is a ``Singleton``: a first
    /// build under way decides nothing, and the next first build decides.
    func dropCache(keptBy container: Resolver?, leftovers: inout Leftovers) {
        guard let store = store(keptBy: container) else { return }
        store.drop(into: &leftovers)
        // The registration's own transient store, while its first instance is still to decide.
        let isUndecided =
            container == nil && traits.contains(.markerUndecided) && type(of: store) == InstanceStore.self
        guard store.sharesInstances && !(store is FixedInstanceStore) || isUndecided else { return }
        guard let container else {
            return replaceStore(with: store.successorAfterDrop(), keepingCopies: true, leftovers: &leftovers)
        }
        guard let copy = container.storeCopies[ObjectIdentifier(self)], copy.store === store else { return }
        // A copy its own first instance decided goes: the next first instance decides again.
        guard copy.decidedAt == nil else {
            return leftovers.append(container.storeCopies.removeValue(forKey: ObjectIdentifier(self)))
        }
        container.keep(
            StoreCopy(
                provider: self, original: copy.original, store: store.successorAfterDrop(), decidedAt: copy.decidedAt),
            leftovers: &leftovers)
    }

    /// The kept instance, for hints and scope handles. Lock held.
    func keptInstance(keptBy container: Resolver?) -> Any? { store(keptBy: container)?.keptInstance }
    var lifetimeDescription: String { store.lifetimeDescription }
    var scope: ObjectIdentifier? { store.scope }
    var isWeaklyScoped: Bool { store.isWeaklyScoped }

    /// The context factory a build by `builder` uses, counted from 1 (``contexts``' position + 1),
    /// or 0 for the registration's own factory: of the contexts that hold in `builder`'s
    /// ``Resolver/context-swift.property``, the first in ``ContextCase``'s order. Read lock held.
    @inline(never)
    func contextFactoryNumber(builtBy builder: Resolver) -> Int32 {
        let contexts = self.contexts
        let context = builder.contextLocked
        // `min(by:)` keeps the first of equals: of two arguments present, the one added first.
        let holding = contexts.indices.filter { contexts[$0].holds(in: context) }
        guard let chosen = holding.min(by: { contexts[$0].rank < contexts[$1].rank }) else { return 0 }
        return Int32(chosen + 1)
    }

    /// Resolves the registration from `container` as `key` (itself, or an alias of it).
    func resolveErased(
        as key: Key, from container: Resolver, arguments: Arguments?, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> Any { fatalError("abstract") }

    /// ``resolveErased(as:from:arguments:site:in:)`` on the async path, which also builds async
    /// registrations.
    func resolveErasedAsync(
        as key: Key, from container: Resolver, arguments: Any?, site: SourceLocation?, isolation: isolated (any Actor)?
    ) async throws -> Any { fatalError("abstract") }

    /// Resolves it with `values` converted to its argument types; nil when they do not convert.
    func resolveConverting(
        _ values: [Any], from container: Resolver, site: SourceLocation
    ) throws(ResolutionError) -> Any? { fatalError("abstract") }

    /// ``resolveConverting(_:from:site:)`` on the async path, which also builds async registrations.
    func resolveConvertingAsync(
        _ values: [Any], from container: Resolver, site: SourceLocation, isolation: isolated (any Actor)?
    ) async throws -> Any? { fatalError("abstract") }

    /// Whether its only argument is Optional, so that it may be resolved without arguments.
    var acceptsNoArguments: Bool { false }
}

/// A registration of `T`: the factory (one of four kinds) and the `initCompleted` steps.
final class Provider<T>: AnyProvider {
    enum Factory {
        case simple(() throws -> T)
        case resolver((Resolver) throws -> T)
        case arguments(ArgumentFactory<T>)
        /// An async factory, with the container and the arguments (a tuple, or nil without), and
        /// the isolation it was written in (its `initCompleted` steps run there too); with
        /// arguments, what converts values to them (``ArgumentFactory/converted(_:)``).
        case async(
            (Resolver, Any?) async throws -> sending T, isolation: (any Actor)?,
            converting: (([Any]) -> Any?)? = nil)
    }

    // The factories, one set: kept apart rather than as a `Factory`, so that the resolution path
    // reads a closure without the enum's type metadata.
    let simpleFactory: (() throws -> T)?
    let resolvingFactory: ((Resolver) throws -> T)?
    let argumentFactory: ArgumentFactory<T>?
    let asyncFactory: ((Resolver, Any?) async throws -> sending T)?
    /// The isolation an async factory was written in, if any.
    private(set) var asyncIsolation: (any Actor)?
    /// An async factory's conversion of values to its argument types, if it takes any.
    private(set) var asyncArgumentConversion: (([Any]) -> Any?)?

    /// The factories of a ``Factory``, one of them set: a value of the enum is never built where `T`
    /// is not known at compile time (its metadata would be looked up for it).
    typealias Factories = (
        simple: (() throws -> T)?, resolving: ((Resolver) throws -> T)?, arguments: ArgumentFactory<T>?,
        async: ((Resolver, Any?) async throws -> sending T)?, isolation: (any Actor)?, converting: (([Any]) -> Any?)?
    )

    @inline(__always)
    static func factories(_ factory: Factory) -> Factories {
        switch factory {
        case .simple(let make): (make, nil, nil, nil, nil, nil)
        case .resolver(let make): (nil, make, nil, nil, nil, nil)
        case .arguments(let make): (nil, nil, make, nil, nil, nil)
        case .async(let make, let isolation, let converting): (nil, nil, nil, make, isolation, converting)
        }
    }

    @inline(__always)
    convenience init(
        key: Key, factory: Factory, store: InstanceStore, site: SourceLocation, registry: Registry,
        isMainActorBound: Bool = false, isMarked: Bool = isMarked
    ) {
        self.init(
            key: key, factories: Self.factories(factory), store: store, site: site, registry: registry,
            isMainActorBound: isMainActorBound, isMarked: isMarked)
    }

    @inline(__always)
    init(
        key: Key, factories: consuming Factories, store: InstanceStore, site: SourceLocation, registry: Registry,
        isMainActorBound: Bool, isMarked: Bool
    ) {
        (simpleFactory, resolvingFactory, argumentFactory, asyncFactory) =
            (factories.simple, factories.resolving, factories.arguments, factories.async)
        asyncIsolation = factories.isolation
        asyncArgumentConversion = factories.converting
        super.init(
            key: key, site: site, registry: registry, store: store, isMainActorBound: isMainActorBound,
            isAsync: asyncFactory != nil)
        if !isMarked && key.arguments == nil && !instancesAreExactly(T.self) {
            traits = [.markerUndecided, .markerFromInstance]
        }
    }

    /// A new registration. Called on the class that ``Resolution/registrationFacts(of:)`` remembers,
    /// it gets the class's metadata as `self`; inlined into its caller, the allocation would look
    /// the metadata up again.
    @inline(never)
    static func make(
        key: consuming Key, factories: consuming Factories, store: consuming InstanceStore, site: SourceLocation,
        registry: Registry,
        isMainActorBound: Bool, isMarked: Bool
    ) -> Provider<T> {
        self.init(
            key: key, factories: factories, store: store, site: site, registry: registry,
            isMainActorBound: isMainActorBound, isMarked: isMarked)
    }

    /// Gives `context` its own factory (replacing one given before), making the registration
    /// main-actor-bound if the factory is; what was kept is dropped. Write lock held.
    ///
    /// The store is replaced rather than emptied: a build under way keeps its instance in the old
    /// one, test containers' copies of it are dropped on their next use, and an instance given to
    /// `registerSingleton` (which its own factory hands out) gives way to a kept singleton that a
    /// context factory can build.
    func addContextFactory(
        _ factory: @escaping (Resolver) throws -> T, for context: ContextCase, isMainActorBound: Bool,
        leftovers: inout Leftovers
    ) {
        let factories = contextFactories as? ContextFactories<T> ?? ContextFactories()
        factories.set(factory, for: context)
        contextFactories = factories
        traits.insert(.hasContexts)
        self.isMainActorBound = self.isMainActorBound || isMainActorBound
        let fresh = store is FixedInstanceStore ? SingletonStore(store.lifetimeDescription) : store.emptyCopy()
        replaceStore(with: fresh, leftovers: &leftovers)
    }

    /// The context factory numbered `number` (see ``AnyProvider/contextFactoryNumber(builtBy:)``).
    @inline(never)
    func contextFactory(_ number: Int32, in resolution: Resolution) -> (Resolver) throws -> T {
        registryLock.withReadLock(resolution.stripe) {
            (contextFactories as! ContextFactories<T>).factories[Int(number) - 1]
        }
    }

    /// Adds an `initCompleted` step after those already set. Write lock held.
    func addCompletion(_ step: @escaping (Resolver, T) throws -> Void) {
        guard let previous = (completion as? Completion<T>)?.run else { return completion = Completion(step) }
        completion = Completion {
            try previous($0, $1); try step($0, $1)
        }
    }

    override func resolveErased(
        as key: Key, from container: Resolver, arguments: Arguments?, site: SourceLocation?, in resolution: Resolution
    ) throws(ResolutionError) -> Any {
        let value: T = try Resolver.resolve(
            key, from: container, provider: self, arguments: arguments, site: site, in: resolution)
        return value
    }

    override func resolveConvertingAsync(
        _ values: [Any], from container: Resolver, site: SourceLocation, isolation: isolated (any Actor)?
    ) async throws -> Any? {
        guard let arguments = argumentFactory?.converted(values) ?? asyncArgumentConversion?(values) else { return nil }
        return try await resolveErasedAsync(
            as: key, from: container, arguments: arguments, site: site, isolation: isolation)
    }

    override func resolveErasedAsync(
        as key: Key, from container: Resolver, arguments: Any?, site: SourceLocation?, isolation: isolated (any Actor)?
    ) async throws -> Any {
        let value: T = try await Resolver.resolveAsync(
            key, from: container, provider: self, arguments: arguments, site: site, isolation: isolation)
        return value
    }

    override func resolveConverting(
        _ values: [Any], from container: Resolver, site: SourceLocation
    ) throws(ResolutionError) -> Any? {
        guard let argumentFactory, let arguments = argumentFactory.converted(values) else { return nil }
        return try Arguments.with(arguments) { arguments throws(ResolutionError) -> Any in
            try resolveErased(as: key, from: container, arguments: arguments, site: site, in: .current)
        }
    }

    override var acceptsNoArguments: Bool { argumentFactory?.acceptsNoArguments ?? false }
}

/// How a registration's lifetime is chosen and changed: the one place the ``Singleton`` marker of
/// the registered type and the rules of ``Registration/lifetime(_:file:line:)`` are decided.
extension Provider {
    /// Whether `T` itself is a ``Singleton`` (a run-time conformance check; a registration asks the
    /// calling thread's memory of it, ``Resolution/registrationFacts(of:)``).
    static var isMarked: Bool { T.self is any Singleton.Type }

    /// The store a new registration starts with: a type conforming to ``Singleton`` is a singleton,
    /// a registration with runtime arguments is transient.
    static func initialStore(for lifetime: Lifetime, key: Key, isMarked: Bool = isMarked, isAsync: Bool)
        -> InstanceStore
    {
        if isMarked { return SingletonStore() }
        // A transient store is told apart from another only by a first build that reads the marker
        // off its instance (a claim) and by an async build's pending `initCompleted` step.
        guard key.arguments == nil else { return .transient(shared: !isAsync) }
        guard case .transient = lifetime else { return .make(for: lifetime) }
        return .transient(shared: !isAsync && instancesAreExactly(T.self))
    }

    /// Why a registration of `key` cannot have `lifetime` (nil: the default), if it cannot.
    static func refusal(of lifetime: Lifetime?, for key: Key, isMarked: Bool = isMarked) -> String? {
        if key.arguments != nil, let lifetime, lifetime != .transient {
            return Messages.argumentsNotTransient(key, lifetime: lifetime.description)
        }
        guard isMarked else { return nil }
        if key.arguments != nil { return Messages.singletonWithArguments(key) }
        if let lifetime, lifetime != .singleton {
            return Messages.singletonTypeLifetime(key, lifetime: lifetime.description)
        }
        return nil
    }

    /// Gives the registration another lifetime, or says why it cannot have it. Write lock held.
    func changeLifetime(to lifetime: Lifetime, leftovers: inout Leftovers) -> String? {
        if store is FixedInstanceStore {
            return lifetime == .singleton ? nil : Messages.instanceLifetime(key, lifetime: lifetime.description)
        }
        if key.scope != nil { return Messages.scopedLifetime(key, lifetime: lifetime.description) }
        if let refusal = Self.refusal(of: lifetime, for: key) { return refusal }
        replaceStore(with: Self.initialStore(for: lifetime, key: key, isAsync: isAsync), leftovers: &leftovers)
        return nil
    }
}

/// The `initCompleted` steps of a registration of `T`, chained.
final class Completion<T> {
    let run: (Resolver, T) throws -> Void

    init(_ run: @escaping (Resolver, T) throws -> Void) {
        self.run = run
    }
}

/// A registration's factories for contexts (`.onTest`, …), without their type. Guarded by
/// ``registryLock``.
class AnyContextFactories {
    /// The contexts, in the order added.
    fileprivate(set) var contexts: [ContextCase] = []
}

/// A registration's factories for contexts, at the positions of their contexts.
final class ContextFactories<T>: AnyContextFactories {
    private(set) var factories: [(Resolver) throws -> T] = []

    /// Gives `context` `factory`, replacing the one it had.
    func set(_ factory: @escaping (Resolver) throws -> T, for context: ContextCase) {
        if let index = contexts.firstIndex(of: context) {
            factories[index] = factory
        } else {
            contexts.append(context)
            factories.append(factory)
        }
    }
}

extension Resolver {
    /// Keeps a test container's copy of a registration's store. Whenever the copies have doubled
    /// since they were last swept, those gone stale first go (their registration replaced or
    /// removed, or its store replaced): a long-lived test container whose parent registers anew
    /// would otherwise keep every replaced instance. Write lock held.
    func keep(_ copy: StoreCopy, leftovers: inout Leftovers) {
        if storeCopies.count >= storeCopiesAfterSweep * 2 + 8 {
            for (id, old) in storeCopies where old.isStale {
                leftovers.append(storeCopies.removeValue(forKey: id))
            }
            storeCopiesAfterSweep = storeCopies.count
        }
        leftovers.append(storeCopies.updateValue(copy, forKey: ObjectIdentifier(copy.provider)))
    }
}

/// A test container's own copy of a registration's store.
final class StoreCopy {
    /// The registration, kept so that its identity (the copy's key) is not reused meanwhile.
    let provider: AnyProvider
    /// The registration's store the copy was made from: a copy of a replaced store is stale.
    let original: InstanceStore
    let store: InstanceStore
    /// For the singleton the container's own first instance made (``AnyProvider/keepFirst``), the
    /// registration's ``AnyProvider/storeChanges`` then: the copy outlives the store the parent's
    /// own first instance gives the registration, and no other change.
    let decidedAt: UInt32?

    init(provider: AnyProvider, original: InstanceStore, store: InstanceStore, decidedAt: UInt32? = nil) {
        self.provider = provider
        self.original = original
        self.store = store
        self.decidedAt = decidedAt
    }

    /// Whether the copy still serves the registration's store. Lock held.
    var isCurrent: Bool {
        if let decidedAt { return decidedAt == provider.storeChanges }
        return original.lineage === provider.store.lineage
    }

    /// Whether the registration no longer serves its key, or has another store now. Lock held.
    var isStale: Bool {
        !isCurrent || provider.registry.bindings[provider.key]?.provider !== provider
    }

    /// Whether the copy keeps nothing now. Lock held.
    var isEmpty: Bool { store.keptInstance == nil }
}

/// The factory of a registration with runtime arguments, erased over the argument types (which
/// the key pins down).
class ArgumentFactory<T> {
    /// Whether the only argument is Optional, so that a call without arguments passes nil.
    var acceptsNoArguments: Bool { false }
    /// Calls the factory with the arguments tuple `arguments` holds (nil: none given).
    func make(_ arguments: Any?) throws -> T { fatalError("abstract") }
    /// `values` as the arguments tuple, or nil when their number or types do not match.
    func converted(_ values: [Any]) -> Any? { fatalError("abstract") }
}

/// The factory for arguments `(repeat each A)`.
final class PackArgumentFactory<T, each A>: ArgumentFactory<T> {
    let body: (repeat each A) throws -> T

    init(_ body: @escaping (repeat each A) throws -> T) {
        self.body = body
    }

    override var acceptsNoArguments: Bool { acceptsNil((repeat each A).self) }

    override func make(_ arguments: Any?) throws -> T {
        let values = argumentTuple(arguments, as: (repeat each A).self)
        return try body(repeat each values)
    }

    override func converted(_ values: [Any]) -> Any? {
        convertedTuple(values, as: (repeat each A).self)
    }
}

/// Whether arguments `(repeat each A)` may be left out: a single Optional argument (nil).
func acceptsNil<each A>(_ type: (repeat each A).Type) -> Bool {
    type is any ExpressibleByNilLiteral.Type
}

/// The arguments tuple `arguments` holds; nil only reaches a registration whose single Optional
/// argument was left out, which receives nil.
func argumentTuple<each A>(_ arguments: Any?, as type: (repeat each A).Type) -> (repeat each A) {
    guard let arguments else {
        let none: Any = (type as! any ExpressibleByNilLiteral.Type).init(nilLiteral: ())
        return none as! (repeat each A)
    }
    return arguments as! (repeat each A)
}

/// `values` as an arguments tuple `(repeat each A)`, or nil when their number or types differ.
func convertedTuple<each A>(_ values: [Any], as type: (repeat each A).Type) -> Any? {
    var index = 0
    for type in repeat (each A).self {
        guard index < values.count, isInstance(values[index], of: type) else { return nil }
        index += 1
    }
    guard index == values.count else { return nil }
    index = 0
    func take<V>(_ type: V.Type) -> V {
        defer { index += 1 }
        return values[index] as! V
    }
    return (repeat take((each A).self))
}

/// Whether `value` can be passed where a `V` is expected.
private func isInstance<V>(_ value: Any, of type: V.Type) -> Bool {
    value is V
}
