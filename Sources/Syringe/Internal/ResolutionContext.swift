#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One step of a resolution in progress: what was asked for, and where.
struct Frame {
    let key: Key
    /// The registration being built, to tell a real cycle from a legitimate
    /// resolution of the same key in another container. The resolution keeps it alive.
    unowned(unsafe) let provider: AnyBinding
    /// Where it was asked for (a resolve call, a property wrapper), when known.
    let site: SourceLocation?
    /// How many dependencies this frame has resolved so far: the index where the next one
    /// is expected in the provider's recorded dependencies.
    var resolvedDependencies = 0
}

/// Per-thread state: the thread's lock stripe and the resolution it is running.
///
/// Factories are synchronous, so everything one top-level `resolve()` builds runs on
/// the calling thread; the stack of frames gives the resolution path for messages and
/// cycle detection, and the graph cache gives `.graph` its one-instance-per-resolution
/// meaning.
final class ThreadState {
    let stripe: Int
    /// The frames of the resolution path, outermost first: `depth` of them are initialized.
    /// Manually allocated so that pushing and popping a frame does no bookkeeping.
    @exclusivity(unchecked) private(set) var frameBuffer: UnsafeMutablePointer<Frame>
    @exclusivity(unchecked) private var frameCapacity = 16
    /// How many resolutions are in progress on this thread.
    @exclusivity(unchecked) private(set) var depth = 0
    /// The container of the innermost resolution in progress; nil outside resolutions.
    /// Unretained: the resolution in progress keeps it alive.
    @exclusivity(unchecked) var containerReference: Unmanaged<Resolver>?

    /// The container of the innermost resolution in progress; nil outside resolutions.
    var container: Resolver? { containerReference?.takeUnretainedValue() }
    /// `.graph` instances of the current top-level resolution.
    @exclusivity(unchecked) var graph = GraphScope()
    /// Whether the current top-level resolution used its `.graph` scope (kept an instance in
    /// it, or let a lazy wrapper keep it), so that a resolution that did not pays nothing.
    @exclusivity(unchecked) var graphTouched = false
    /// Whether this thread is running `registerAllServices()`.
    @exclusivity(unchecked) var isBootstrapping = false
    /// Whether the resolve call in progress was made from main-actor-isolated code.
    @exclusivity(unchecked) var callerIsOnMainActor = false
    /// Instances whose `initCompleted` step has not run yet, by the store they will be
    /// published in: until then only this thread sees them.
    @exclusivity(unchecked) var provisional: [ObjectIdentifier: Any] = [:]
    /// The `initCompleted` steps to run before the outermost resolution returns.
    @exclusivity(unchecked) var pendingCompletions: [PendingCompletion] = []
    /// The lowest address of the stack of the thread running this state's resolution (0 if
    /// unknown), for ``StackGuard``.
    @exclusivity(unchecked) var stackLow = StackGuard.currentStackLow()
    /// The system's id of the thread running this state's resolution, for messages.
    @exclusivity(unchecked) var systemThreadID = currentThreadID()
    /// The `verify()` run this thread works for, if it does: where the program would stop, the
    /// run records the failure instead (see ``VerificationRun``).
    @exclusivity(unchecked) var verification: VerificationRun?
    /// The thread that made this state (``lend(_:_:)`` lends it to others).
    private let ownerThread = pthread_self()

    private init(stripe: Int) {
        self.stripe = stripe
        frameBuffer = .allocate(capacity: frameCapacity)
    }

    deinit {
        frameBuffer.deinitialize(count: depth)
        frameBuffer.deallocate()
    }

    /// The frames in progress, outermost first.
    var frames: UnsafeMutableBufferPointer<Frame> { UnsafeMutableBufferPointer(start: frameBuffer, count: depth) }

    /// The innermost frame, if a resolution is in progress.
    var innermostFrame: Frame? { depth == 0 ? nil : frameBuffer[depth - 1] }

    @inline(__always)
    func push(_ frame: Frame) {
        if _slowPath(depth == frameCapacity) { growFrames() }
        (frameBuffer + depth).initialize(to: frame)
        depth += 1
    }

    @inline(__always)
    func pop() {
        depth -= 1
        (frameBuffer + depth).deinitialize(count: 1)
    }

    @inline(never)
    private func growFrames() {
        let larger = UnsafeMutablePointer<Frame>.allocate(capacity: frameCapacity * 2)
        larger.moveInitialize(from: frameBuffer, count: depth)
        frameBuffer.deallocate()
        frameBuffer = larger
        frameCapacity *= 2
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<ThreadState>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<ThreadState>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "Syringe: could not create a thread-local key (\(status))")
        return key
    }()

    private static let counterLock = Lock()
    nonisolated(unsafe) private static var nextStripe = 0

    /// The calling thread's state, created on first use.
    @inline(__always)
    static var current: ThreadState {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        return makeCurrent()
    }

    /// Runs `body` with the calling thread's state, without retaining it (the thread keeps it).
    @inline(__always)
    static func withCurrent<R>(_ body: (ThreadState) throws -> R) rethrows -> R {
        let pointer = pthread_getspecific(key) ?? Unmanaged.passUnretained(makeCurrent()).toOpaque()
        return try Unmanaged<ThreadState>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    @inline(never)
    private static func makeCurrent() -> ThreadState {
        let stripe = counterLock.withLock {
            defer { nextStripe = (nextStripe + 1) % StripedLock.stripeCount }
            return nextStripe
        }
        let state = ThreadState(stripe: stripe)
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    /// Makes `state` the calling thread's state while `body` runs: the thread continues a
    /// resolution of the thread that owns `state`, which waits for it meanwhile.
    static func lend(_ state: ThreadState, _ body: () -> Void) {
        let (ownerStackLow, ownerThreadID) = (state.stackLow, state.systemThreadID)
        state.stackLow = StackGuard.currentStackLow()
        state.systemThreadID = currentThreadID()
        pthread_setspecific(key, Unmanaged.passUnretained(state).toOpaque())
        body()
        pthread_setspecific(key, nil)
        (state.stackLow, state.systemThreadID) = (ownerStackLow, ownerThreadID)
    }

    /// Ends the calling thread without returning to any of its callers: a `verify()` worker
    /// whose build reached a point where the program would stop. A thread running a lent state
    /// gives it back first (the owner, which waits for it, ends too: ``StackGuard``).
    static func endThread() -> Never {
        let state = current
        if pthread_equal(state.ownerThread, pthread_self()) == 0 {
            pthread_setspecific(key, nil)
        }
        pthread_exit(nil)
    }

    /// The keys of the frames, outermost first, for messages.
    var path: [Key] { frames.map(\.key) }

    /// Whether `provider` is being built by a frame in progress (a dependency cycle).
    func isBuilding(_ provider: AnyBinding) -> Bool {
        var index = 0
        while index < depth {
            if frameBuffer[index].provider === provider { return true }
            index &+= 1
        }
        return false
    }
}
