#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a deep resolution from running off the end of its thread's stack.
///
/// Every level of a resolution path costs stack: Syringe's frames and the factory's. A
/// secondary thread on Apple platforms has 512 KiB, which a chain of a few dozen levels can
/// use up in a debug build. Before a level's factory runs, the stack left on the calling
/// thread is compared with ``margin``; when less is left, the factory (and so the rest of
/// that build) runs on a new thread with a large stack while the calling thread waits for
/// it. The new thread uses the
/// caller's ``ThreadState`` meanwhile, so the resolution path (cycle detection, messages),
/// `.graph` instances and the identity that coordinates cached builds carry over: to the rest
/// of Syringe it is the same thread. How deep a resolution may go is thus set by
/// ``Resolver/maximumDepth`` alone, whatever a level costs.
///
/// Work that must stay on the main thread cannot move: there, a short stack ends the
/// resolution with the too-deep error instead.
enum StackGuard {
    /// The stack a level needs at least: a factory with large locals and several levels of
    /// Syringe's frames in an unoptimized, instrumented build.
    static let margin: UInt = 128 << 10

    /// The stack of a thread that continues a resolution: room for ``Resolver/maximumDepth``
    /// levels of an unoptimized build.
    static let continuationStackSize = 8 << 20

    /// Whether the calling thread, whose state is `state`, has less than ``margin`` of stack left.
    ///
    /// One subtraction and one comparison (the local's address is taken without a stack
    /// protector, which would cost every caller). An address outside the known stack (a
    /// sanitizer's fake stack, or a thread whose stack is unknown: `stackLow` is 0) never
    /// counts as short.
    @inline(__always)
    static func isShort(_ state: ThreadState) -> Bool {
        var marker: UInt8 = 0
        let address = _withUnprotectedUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return address &- state.stackLow < margin
    }

    /// The lowest address of the calling thread's stack, or 0 when it cannot be known.
    static func currentStackLow() -> UInt {
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

    /// Runs `body`, the factory of the innermost frame of `state`'s resolution: here, or on a
    /// new thread with a large stack (as the calling thread, which waits for it) when less than
    /// ``margin`` of this thread's stack is left.
    @inline(__always)
    static func run<T>(_ body: () throws(ResolutionError) -> T, state: ThreadState) throws(ResolutionError) -> T {
        if _slowPath(isShort(state)) { return try runOnLargerStack(body, state: state) }
        return try body()
    }

    /// Runs `body` on a new thread with a large stack, as the calling thread, which waits for
    /// it; its result or error is handed back.
    ///
    /// On the main thread, or for a caller isolated to the main actor, the work cannot move (a
    /// main-actor factory further down must run there): the too-deep error is thrown instead.
    /// Where no thread can be created, `body` runs here.
    @inline(never)
    static func runOnLargerStack<T>(
        _ body: () throws(ResolutionError) -> T, state: ThreadState
    ) throws(ResolutionError) -> T {
        // A `verify()` worker holding the main actor for its caller may move: the new thread
        // holds it the same way (it uses this state), and both wait meanwhile.
        let holdsLentMainActor = state.verification?.lendsMainActor == true
        if (state.callerIsOnMainActor && !holdsLentMainActor) || isMainThread(), let frame = state.innermostFrame,
            let container = state.container
        {
            throw ResolutionError(.tooDeep, key: frame.key, path: state.path, container: container, site: frame.site)
        }
        var outcome: Result<T, ResolutionError>?
        let moved = withoutActuallyEscaping(body) { body in
            let moved = runOnNewThread(stackSize: continuationStackSize) {
                ThreadState.lend(state) { outcome = Result { () throws(ResolutionError) -> T in try body() } }
            }
            if moved, outcome == nil, state.verification != nil {
                // The thread ended without an outcome: a `verify()` worker's build reached a point
                // where the program would stop, and this thread, waiting for it, ends too. (Here,
                // before the ended thread's hold on `body` would count as an escape.)
                ThreadState.endThread()
            }
            return moved
        }
        guard moved, let outcome else { return try body() }
        return try outcome.get()
    }
}

#if !canImport(Darwin)
    /// glibc's and musl's `pthread_getattr_np`, which the C module does not import: the
    /// attributes of a running thread, its stack's place and size among them.
    @_silgen_name("pthread_getattr_np")
    private func threadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
#endif

/// Runs `work` on a new thread with a stack of `stackSize` bytes and waits until the thread
/// ends (`work` returned, or the thread ended itself); false if no thread could be created
/// (the work did not run).
func runOnNewThread(stackSize: Int, _ work: @escaping () -> Void) -> Bool {
    final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    let context = Unmanaged.passRetained(Work(work)).toOpaque()
    #if canImport(Darwin)
        var thread: pthread_t?
        let status = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, context)
    #else
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
    #endif
    guard status == 0 else {
        Unmanaged<Work>.fromOpaque(context).release()
        return false
    }
    #if canImport(Darwin)
        pthread_join(thread!, nil)
    #else
        pthread_join(thread, nil)
    #endif
    return true
}
