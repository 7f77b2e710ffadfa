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

/// Main-actor-bound registrations: how Syringe knows where it runs, and how it calls a main-actor
/// factory from its own nonisolated code.
///
/// A registration is main-actor-bound when its factory is isolated to the main actor (written in
/// main-actor code, a `@MainActor` function, or a `{ @MainActor in … }` closure), decided once at
/// registration (``AnyProvider/isMainActorBound``); every resolution of it checks where it runs.
///
/// Whether a resolution runs on the main actor is known two ways, both sound:
/// - statically: the resolve entry points take `isolation: (any Actor)? = #isolation`, and
///   ``MainActorMark`` notes a main-actor caller for the length of the (synchronous) call;
/// - dynamically, where the compiler gives no isolation (a property wrapper in a stored property's
///   initializer): the main thread, or the main dispatch queue where the main actor runs on another
///   thread (Linux under an async runner). `MainActor.assumeIsolated` accepts exactly these, so a
///   factory called through it after this check never traps.
extension Resolution {
    /// Whether the code running on this thread now is on the main actor.
    var isOnMainActor: Bool {
        callerIsOnMainActor || isMainThread || isOnMainDispatchQueue()
    }
}

/// Whether the calling thread is the process's main thread (``Resolution/isMainThread`` keeps the
/// answer for each thread).
func isMainThread() -> Bool {
    #if canImport(Darwin)
        return pthread_main_np() != 0
    #else
        return getpid() == linuxThreadID()  // the main thread's id is the process id
    #endif
}

/// Whether the calling code runs on the main dispatch queue: where the main actor runs once an async
/// program on Linux has suspended. On Apple platforms that queue runs on the main thread only.
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

/// Notes, for the length of a resolve call, that its caller is isolated to the main actor: a
/// main-actor-bound registration further down the (synchronous) resolution reads the note.
struct MainActorMark {
    /// The note this mark replaced; nil when the caller is not on the main actor. The resolution
    /// is not kept here but passed to ``end(_:)``: keeping it counted a reference a resolve call
    /// from main-actor code.
    private let previous: Bool?

    @inline(__always)
    init(_ isolation: (any Actor)?, _ resolution: Resolution) {
        guard isMainActor(isolation) else {
            previous = nil
            return
        }
        previous = resolution.callerIsOnMainActor
        resolution.callerIsOnMainActor = true
    }

    /// Restores the note on `resolution`, the one the mark was made with.
    @inline(__always)
    func end(_ resolution: Resolution) {
        if let previous { resolution.callerIsOnMainActor = previous }
    }
}

/// Whether `isolation` is the main actor's.
@inline(__always)
func isMainActor(_ isolation: (any Actor)?) -> Bool {
    guard let isolation else { return false }
    return ObjectIdentifier(isolation) == mainActorIdentity
}

/// The main actor's identity, read once: each read of `MainActor.shared` is a call that makes sure
/// its static object is initialized and counts a reference to it.
private let mainActorIdentity = ObjectIdentifier(MainActor.shared)

/// Calls a main-actor function from nonisolated code that has checked it runs on the main actor
/// (``Resolution/isOnMainActor``). `MainActor.assumeIsolated` checks it again, so a mistake here
/// stops the program rather than run the function elsewhere.
func callOnMainActor<T>(_ body: @MainActor () throws -> T) rethrows -> T {
    // Made and read on the main actor, in this synchronous call: the value crosses no isolation.
    nonisolated(unsafe) var result: T?
    try runAsMainActor { result = try body() }
    return result!
}

/// The factory of a main-actor-bound registration with runtime arguments `(repeat each A)`.
final class MainActorArgumentFactory<T, each A>: ArgumentFactory<T> {
    let body: @MainActor (repeat each A) throws -> T

    init(_ body: @escaping @MainActor (repeat each A) throws -> T) {
        self.body = body
    }

    override var acceptsNoArguments: Bool { acceptsNil((repeat each A).self) }

    override func make(_ arguments: Any?) throws -> T {
        let body = self.body
        // Read and used on the main actor, in this synchronous call.
        nonisolated(unsafe) let arguments = arguments
        nonisolated(unsafe) var result: T?
        try runAsMainActor {
            let values = argumentTuple(arguments, as: (repeat each A).self)
            result = try body(repeat each values)
        }
        return result!
    }

    override func converted(_ values: [Any]) -> Any? {
        convertedTuple(values, as: (repeat each A).self)
    }
}
