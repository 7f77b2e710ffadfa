/// A dependency-injection container: registrations, their cached instances, and the
/// static facade that most code uses.
///
/// ```swift
/// Resolver.register { NetworkService() }.implements(NetworkServiceProtocol.self)
/// Resolver.register { AssetService(network: $0.resolve()) }
///
/// let service: AssetService = Resolver.resolve()
/// ```
///
/// Static calls act on ``current``: the container bound with ``withContainer(_:_:)-(_,()->R)``
/// if any, else ``root`` (which defaults to ``main``). Every static call has an instance twin.
///
/// `Resolver` is `open` so that apps can name their containers. Swift 6 asks a subclass to
/// restate `@unchecked Sendable`:
///
/// ```swift
/// final class MyAppResolver: Resolver, @unchecked Sendable {
///     init() { super.init(id: "MyAppResolver") }
/// }
/// ```
open class Resolver: @unchecked Sendable {
    /// The registrations, shared with other containers of the same id.
    let registry: Registry
    /// The container misses fall through to.
    public let parent: Resolver?
    /// Whether this container keeps its own instances of everything it resolves (test containers).
    @exclusivity(unchecked) private(set) var isolatesCache: Bool
    /// Instances kept by an isolating container, by registration. Guarded by ``registryLock``.
    var isolatedCache: [ObjectIdentifier: IsolatedSlot] = [:]
    /// Open ``ScopeHandle``s begun on this container, by scope. Guarded by ``registryLock``.
    var scopeHandles: [ObjectIdentifier: [WeakScopeHandle]] = [:]
    /// A readable name for messages: the id, or how the container came to be
    /// (`child 3 of main`).
    public private(set) var name: String
    /// What this container's children call it in their names: the id, or `child N`, so that
    /// a name never grows with the depth of the chain.
    private var shortName: String

    /// A container with its own registrations, shared with every other container made
    /// with the same `id` while any of them lives.
    ///
    /// ```swift
    /// let first = Resolver(id: "Resolver_1")
    /// first.register { ClassA() }
    /// let classA: ClassA = Resolver(id: "Resolver_1").resolve()  // same registry
    /// ```
    public init(id: String) {
        registry = Registry.shared(id: id)
        parent = nil
        isolatesCache = false
        name = id
        shortName = id
    }

    /// A child container: misses fall through to `parent`; its own registrations shadow
    /// the parent's and stay invisible to it. A singleton registered in the parent stays
    /// the parent's.
    ///
    /// ```swift
    /// let mock = Resolver(parent: .main)
    /// mock.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
    /// ```
    public init(parent: Resolver) {
        let shortName = "child \(Resolver.nextAnonymousNumber())"
        let name = "\(shortName) of \(parent.shortName)"
        registry = Registry(id: name)
        self.parent = parent
        isolatesCache = false
        self.name = name
        self.shortName = shortName
    }

    /// A container of its own, with no parent.
    public convenience init() {
        self.init(id: "resolver \(Resolver.nextAnonymousNumber())")
    }

    /// A test container: a child that keeps its own instances of everything it resolves.
    package convenience init(isolatedChildOf parent: Resolver, name: String) {
        self.init(parent: parent)
        // Not yet shared with any other thread.
        isolatesCache = true
        self.name = name
        shortName = name
    }

    private static let counterLock = Lock()
    nonisolated(unsafe) private static var anonymousCount = 0

    private static func nextAnonymousNumber() -> Int {
        counterLock.withLock {
            anonymousCount += 1
            return anonymousCount
        }
    }

    /// The lifetime of registrations that do not name one. ``Lifetime/transient`` unless set.
    ///
    /// ```swift
    /// resolver.defaultLifetime = .graph
    /// ```
    public var defaultLifetime: Lifetime {
        get { registryLock.withReadLock(ThreadState.current.stripe) { registry.defaultLifetime } }
        set { registryLock.withWriteLock { registry.defaultLifetime = newValue } }
    }

    /// Whether registering a key that is already registered replaces it (the default).
    /// When `false`, a duplicate stops the program naming the key and both registration sites.
    public var allowsOverrides: Bool {
        get { registryLock.withReadLock(ThreadState.current.stripe) { registry.allowsOverrides } }
        set { registryLock.withWriteLock { registry.allowsOverrides = newValue } }
    }
}

// MARK: - The static containers

extension Resolver {
    /// The process-wide container.
    public static let main: Resolver = {
        let main = Resolver(id: "main")
        // Created lazily, possibly with the registry lock held: no lock here. Nothing else
        // can reach this registry's flag before `main` is published.
        main.registry.bootstrapPending = true
        return main
    }()

    /// The container static calls use when no other is bound; ``main`` unless set.
    ///
    /// Swapping it for a mock container is one way to test:
    ///
    /// ```swift
    /// Resolver.root = MockResolver(parent: .main) { $0.register { MockNetworkService() } }
    /// ```
    public static var root: Resolver {
        get {
            registryLock.withReadLock(ThreadState.current.stripe) { Globals.state.pointee.root.takeUnretainedValue() }
        }
        set {
            let old = registryLock.withWriteLock {
                defer { Globals.state.pointee.root = .passRetained(newValue) }
                return Globals.state.pointee.root
            }
            // Released after the lock, in case that runs deinitializers.
            old.release()
        }
    }

    /// The container static calls act on: the one bound by ``withContainer(_:_:)-(_,()->R)``
    /// (or a test trait) if any; inside a factory, the container resolving it; else ``root``.
    public static var current: Resolver {
        let state = ThreadState.current
        if let container = state.container { return container }
        return boundOrRoot(state)
    }

    @inline(__always)
    static func boundOrRoot(_ state: ThreadState) -> Resolver {
        registryLock.lockRead(stripe: state.stripe)
        let root = Globals.state.pointee.root.takeUnretainedValue()
        let hasBindings = Globals.state.pointee.bindingCount > 0
        registryLock.unlockRead(stripe: state.stripe)
        if hasBindings, let bound = Resolver.bound { return bound }
        return root
    }

    @TaskLocal static var bound: Resolver?

    /// Runs `body` with `container` as ``current``: static calls and property wrappers
    /// of objects created inside use it.
    ///
    /// ```swift
    /// let mock = Resolver(parent: .main)
    /// mock.register(NetworkServiceProtocol.self) { MockNetworkService() }
    /// Resolver.withContainer(mock) {
    ///     let service: AssetService = Resolver.resolve()   // gets MockNetworkService
    /// }
    /// ```
    ///
    /// The binding is task-local: child tasks inherit it, but a new `Thread` or a detached
    /// task does not; pass the container along and bind it again there.
    @discardableResult
    public static func withContainer<R>(_ container: Resolver, _ body: () throws -> R) rethrows -> R {
        Globals.changeBindingCount(by: 1)
        defer { Globals.changeBindingCount(by: -1) }
        return try $bound.withValue(container) { try body() }
    }

    /// Runs the asynchronous `body` with `container` as ``current``.
    @discardableResult
    public static func withContainer<R>(
        _ container: Resolver,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        Globals.changeBindingCount(by: 1)
        defer { Globals.changeBindingCount(by: -1) }
        return try await $bound.withValue(container) { try await body() }
    }
}

/// State behind the static facade, guarded by ``registryLock``. Kept behind a pointer so
/// that the hot path reads it without exclusivity checks.
enum Globals {
    struct State {
        /// ``Resolver/root``, retained.
        var root: Unmanaged<Resolver>
        /// How many `withContainer` bindings are open; while none is, `current` skips the task-local read.
        var bindingCount: Int
    }

    nonisolated(unsafe) static let state: UnsafeMutablePointer<State> = {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State(root: .passRetained(Resolver.main), bindingCount: 0))
        return state
    }()

    static func changeBindingCount(by delta: Int) {
        registryLock.withWriteLock { state.pointee.bindingCount += delta }
    }
}
