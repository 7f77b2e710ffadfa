#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// One of the three files with unsafe constructs: the thread-local slot holds the thread's state
// through `Unmanaged` (pthread keys store raw pointers); the stack check reads the address of a
// local; a `verify()` worker that holds the main actor for its caller runs main-actor code through
// `unsafeBitCast` (``runAsMainActor(_:)``), and the class of a type's registrations is remembered
// erased and cast back the same way (figure at ``Resolution/registrationFacts(of:)``); the state's
// hot fields skip the run-time exclusivity checks and reference counting (figures at
// ``Resolution`` and ``Frame``); and a kept instance passes through raw memory on its way out of
// the lock (figure at ``Resolution/keptSlot``).

/// One step of a resolution path: what was asked for, the registration building it, and where.
///
/// The registration and the containers are held unowned: the build in progress keeps them alive
/// for the length of the frame. Pushing, reading and popping frames then counts no references
/// (callgrind, a static resolution in a release build: transient 1,551 instructions with strong
/// references, 1,273 without; chain3 5,066 and 4,277).
struct Frame {
    /// The registration being built (its key is the frame's place in the path): a frame with the
    /// same one further out is a cycle.
    unowned(unsafe) let provider: AnyProvider
    let site: SourceLocation?
    /// The container static calls used outside the frame, restored when it is left.
    var outerContainer: Unmanaged<Resolver>? = nil
    /// How many dependencies the frame has resolved so far: where the next one is expected in the
    /// registration's recorded dependencies.
    var resolvedDependencies = 0
    /// Whether the frame runs the registration's `initCompleted` step rather than its factory.
    var isStep = false
}

/// The state of the resolution in progress on one thread: the value the resolution path
/// carries from one level to the next.
///
/// Everything one top-level `resolve()` builds runs on the calling thread, so one object per
/// thread holds it, reused from one resolution to the next: the frames of the path (for cycles
/// and messages), the `.graph` instances, the `initCompleted` steps still to run and the
/// instances waiting for them, and what the caller's isolation is.
///
/// Only the thread it belongs to touches it (a `verify()` worker included, whose caller waits), so
/// the fields the resolution path reads skip the run-time exclusivity checks (callgrind, a static
/// resolution in a release build: transient 1,417 → 1,273 instructions, cached singleton 812 → 730).
final class Resolution {
    /// The stripe of ``registryLock`` this thread reads with.
    let stripe: Int
    /// The frames of the path, outermost first: `depth` of them, in memory of its own, so that
    /// entering and leaving a frame checks no uniqueness and copies nothing (callgrind, a transient
    /// resolution: 1,365 instructions with an array, 1,273 without; chain3 4,606 and 4,277).
    @exclusivity(unchecked) private var frames = UnsafeMutablePointer<Frame>.allocate(capacity: 16)
    @exclusivity(unchecked) private var frameCapacity = 16
    @exclusivity(unchecked) private(set) var depth = 0
    /// The container static calls use here: the innermost factory's, or a `withContainer`
    /// body's on this thread; nil outside both. Unmanaged: the frame or body that set it keeps it
    /// alive (callgrind, a static resolution: transient 1,300 instructions with a strong reference
    /// here and in ``Frame/outerContainer``, 1,224 without; chain3 4,434 and 4,128), and reading an
    /// `unowned(unsafe)` one made a strong copy, counted, nil included (transient 1,252 → 1,240).
    @exclusivity(unchecked) var containerReference: Unmanaged<Resolver>?
    var container: Resolver? {
        get { containerReference?.takeUnretainedValue() }
        set { containerReference = newValue.map(Unmanaged.passUnretained) }
    }
    /// An async `withContainer` opened on this thread by a task started at once (`Task.immediate`)
    /// inside a factory or a synchronous `withContainer` body of another task, whose
    /// ``containerReference`` this is; and the depth it was opened at, where it wins while it is the
    /// task's innermost binding (``threadContainer``). Held until the other task's factory or body
    /// ends (``leave()``, ``clearSeam()``): releasing a binding takes a lock, which a read under the
    /// registry's lock must not.
    @exclusivity(unchecked) private var seamBinding: ContainerBinding?
    @exclusivity(unchecked) private var seamDepth = 0

    /// The container static calls use on this thread: ``containerReference``, unless an async
    /// `withContainer` of a task started at once on top of it is the one that applies.
    @inline(__always)
    var threadContainer: Unmanaged<Resolver>? {
        seamBinding == nil ? containerReference : containerAcrossSeam()
    }

    /// Inside the seam's scope (its task, its nested bindings and async builds included), the
    /// task's innermost binding; elsewhere ``containerReference``.
    @inline(never)
    private func containerAcrossSeam() -> Unmanaged<Resolver>? {
        guard depth == seamDepth, let seam = seamBinding, let innermost = Resolver.binding, innermost.isInside(seam)
        else { return containerReference }
        return .passUnretained(innermost.container)
    }

    /// Lets go of the seam once this thread's state holds no container.
    func clearSeam() {
        if containerReference == nil { seamBinding = nil }
    }

    /// Notes that an async `withContainer` binds `binding` here: where this thread's state holds a
    /// container, it is another task's, which started the calling task at once inside it.
    func noteAsyncBinding(_ binding: ContainerBinding) {
        guard containerReference != nil else { return }
        if let seam = seamBinding, depth == seamDepth, binding.isInside(seam) { return }  // nested in its scope
        seamBinding = binding
        seamDepth = depth
    }
    /// `.graph` instances of the current top-level resolution.
    @exclusivity(unchecked) private(set) var graph = GraphScope()
    /// Whether the current top-level resolution kept an instance in ``graph``, or let a lazy
    /// wrapper keep it: its end then empties or retires it.
    private var touchesGraph = false
    /// Whether ``graph`` is a lazy wrapper's scope, borrowed for its first read: the end of the read
    /// leaves it to the resolution that made it, which may still run.
    private var borrowsGraph = false
    /// What stores let go while the top-level resolution builds (an expired instance replaced),
    /// released when it ends: a deinitializer may resolve what is still being built.
    var leftovers = Leftovers() {
        didSet { holdsLeftovers = !leftovers.isEmpty }
    }
    /// `!leftovers.isEmpty`, kept as a plain flag: ``leave()`` reads it at the end of every top-level
    /// resolution, and a read of the array there is an access that calls into it, which brings
    /// the run-time exclusivity check back (ARCHITECTURE.md, "Rules the code keeps").
    private var holdsLeftovers = false
    /// `initCompleted` steps to run before the outermost resolution returns.
    @exclusivity(unchecked) var pendingCompletions: [PendingCompletion] = []
    /// Instances whose `initCompleted` step has not run yet, by store: only this thread sees them.
    @exclusivity(unchecked) var provisional: [ObjectIdentifier: AnyKept] = [:]
    /// Whether the resolve call in progress was made from main-actor-isolated code.
    @exclusivity(unchecked) var callerIsOnMainActor = false
    /// Whether this thread is running `registerAllServices()`.
    @exclusivity(unchecked) var isBootstrapping = false
    /// The `verify()` run this thread works for: where the program would stop, the run records
    /// the failure instead.
    @exclusivity(unchecked) var verification: VerificationRun?
    /// The async resolution this one continues while a synchronous part of it runs on this thread
    /// (inside an async factory): the task's path, its `.graph` instances. Nil otherwise.
    @exclusivity(unchecked) var asyncStep: AsyncStep?
    /// The depth at which the path is too deep: ``Resolver/maximumDepth`` less the async builds
    /// around the synchronous part this thread runs (``continuing(_:_:)``), so that a path across
    /// async factories is bounded as one.
    @exclusivity(unchecked) private(set) var depthLimit = Resolver.maximumDepth
    /// Where a kept instance is copied under the read lock on its way to the caller, so that its
    /// box is read uncounted (``Resolver/plan(_:from:provider:in:bindingRead:reading:)``). Raw
    /// memory that grows to fit the largest type read: a local Optional of the generic type cost a
    /// metadata lookup a resolution (callgrind, a cached singleton: 1,728 instructions; 744 with
    /// this).
    @exclusivity(unchecked) private var keptSlot = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
    @exclusivity(unchecked) private var keptSlotSize = 64
    @exclusivity(unchecked) private var keptSlotAlignment = 16
    /// What this thread learned of the types it registered (``registrationFacts(of:)``), each slot
    /// for the last type asked whose metadata address maps to it.
    @exclusivity(unchecked) private var typeFacts = [TypeFacts](repeating: TypeFacts(), count: 64)
    /// The thread's stack: its lowest address (tests move it) and the system's thread id, for the
    /// stack check and messages.
    @exclusivity(unchecked) var stackLow = currentStackLow()
    let systemThreadID = currentThreadID()
    /// Whether this is the process's main thread, asked once: on Linux the question is two system
    /// calls (`getpid`, `gettid`), which each resolution of a main-actor-bound registration from
    /// nonisolated code on the main thread asked again (`withContainer` and two resolutions, five
    /// such registrations in all: 2,000 → 590 ns).
    let isMainThread = Syringe.isMainThread()

    /// Whether `T` conforms to ``Singleton``, and the class of its registrations, `Provider<T>`:
    /// remembered for the type a slot last held. A server's container per request registers the
    /// same few types again and again, and the run-time conformance check and generic metadata
    /// lookup cost 374 and 458 instructions a registration (callgrind, a request's Syringe work:
    /// 17,228 → 15,231 instructions; registering types new to the memo, 3,856 → 4,030 a
    /// registration). The class is kept erased and cast back with `unsafeBitCast`: a checked cast
    /// would look the metadata up again. Sound: a slot's class is `Provider<T>` for the `T` whose
    /// address the slot holds, and metadata is never freed.
    @inline(__always)
    static func registrationFacts<T>(of type: T.Type) -> (isMarked: Bool, provider: Provider<T>.Type) {
        withCurrent { $0.registrationFacts(of: type) }
    }

    private func registrationFacts<T>(of type: T.Type) -> (isMarked: Bool, provider: Provider<T>.Type) {
        let address = UInt(bitPattern: ObjectIdentifier(type))
        let index = Int(truncatingIfNeeded: (address >> 4) ^ (address >> 10)) & (typeFacts.count - 1)
        let facts = typeFacts[index]
        if facts.address == address, let provider = facts.provider {
            return (facts.isMarked, unsafeBitCast(provider, to: Provider<T>.Type.self))
        }
        let isMarked = T.self is any Singleton.Type
        typeFacts[index] = TypeFacts(address: address, isMarked: isMarked, provider: Provider<T>.self)
        return (isMarked, Provider<T>.self)
    }

    private init(stripe: Int) {
        self.stripe = stripe
    }

    deinit {
        frames.deinitialize(count: depth)
        frames.deallocate()
        keptSlot.deallocate()
    }

    /// The slot a kept instance of type `T` is copied into: uninitialized until the plan's reader
    /// initializes it, and moved out right after the plan. Asked for again each time: a resolution
    /// nested in the plan (inside `registerAllServices()`) may have moved it to fit its own type.
    @inline(__always)
    func keptSlot<T>(for _: T.Type) -> UnsafeMutablePointer<T> {
        if MemoryLayout<T>.size > keptSlotSize || MemoryLayout<T>.alignment > keptSlotAlignment {
            growKeptSlot(to: T.self)
        }
        return keptSlot.assumingMemoryBound(to: T.self)
    }

    /// Makes the slot fit `T` as well as every type it fitted. Called with nothing in it.
    @inline(never)
    private func growKeptSlot<T>(to _: T.Type) {
        keptSlot.deallocate()
        keptSlotSize = max(keptSlotSize, MemoryLayout<T>.size)
        keptSlotAlignment = max(keptSlotAlignment, MemoryLayout<T>.alignment)
        keptSlot = .allocate(byteCount: keptSlotSize, alignment: keptSlotAlignment)
    }

    var path: [Key] { (asyncStep?.path ?? []) + (0..<depth).map { frames[$0].provider.key } }

    /// The innermost frame, if a resolution is in progress.
    var innermostFrame: Frame? { depth == 0 ? nil : frames[depth - 1] }

    /// The error of a dependency cycle that resolving `key` here would close: the path, a frame
    /// that runs a step named as such, and, for a loop through a step, why and what to do.
    @inline(never)
    func cycleError(closing key: Key, in container: Resolver, site: SourceLocation?) -> ResolutionError {
        var keys = (asyncStep?.path ?? []).map(\.shortDescription)
        var suggestions: [String] = []
        for index in 0..<depth {
            let name = frames[index].provider.key.shortDescription
            keys.append(frames[index].isStep ? name + ".initCompleted" : name)
            if frames[index].isStep && suggestions.isEmpty { suggestions.append(Messages.cycleThroughStep(name)) }
        }
        return ResolutionError(
            .cycle(keys + [key.shortDescription]), key: key, path: path, container: container, site: site,
            suggestions: suggestions)
    }

    /// Whether `provider` is being built by a frame of this path (a dependency cycle).
    func isBuilding(_ provider: AnyProvider) -> Bool {
        for index in 0..<depth where frames[index].provider === provider { return true }
        return asyncStep?.isBuilding(provider) ?? false
    }

    /// Where the outermost resolution in progress was asked for: where a stop inside it is reported.
    var outermostSite: SourceLocation? { asyncStep?.outermostSite ?? (depth > 0 ? frames[0].site : nil) }

    /// Runs `body`, a synchronous part of the async resolution `step` (nil: of none), on this
    /// thread: its path continues the task's, its static calls use the container building there,
    /// its `.graph` instances are the task's.
    @inline(__always)
    func continuing<R, E: Error>(_ step: AsyncStep?, _ body: () throws(E) -> R) throws(E) -> R {
        guard let step, depth == 0, asyncStep == nil else { return try body() }
        let outerContainer = containerReference
        asyncStep = step
        containerReference = threadContainer ?? .passUnretained(step.container)
        depthLimit = Resolver.maximumDepth - step.depth
        defer {
            asyncStep = nil
            containerReference = outerContainer
            depthLimit = Resolver.maximumDepth
            clearSeam()
        }
        return try body()
    }

    /// Enters a frame whose factory runs in `container`.
    @inline(__always)
    func enter(_ frame: Frame, in container: Resolver) {
        enter(frame, in: .passUnretained(container))
    }

    /// Enters a frame whose factory runs in `container`, which the resolution holds.
    @inline(__always)
    func enter(_ frame: Frame, in container: Unmanaged<Resolver>) {
        if depth == frameCapacity { growFrames() }
        (frames + depth).initialize(to: frame)
        frames[depth].outerContainer = containerReference
        depth += 1
        containerReference = container
    }

    /// How many keys the path of a failure that starts here holds before its own: this thread's
    /// frames, and the async builds around them (inside an async factory). The same once the
    /// failure has unwound to here.
    var pathDepth: Int {
        let step = asyncStep ?? (depth == 0 ? Resolver.binding?.asyncStep : nil)
        return depth + (step?.depth ?? 0)
    }

    /// Leaves the frame of a transient build, the outermost frame running the `initCompleted` steps
    /// queued in it first.
    @inline(never)
    func leaveTransient() throws(ResolutionError) {
        defer { leave() }
        if depth == 1 && !pendingCompletions.isEmpty { try runPendingCompletions() }
    }

    /// Leaves the innermost frame, restoring the container of the one outside it. A top-level
    /// frame ends its `.graph` scope.
    @inline(__always)
    func leave() {
        depth -= 1
        containerReference = (frames + depth).move().outerContainer
        if depth == 0 && (touchesGraph || holdsLeftovers || seamBinding != nil) { endTopLevel() }
    }

    /// Releases `items` when the top-level resolution ends (now, outside one).
    func releaseAtEnd(_ items: inout Leftovers) {
        guard depth > 0 else { return items.release() }
        leftovers.take(&items)
    }

    /// Ends a top-level resolution: its `.graph` scope, then what its stores let go.
    @inline(never)
    private func endTopLevel() {
        if touchesGraph { endGraphScope() }
        clearSeam()
        releaseLeftovers()
    }

    /// Releases what the stores let go during the top-level resolution.
    private func releaseLeftovers() {
        guard holdsLeftovers else { return }
        var items = Leftovers()
        items.take(&leftovers)
        items.release()  // a deinitializer that resolves starts a top-level resolution of its own
    }

    @inline(never)
    private func growFrames() {
        let larger = UnsafeMutablePointer<Frame>.allocate(capacity: frameCapacity * 2)
        larger.moveInitialize(from: frames, count: depth)
        frames.deallocate()
        frames = larger
        frameCapacity *= 2
    }

    /// Notes that the innermost frame resolves `key` next; true when its registration has not
    /// been seen resolving it before (a new edge of the dependency graph). Read lock held.
    @inline(__always)
    func isNewDependency(_ key: Key) -> Bool {
        guard depth > 0 else { return false }
        let position = frames[depth - 1].resolvedDependencies
        frames[depth - 1].resolvedDependencies = position + 1
        return !frames[depth - 1].provider.knowsDependency(key, expectedAt: position)
    }

    // MARK: The stack

    /// The stack a level needs at least: Syringe's frames and a factory's, and building the
    /// message of a failure, in an unoptimized, instrumented build.
    static let stackMargin: UInt = 96 << 10

    /// Whether less than ``stackMargin`` of this thread's stack is left. An address outside the
    /// known stack (a sanitizer's fake stack, or an unknown stack: `stackLow` is 0) is never short.
    @inline(__always)
    var isShortOfStack: Bool {
        var marker: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return address &- stackLow < Self.stackMargin
    }

    // MARK: `.graph` instances

    /// Keeps a `.graph` instance in the current top-level resolution, unless another thread (a
    /// lazy wrapper's first read, or a task of an async resolution) kept one first; returns the
    /// one kept.
    func keepInGraph(_ instance: AnyKept, for store: AnyObject) -> AnyKept {
        // Only a class instance is shared, as in Resolver and Swinject: a value is built anew.
        guard instance.object != nil else { return instance }
        guard let step = asyncStep else {
            touchesGraph = true
            return graph.keep(instance, for: store)
        }
        return step.graphScope.keep(instance, for: store)
    }

    /// The `.graph` instance of `store` in the current top-level resolution, if one was built.
    func graphInstance(for store: AnyObject) -> AnyKept? {
        (asyncStep?.graphScope ?? graph).instance(for: store)
    }

    /// Ends a top-level resolution's `.graph` scope: emptied when nothing else keeps it, else
    /// retired (held weakly) and replaced, for the lazy wrappers that keep it.
    private func endGraphScope() {
        touchesGraph = false
        if borrowsGraph { return }
        if isKnownUniquelyReferenced(&graph) {
            graph.empty()
        } else {
            let retired = graph
            graph = GraphScope()
            retired.retire()
        }
    }

    /// The `.graph` scope of the resolution in progress, for a lazy wrapper made in it; nil
    /// outside resolutions.
    func graphScopeForLazyWrapper() -> GraphScope? {
        // In an async resolution: inside a synchronous resolution it makes, or in a factory's body.
        if let step = asyncStep ?? (depth == 0 ? Resolver.binding?.asyncStep : nil) { return step.graphScope }
        guard depth > 0 else { return nil }
        touchesGraph = true
        return graph
    }

    /// Runs `body` with `scope` as the `.graph` scope: a lazy wrapper's first read, outside any
    /// resolution, sees the instances of the resolution that created it. The scope is shared by the
    /// resolution's other lazy wrappers, whose first reads may run at the same time on other
    /// threads: what they keep in it, the first kept of each registration is everyone's. The read
    /// never ends the scope: the resolution that made it does (it may still run), and what is kept
    /// after that is held weakly.
    func withGraphScope<R>(_ scope: GraphScope?, _ body: () -> R) -> R {
        guard let scope, depth == 0, asyncStep == nil else { return body() }
        let outer = graph
        (graph, borrowsGraph) = (scope, true)
        defer { (graph, borrowsGraph) = (outer, false) }
        return body()
    }

    // MARK: The calling thread's state

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<Resolution>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<Resolution>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "Syringe: could not create a thread-local key (\(status))")
        return key
    }()

    private static let stripes = Lock()
    nonisolated(unsafe) private static var nextStripe = 0

    /// The calling thread's state, created on first use and released when the thread ends.
    @inline(__always)
    static var current: Resolution {
        if let pointer = pthread_getspecific(slot) {
            return Unmanaged<Resolution>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeCurrent()
    }

    /// The calling thread's state, if it has one.
    static var existing: Resolution? {
        pthread_getspecific(slot).map { Unmanaged<Resolution>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body` with the calling thread's state, which the thread keeps alive: it is handed on
    /// without reference counting (callgrind, a static resolution of a cached singleton: 783
    /// instructions retained, 730 without).
    @inline(__always)
    static func withCurrent<R>(_ body: (Resolution) -> R) -> R {
        let pointer = pthread_getspecific(slot) ?? Unmanaged.passUnretained(makeCurrent()).toOpaque()
        return Unmanaged<Resolution>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    @inline(never)
    private static func makeCurrent() -> Resolution {
        let stripe = stripes.withLock {
            defer { nextStripe = (nextStripe + 1) % StripedLock.stripeCount }
            return nextStripe
        }
        let resolution = Resolution(stripe: stripe)
        pthread_setspecific(slot, Unmanaged.passRetained(resolution).toOpaque())
        return resolution
    }
}

/// What ``Resolution/registrationFacts(of:)`` remembers of a type.
struct TypeFacts {
    var address: UInt = 0
    var isMarked = false
    var provider: AnyProvider.Type?
}

/// The `.graph` instances of one top-level resolution.
///
/// While the resolution runs they are held strongly, so that everything it builds shares them.
/// A lazy wrapper created during the resolution keeps the scope, so that its first read, later,
/// finds the instances of the resolution that created it: once the resolution ended, a scope
/// such a wrapper keeps holds its instances weakly. The lazy wrappers of one resolution share its
/// scope, and the tasks of an async resolution share theirs, so every access takes the lock;
/// what an access lets go is released after it.
final class GraphScope: @unchecked Sendable {
    // Unchecked Sendable: the entries are guarded by `lock`.
    struct Entry {
        /// The store, kept so that its identity (the entry's key) is not reused meanwhile.
        let store: AnyObject
        var instance: AnyKept?
        /// Once retired: the instance, held weakly, and how to box it again.
        weak var object: AnyObject?
        var boxType: AnyKept.Type?
    }

    /// The lock of every scope, and of an async resolution's making of its own
    /// (``AsyncStep/graphScope``).
    static let lock = Lock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Whether what is kept from now on is held weakly: once the resolution that made the scope
    /// ended, a lazy wrapper's first read, or a task an async factory started, may still keep in it.
    private var keepsWeakly: Bool

    init(keepingWeakly: Bool = false) {
        keepsWeakly = keepingWeakly
    }

    func instance(for store: AnyObject) -> AnyKept? {
        Self.lock.withLock { instanceLocked(for: store) }
    }

    private func instanceLocked(for store: AnyObject) -> AnyKept? {
        guard let entry = entries[ObjectIdentifier(store)] else { return nil }
        if let instance = entry.instance { return instance }
        guard let object = entry.object, let boxType = entry.boxType else { return nil }
        return boxType.rebox(object)
    }

    /// Keeps `instance` for `store` unless one is kept already; returns the one kept.
    func keep(_ instance: AnyKept, for store: AnyObject) -> AnyKept {
        var replaced: Entry?  // a retired entry whose instance is gone
        let kept = Self.lock.withLock { () -> AnyKept in
            if let existing = instanceLocked(for: store) { return existing }
            let entry =
                keepsWeakly
                ? Entry(store: store, object: instance.object, boxType: type(of: instance))
                : Entry(store: store, instance: instance)
            replaced = entries.updateValue(entry, forKey: ObjectIdentifier(store))
            return instance
        }
        withExtendedLifetime(replaced) {}
        return kept
    }

    /// Lets go of the instances once the scope is empty: a deinitializer that resolves starts a
    /// top-level resolution of its own, with this scope.
    func empty() {
        var released: [ObjectIdentifier: Entry] = [:]
        Self.lock.withLock { swap(&released, &entries) }
        withExtendedLifetime(released) {}
    }

    /// Ends the resolution's hold: what a lazy wrapper may still ask for is kept weakly, and so is
    /// what is kept later. The instances are let go after the lock, for the same reason as in
    /// ``empty()``.
    func retire() {
        let held = Self.lock.withLock { () -> [ObjectIdentifier: Entry] in
            keepsWeakly = true
            let held = entries
            for (id, entry) in held {
                guard let instance = entry.instance else { continue }
                entries[id] = instance.object.map { Entry(store: entry.store, object: $0, boxType: type(of: instance)) }
            }
            return held
        }
        withExtendedLifetime(held) {}
    }
}

/// Runs `body` as main-actor code, from nonisolated code that has checked it runs on the main
/// actor: through `MainActor.assumeIsolated`, or, on a `verify()` worker that holds the main actor
/// for its caller (``VerificationRun/lendsMainActor``), directly.
///
/// Sound because that caller is main-actor code blocked until the worker ends: no other main-actor
/// code runs meanwhile, and the caller's wait orders the worker's accesses before its own. Code in
/// `body` that checks the thread it runs on (`MainActor.assumeIsolated`) sees the worker.
func runAsMainActor(_ body: @MainActor () throws -> Void) rethrows {
    guard Resolution.current.verification?.lendsMainActor == true else { return try MainActor.assumeIsolated(body) }
    // The isolation is dropped for a caller that holds the main actor in all but the thread.
    try withoutActuallyEscaping(body) { body in try unsafeBitCast(body, to: (() throws -> Void).self)() }
}

/// Where the lowest address of the calling thread's stack is, or 0 when it cannot be known.
func currentStackLow() -> UInt {
    #if canImport(Darwin)
        let thread = pthread_self()
        let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        let size = UInt(pthread_get_stacksize_np(thread))
        return top > size ? top - size : 0
    #else
        var attributes = pthread_attr_t()
        guard threadAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return 0 }
        return UInt(bitPattern: address)
    #endif
}

#if !canImport(Darwin)
    /// glibc's and musl's `pthread_getattr_np`, which the C module does not import.
    @_silgen_name("pthread_getattr_np")
    private func threadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
#endif
