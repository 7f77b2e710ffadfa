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
    final let registry: Registry
    /// Whether this container keeps its own instance of everything it resolves (test containers).
    /// Set before the container is shared.
    final private(set) var isolatesCache = false
    /// A test container's own copies of registrations' stores (``StoreCopy``), by registration.
    /// Guarded by ``registryLock``.
    final var storeCopies: [ObjectIdentifier: StoreCopy] = [:]
    /// How many copies were left when stale ones were last swept out. Guarded by ``registryLock``.
    final var storeCopiesAfterSweep = 0
    /// Open ``ScopeHandle``s begun on the container, by scope. Guarded by ``registryLock``.
    final var scopeHandles: [ObjectIdentifier: [WeakScopeHandle]] = [:]
    /// The ``context-swift.property`` set on this container, if any. Guarded by ``registryLock``.
    final var ownContext: Context?
    /// The container misses fall through to.
    public let parent: Resolver?
    /// A readable name for messages: the id, or how the container came to be
    /// (`child 3 of main`).
    public var name: String {
        guard let parent, givenName == nil else { return shortName }
        return "\(shortName) of \(parent.shortName)"
    }
    /// What this container's children call it in their names: the id, or `child N`, so that
    /// a name never grows with the depth of the chain. Made when a message asks for it: a server
    /// makes a child per request.
    private var shortName: String { givenName ?? "child \(numberForName)" }
    /// The id, or the name given to an isolating child; nil for a plain child. Set before the
    /// container is shared.
    private var givenName: String?
    /// A child's number, for its name; 0 until a name asks for it. Guarded by `counterLock`.
    private var number = 0

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
        givenName = id.hasPrefix(Resolver.privateIDPrefix) ? String(id.dropFirst()) : id
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
        registry = Registry(id: "")  // a child's registry is its own, never shared by id
        self.parent = parent
    }

    deinit {
        if parent == nil { Registry.release(registry) }
    }

    /// A container of its own, with no parent.
    public convenience init() {
        self.init(id: Resolver.privateID("resolver \(Resolver.nextAnonymousNumber())"))
    }

    /// Starts the id of a container made without one (`Resolver()`, `MockResolver()`): a control
    /// character, which no id written by hand starts with, so that a container made with
    /// ``init(id:)`` never shares such a container's registry. Its name is the rest.
    static let privateIDPrefix = "\u{1}"

    static func privateID(_ name: String) -> String { privateIDPrefix + name }

    /// An isolating child, as test containers are: misses fall through to `parent`, but the
    /// child keeps its own instance of everything it resolves, singletons of the parent's
    /// registrations included, built with the child's registrations. Overrides made in the
    /// child therefore reach inside the parent's singletons, and nothing the child builds
    /// reaches the parent.
    ///
    /// ```swift
    /// // A UI-test mode of the app:
    /// let mocked = Resolver(isolatedChildOf: .main)
    /// mocked.register { MockNetworkService() }.implements(NetworkServiceProtocol.self)
    /// Resolver.root = mocked   // main's singletons, built here, get the mock
    /// ```
    ///
    /// A plain ``init(parent:)`` child instead shares the parent's singletons, built by the parent
    /// with the parent's registrations.
    public convenience init(isolatedChildOf parent: Resolver, name: String? = nil) {
        self.init(parent: parent)
        isolatesCache = true  // not yet shared with any other thread
        givenName = name
    }

    private static let counterLock = Lock()
    nonisolated(unsafe) private static var anonymousCount = 0

    private static func nextAnonymousNumber() -> Int {
        counterLock.withLock {
            anonymousCount += 1
            return anonymousCount
        }
    }

    /// The child's number, given the first time a name asks for it: numbering every child when
    /// it is made would take a process-wide lock for each.
    private var numberForName: Int {
        Self.counterLock.withLock {
            if number == 0 {
                Self.anonymousCount += 1
                number = Self.anonymousCount
            }
            return number
        }
    }

    /// The lifetime of registrations that do not name one: the one set here, else
    /// ``globalDefaultLifetime`` (``Lifetime/transient`` unless set).
    ///
    /// ```swift
    /// resolver.defaultLifetime = .graph
    /// ```
    public var defaultLifetime: Lifetime {
        get {
            registryLock.withReadLock(Resolution.current.stripe) { registry.defaultLifetime ?? Globals.defaultLifetime }
        }
        set { registryLock.withWriteLock { _ in registry.defaultLifetime = newValue } }
    }

    /// The default lifetime of every container that does not set its own ``defaultLifetime-property``,
    /// main and those made later included: Resolver's process-wide `defaultScope`. It applies
    /// to the registrations made after it is set.
    ///
    /// ```swift
    /// static func registerAllServices() {
    ///     Resolver.globalDefaultLifetime = .graph
    ///     register { AssetService() }   // .graph
    /// }
    /// ```
    public static var globalDefaultLifetime: Lifetime {
        get { registryLock.withReadLock(Resolution.current.stripe) { Globals.defaultLifetime } }
        set { registryLock.withWriteLock { _ in Globals.defaultLifetime = newValue } }
    }

    /// Whether registering a key that is already registered replaces it (the default).
    /// When `false`, a duplicate stops the program naming the key and both registration sites.
    public var allowsOverrides: Bool {
        get { registryLock.withReadLock(Resolution.current.stripe) { registry.allowsOverrides } }
        set { registryLock.withWriteLock { _ in registry.allowsOverrides = newValue } }
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
        get { registryLock.withReadLock(Resolution.current.stripe) { Globals.root } }
        set {
            // The old root is released after the lock, in case that runs deinitializers.
            registryLock.withWriteLock { leftovers in
                leftovers.append(Globals.root)
                Globals.root = newValue
            }
        }
    }

    /// The container static calls act on: inside a factory, the container resolving it;
    /// inside ``withContainer(_:_:)-(_,()->R)`` (or a test trait), the one bound there, the
    /// innermost winning; else ``root``.
    public static var current: Resolver {
        current(in: .current)
    }

    /// ``current`` for the resolution in progress on this thread.
    @inline(__always)
    static func current(in resolution: Resolution) -> Resolver {
        if let container = resolution.threadContainer { return container.takeUnretainedValue() }
        // While no binding exists, no task can see one: the task-local value is not read.
        let root = registryLock.withReadLock(resolution.stripe) { Globals.hasBindings ? nil : Globals.root }
        if let root { return root }
        if let bound { return bound }
        Globals.lowerBindingFlagUnlessBound()
        return Self.root
    }

    /// The container bound by `withContainer` for the current task, if any.
    static var bound: Resolver? { binding?.container }

    /// ``current`` unless it is the root: the container resolving on this thread, else the one
    /// bound for the task; nil outside both.
    static func bound(in resolution: Resolution) -> Resolver? {
        if let container = resolution.threadContainer { return container.takeUnretainedValue() }
        guard registryLock.withReadLock(resolution.stripe, { Globals.hasBindings }) else { return nil }
        return bound
    }

    @TaskLocal static var binding: ContainerBinding?

    /// Runs `body` with `container` as ``current``: static calls and property wrappers
    /// of objects created inside use it, also inside a factory that opens it.
    ///
    /// ```swift
    /// let mock = Resolver(parent: .main)
    /// mock.register(NetworkServiceProtocol.self) { MockNetworkService() }
    /// Resolver.withContainer(mock) {
    ///     let service: AssetService = Resolver.resolve()   // gets MockNetworkService
    /// }
    /// ```
    ///
    /// The binding is task-local: child tasks, `Task {}` included, inherit it, also after the
    /// body returned; a new `Thread` or a detached task does not: pass the container along and
    /// bind it again there.
    @discardableResult
    public static func withContainer<R>(_ container: Resolver, _ body: () throws -> R) rethrows -> R {
        // The synchronous body runs on this thread: the thread's state carries the binding for
        // the fast path (and beats the container of a factory in progress), the task-local value
        // for tasks started inside.
        let resolution = Resolution.current
        let outer = resolution.container
        resolution.container = container
        defer {
            resolution.container = outer
            resolution.clearSeam()
        }
        let outerBinding = Self.binding
        let binding = ContainerBinding(container, enclosing: outerBinding?.asyncStep, outer: outerBinding)
        guard let verification = resolution.verification else {
            return try $binding.withValue(binding) { try body() }
        }
        // A `verify()` worker may end inside `body`: the run takes the binding out of the count then.
        verification.noteOpen(binding)
        defer { verification.noteClosed(binding) }
        return try $binding.withValue(binding) { try body() }
    }

    /// Runs the asynchronous `body` with `container` as ``current``.
    @discardableResult
    public static func withContainer<R>(
        _ container: Resolver,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> R
    ) async rethrows -> R {
        let binding = ContainerBinding(container, enclosing: binding?.asyncStep, outer: binding)
        // A task started at once (`Task.immediate`) runs on the thread of the code that started it
        // until it first suspends: this binding wins over that code's container there.
        Resolution.current.noteAsyncBinding(binding)
        return try await $binding.withValue(binding) { try await body() }
    }
}

/// State behind the static facade, guarded by ``registryLock``.
enum Globals {
    /// ``Resolver/root``.
    nonisolated(unsafe) static var root: Resolver = .main
    /// True while any `withContainer` binding exists (including those kept by tasks started inside
    /// one), and possibly for a while after the last one went. While it is false, no task can see a
    /// binding, so ``Resolver/current`` skips the task-local read. Written under
    /// ``bindingCountLock`` and the write lock, so readable under either.
    ///
    /// Raised by the first binding; lowered by the first resolution that reads the task-local
    /// value, finds no binding and finds the count at 0, never when the count merely passes 0. A
    /// server that binds a container per request goes through 0 between requests, and lowering the
    /// flag there took the write lock twice a request (callgrind, a request's Syringe work:
    /// 18,456 → 17,341 instructions).
    nonisolated(unsafe) static var hasBindings = false
    /// How many bindings exist. Guarded by ``bindingCountLock``, taken before ``registryLock``.
    nonisolated(unsafe) static var bindingCount = 0
    static let bindingCountLock = Lock()

    /// Adds a binding to the count (`delta` 1) or takes it out (-1). ``bindingCountLock`` held.
    static func countBinding(_ delta: Int) {
        bindingCount += delta
        if delta > 0 && !hasBindings {
            registryLock.withWriteLock { _ in hasBindings = true }
        }
    }

    /// Lowers ``hasBindings`` if no binding exists: called by a resolution that read the task-local
    /// value and found none.
    static func lowerBindingFlagUnlessBound() {
        bindingCountLock.withLock {
            guard bindingCount == 0 && hasBindings else { return }
            registryLock.withWriteLock { _ in hasBindings = false }
        }
    }
    /// ``Resolver/globalDefaultLifetime``.
    nonisolated(unsafe) static var defaultLifetime = Lifetime.transient
}

/// A container bound for a task, as the task-local value holds it: by `withContainer`, or by an
/// async factory's build (an ``AsyncStep``), which static calls inside it and the synchronous
/// resolutions it makes continue. Tasks started inside the body keep it (and so the count) alive
/// for as long as they can read it.
class ContainerBinding: @unchecked Sendable {
    // Unchecked Sendable: `isCounted` is guarded by the binding count's lock.
    let container: Resolver
    /// The innermost async build in progress where this binding was made.
    let enclosingStep: AsyncStep?
    /// Whether the binding is in ``Globals/bindingCount``. Guarded by ``Globals/bindingCountLock``.
    private var isCounted: Bool
    /// A `verifyAsync()` run's throw-away container, which the bindings and async builds inside
    /// inherit: a resolution from the verified container or one of its ancestors (a factory that
    /// captured it) made inside resolves there instead.
    let sandbox: Resolver?

    /// The binding of the task where this one was made, if any.
    let outer: ContainerBinding?

    /// The innermost async build this binding is in, if any: the path a resolution continues.
    var asyncStep: AsyncStep? { self as? AsyncStep ?? enclosingStep }

    /// Whether `binding` is this one or one it was made inside.
    func isInside(_ binding: ContainerBinding) -> Bool {
        sequence(first: self, next: \.outer).contains { $0 === binding }
    }

    /// `isStep`: the binding is an ``AsyncStep``'s, which the outermost step's count covers when it
    /// is inside one.
    init(
        _ container: Resolver, enclosing: AsyncStep?, outer: ContainerBinding?, isStep: Bool = false,
        sandbox: Resolver? = nil
    ) {
        self.container = container
        enclosingStep = enclosing
        self.outer = outer
        self.sandbox = sandbox ?? enclosing?.sandbox
        // A build inside another keeps the outermost one, which is counted, alive: it need not be.
        isCounted = !isStep || enclosing == nil
        if isCounted { Globals.bindingCountLock.withLock { Globals.countBinding(1) } }
    }

    /// Takes the binding out of the count before its end: a `verify()` worker ended inside its
    /// body, so the task-local machinery will never release it.
    func uncount() {
        Globals.bindingCountLock.withLock {
            if isCounted { Globals.countBinding(-1) }
            isCounted = false
        }
    }

    deinit {
        // Released by the task-local machinery when a body or a task ends, never under a
        // Syringe lock.
        guard isCounted else { return }  // never counted: nothing else can change that
        Globals.bindingCountLock.withLock {
            if isCounted { Globals.countBinding(-1) }
        }
    }
}
