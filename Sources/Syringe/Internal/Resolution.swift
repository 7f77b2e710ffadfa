#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// One of the three files with unsafe constructs: the thread-local slot holds the thread's state
// through `Unmanaged` (pthread keys store raw pointers), the stack check reads the address of a
// local, and a `verify()` worker that holds the main actor for its caller runs main-actor code
// through `unsafeBitCast` (``runAsMainActor(_:)``).

/// One step of a resolution path: what was asked for, the registration building it, and where.
struct Frame {
    let key: Key
    /// The registration being built: a frame with the same one further out is a cycle.
    let provider: AnyProvider
    let site: SourceLocation?
    /// How many dependencies the frame has resolved so far: where the next one is expected in the
    /// registration's recorded dependencies.
    var resolvedDependencies = 0
}

/// The state of the resolution in progress on one thread: the value the resolution path
/// carries from one level to the next.
///
/// Everything one top-level `resolve()` builds runs on the calling thread, so one object per
/// thread holds it, reused from one resolution to the next: the frames of the path (for cycles
/// and messages), the `.graph` instances, the `initCompleted` steps still to run and the
/// instances waiting for them, and what the caller's isolation is.
final class Resolution {
    /// The stripe of ``registryLock`` this thread reads with.
    let stripe: Int
    /// The frames of the path, outermost first.
    private(set) var frames: [Frame] = []
    /// The container static calls use here: the innermost factory's, or a `withContainer`
    /// body's on this thread; nil outside both.
    var container: Resolver?
    /// `.graph` instances of the current top-level resolution.
    private(set) var graph = GraphScope()
    /// `initCompleted` steps to run before the outermost resolution returns.
    var pendingCompletions: [PendingCompletion] = []
    /// Instances whose `initCompleted` step has not run yet, by store: only this thread sees them.
    var provisional: [ObjectIdentifier: Any] = [:]
    /// Whether the resolve call in progress was made from main-actor-isolated code.
    var callerIsOnMainActor = false
    /// Whether this thread is running `registerAllServices()`.
    var isBootstrapping = false
    /// The `verify()` run this thread works for: where the program would stop, the run records
    /// the failure instead.
    var verification: VerificationRun?
    /// The thread's stack: its lowest address (tests move it) and the system's thread id, for the
    /// stack check and messages.
    var stackLow = currentStackLow()
    let systemThreadID = currentThreadID()

    private init(stripe: Int) {
        self.stripe = stripe
    }

    var depth: Int { frames.count }
    var path: [Key] { frames.map(\.key) }

    /// Whether `provider` is being built by a frame of this path (a dependency cycle).
    func isBuilding(_ provider: AnyProvider) -> Bool {
        frames.contains { $0.provider === provider }
    }

    /// Enters a frame whose factory runs in `container`; returns what ``leave(restoring:)`` needs.
    @inline(__always)
    func enter(_ frame: Frame, in container: Resolver) -> Resolver? {
        frames.append(frame)
        defer { self.container = container }
        return self.container
    }

    /// Leaves the innermost frame, restoring the container of the one outside it. A top-level
    /// frame ends its `.graph` scope.
    @inline(__always)
    func leave(restoring outer: Resolver?) {
        frames.removeLast()
        container = outer
        if frames.isEmpty && graph.isTouched { endGraphScope() }
    }

    /// Notes that the innermost frame resolves `key` next; true when its registration has not
    /// been seen resolving it before (a new edge of the dependency graph). Read lock held.
    @inline(__always)
    func isNewDependency(_ key: Key) -> Bool {
        guard !frames.isEmpty else { return false }
        let position = frames[frames.count - 1].resolvedDependencies
        frames[frames.count - 1].resolvedDependencies = position + 1
        return !frames[frames.count - 1].provider.knowsDependency(key, expectedAt: position)
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

    func keepInGraph(_ value: Any, for store: AnyObject) {
        graph.keep(value, for: store)
    }

    /// Ends a top-level resolution's `.graph` scope: emptied when nothing else keeps it, else
    /// retired (held weakly) and replaced, for the lazy wrappers that keep it.
    private func endGraphScope() {
        if isKnownUniquelyReferenced(&graph) {
            graph.empty()
        } else {
            graph.retire()
            graph = GraphScope()
        }
    }

    /// The `.graph` scope of the resolution in progress, for a lazy wrapper made in it; nil
    /// outside resolutions.
    func graphScopeForLazyWrapper() -> GraphScope? {
        guard !frames.isEmpty else { return nil }
        graph.isTouched = true
        return graph
    }

    /// Runs `body` with `scope` as the `.graph` scope: a lazy wrapper's first read, outside any
    /// resolution, sees the instances of the resolution that created it.
    func withGraphScope<R>(_ scope: GraphScope?, _ body: () -> R) -> R {
        guard let scope, frames.isEmpty else { return body() }
        let outer = graph
        graph = scope
        defer {
            graph.retire()
            graph = outer
        }
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

/// The `.graph` instances of one top-level resolution.
///
/// While the resolution runs they are held strongly, so that everything it builds shares them.
/// A lazy wrapper created during the resolution keeps the scope, so that its first read, later,
/// finds the instances of the resolution that created it: once the resolution ended, a scope
/// such a wrapper keeps holds its instances weakly. Only the thread running the resolution (or
/// reading the wrapper) touches a scope.
final class GraphScope {
    private struct Entry {
        /// The store, kept so that its identity (the entry's key) is not reused meanwhile.
        let store: AnyObject
        var value: Any?
        weak var object: AnyObject?
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Whether the resolution kept an instance here, or let a lazy wrapper keep the scope.
    var isTouched = false

    func instance(for store: AnyObject) -> Any? {
        guard let entry = entries[ObjectIdentifier(store)] else { return nil }
        return entry.value ?? entry.object
    }

    func keep(_ value: Any, for store: AnyObject) {
        entries[ObjectIdentifier(store)] = Entry(store: store, value: value)
        isTouched = true
    }

    func empty() {
        entries.removeAll()
        isTouched = false
    }

    /// Ends the resolution's hold: what a lazy wrapper may still ask for is kept weakly.
    func retire() {
        for (id, entry) in entries {
            guard let value = entry.value else { continue }
            entries[id] = classInstance(of: value).map { Entry(store: entry.store, object: $0) }
        }
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
