#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(Dispatch) && !canImport(Darwin)
    import Dispatch
#endif

/// Main-actor-bound registrations: how Syringe knows where it runs, and how it calls a
/// main-actor factory from its own nonisolated code.
///
/// A registration is main-actor-bound when its factory is isolated to the main actor: written
/// in main-actor code (a closure takes the isolation of the code around it), a `@MainActor`
/// function, or a `{ @MainActor in … }` closure. That is decided once, at registration, and
/// kept on the provider (``AnyBinding/isMainActorBound``); such a provider takes neither fast
/// path, so every resolution of it passes ``Resolver/requireMainActor(for:key:site:state:)``
/// and no other registration pays anything.
///
/// Whether a resolution runs on the main actor is known two ways, both sound:
/// - statically: the resolve entry points take `isolation: (any Actor)? = #isolation`, and
///   ``MainActorMark`` notes a main-actor caller for the length of the (synchronous) call;
/// - dynamically, where the compiler gives no isolation (a property wrapper in a stored
///   property's initializer, a nonisolated function called from main-actor code): the main
///   thread, or the main dispatch queue where the main actor runs on another thread (Linux
///   under an async runner). The runtime's own `MainActor.assumeIsolated` accepts exactly
///   these, so a factory called through it after this check never traps.
extension ThreadState {
    /// Whether the code running on this thread now is on the main actor.
    @inline(never)
    var isOnMainActor: Bool {
        callerIsOnMainActor || isMainThread() || isOnMainDispatchQueue()
    }
}

extension Resolver {
    /// Stops a resolution of a main-actor-bound registration that is not running on the main
    /// actor, with Syringe's message instead of running main-actor code elsewhere.
    @inline(never)
    func requireMainActor(
        for binding: AnyBinding, key: Key, site: SourceLocation?, state: ThreadState
    ) throws(ResolutionError) {
        if state.isOnMainActor { return }
        let error = ResolutionError(
            .offMainActor, key: key, path: state.path, container: self, site: site,
            suggestions: Messages.offMainActorSuggestions(registeredAt: binding.origin.site))
        // A `verify()` worker leaves it to the caller, on the main actor.
        state.stopIfVerifying(error)
        throw error
    }

    /// Runs `body` as code whose isolation is `isolation`: a main-actor-bound registration
    /// resolved inside it knows whether its caller is main-actor code. For entry points that
    /// take `isolation: (any Actor)? = #isolation` and resolve more than once (`resolveAll()`,
    /// `verify()`).
    func withCallerIsolation<R, E: Error>(_ isolation: (any Actor)?, _ body: () throws(E) -> R) throws(E) -> R {
        let mark = MainActorMark(isolation)
        defer { mark.end() }
        return try body()
    }
}

/// Whether the calling thread is the process's main thread (where the main actor runs on
/// Apple platforms, and in programs that have not suspended yet on Linux).
func isMainThread() -> Bool {
    #if canImport(Darwin)
        return pthread_main_np() != 0
    #else
        // On Linux the main thread's thread id is the process id.
        return getpid() == linuxThreadID()
    #endif
}

#if !canImport(Darwin)
    /// glibc's and musl's `gettid()` (Linux 2.4.11+), which the C module does not import.
    @_silgen_name("gettid")
    private func linuxThreadID() -> pid_t
#endif

/// Whether the calling code runs on the main dispatch queue: where the main actor runs once an
/// async program on Linux has suspended (its main thread is then gone). On Apple platforms the
/// main queue only ever runs on the main thread, which ``isMainThread()`` already tells.
func isOnMainDispatchQueue() -> Bool {
    #if canImport(Dispatch) && !canImport(Darwin)
        return DispatchQueue.getSpecific(key: MainQueueMark.key) != nil
    #else
        return false
    #endif
}

#if canImport(Dispatch) && !canImport(Darwin)
    /// A value set on the main dispatch queue only, so that code can tell it runs there.
    private enum MainQueueMark {
        static let key: DispatchSpecificKey<Bool> = {
            let key = DispatchSpecificKey<Bool>()
            DispatchQueue.main.setSpecific(key: key, value: true)
            return key
        }()
    }
#endif

/// Notes, for the length of a resolve call, that its caller is isolated to the main actor.
///
/// The resolve entry points take `isolation: (any Actor)? = #isolation`, so the compiler
/// tells them where they are called from; a main-actor-bound registration further down the
/// (synchronous) resolution reads the note. This works on every platform, also where the
/// main actor does not run on the process's main thread.
struct MainActorMark {
    private let state: ThreadState?
    private let previous: Bool

    @inline(__always)
    init(_ isolation: (any Actor)?) {
        guard let isolation, isolation === MainActor.shared else {
            state = nil
            previous = false
            return
        }
        let state = ThreadState.current
        self.state = state
        previous = state.callerIsOnMainActor
        state.callerIsOnMainActor = true
    }

    @inline(__always)
    func end() {
        state?.callerIsOnMainActor = previous
    }
}

/// Whether `isolation` is the main actor's.
func isMainActor(_ isolation: (any Actor)?) -> Bool {
    guard let isolation else { return false }
    return isolation === MainActor.shared
}

/// Calls a main-actor function from nonisolated code that has checked it runs on the main
/// actor (``ThreadState/isOnMainActor``). `MainActor.assumeIsolated` checks it again, so a
/// mistake here would stop the program rather than run the function elsewhere.
func callOnMainActor<T>(_ body: @MainActor () throws -> T) rethrows -> T {
    // Made and read on the main actor, in this synchronous call: the value crosses no isolation.
    nonisolated(unsafe) var result: T?
    try runAsMainActor { result = try body() }
    return result.unsafelyUnwrapped
}

/// Runs `body` as main-actor code, from nonisolated code that has checked it runs on the main
/// actor: through `MainActor.assumeIsolated`, or, on a `verify()` worker that holds the main
/// actor for its caller (``VerificationRun/lendsMainActor``), directly.
///
/// Sound because that caller is main-actor code blocked until the worker ends: no other
/// main-actor code runs meanwhile, and the caller's wait orders the worker's accesses before
/// its own. Code in `body` that checks the thread it runs on (`MainActor.assumeIsolated`,
/// `Thread.isMainThread`) sees the worker.
func runAsMainActor(_ body: @MainActor () throws -> Void) rethrows {
    if _slowPath(ThreadState.current.verification?.lendsMainActor == true) {
        try withoutActuallyEscaping(body) { body in
            try unsafeBitCast(body, to: (() throws -> Void).self)()
        }
        return
    }
    try MainActor.assumeIsolated(body)
}

/// The factory of a main-actor-bound registration taking runtime arguments `(repeat each A)`:
/// a ``PackArgumentFactory`` whose factory runs as main-actor code.
final class MainActorArgumentFactory<T, each A>: ArgumentFactory<T> {
    let body: @MainActor (repeat each A) throws -> T

    init(_ body: @escaping @MainActor (repeat each A) throws -> T) {
        self.body = body
    }

    override var acceptsNoArguments: Bool { acceptsNil((repeat each A).self) }

    override func make(_ resolver: Resolver, _ arguments: ArgumentValues) throws -> T {
        let body = self.body
        return try withArgumentTuple(arguments, as: (repeat each A).self) { pointer in
            // Read and used on the main actor, in this synchronous call.
            nonisolated(unsafe) let pointer = pointer
            nonisolated(unsafe) var result: T?
            try runAsMainActor {
                let values = pointer.pointee
                result = try body(repeat each values)
            }
            return result.unsafelyUnwrapped
        }
    }

    override func withConverted<R>(
        _ values: [Any], _ body: (ArgumentValues) throws(ResolutionError) -> R
    ) throws(ResolutionError) -> R? {
        try withConvertedTuple(values, as: (repeat each A).self, body)
    }
}
