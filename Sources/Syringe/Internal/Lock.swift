#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// One of the three files with unsafe constructs: the pthread primitives. A pthread mutex must stay
// at one address, so each lock owns manually allocated memory for it; a new thread receives its work
// through a raw pointer. Syringe uses them rather than `Synchronization.Mutex` so that it runs on
// every declared platform and stays clean under the thread sanitizer (which reports every contended
// `Mutex`).

/// A non-recursive mutex.
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A mutex with a condition variable, for threads that wait for one another's builds.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Darwin)
            pthread_cond_init(condition, nil)
        #else
            // Timed waits measure against the monotonic clock, which setting the time does not move.
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a broadcast, or until `deadline` (of ``monotonicNanoseconds()``) when given;
    /// false when the deadline passed first. Called inside ``withLock(_:)``.
    func wait(until deadline: UInt64?) -> Bool {
        guard let deadline else {
            pthread_cond_wait(condition, mutex)
            return true
        }
        #if canImport(Darwin)
            let now = monotonicNanoseconds()
            guard deadline > now else { return false }
            var relative = timespec(deadline - now)
            return pthread_cond_timedwait_relative_np(condition, mutex, &relative) != ETIMEDOUT
        #else
            var absolute = timespec(deadline)
            return pthread_cond_timedwait(condition, mutex, &absolute) != ETIMEDOUT
        #endif
    }

    /// Wakes every waiter. Called inside ``withLock(_:)``.
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// Nanoseconds of the monotonic clock, which setting the time does not move.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

extension timespec {
    fileprivate init(_ nanoseconds: UInt64) {
        self.init(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}

/// A reader/writer lock made of one mutex per stripe, each on its own cache lines.
///
/// A reader locks the stripe its thread was given, so readers on different cores never write
/// to a shared cache line (two threads resolving a singleton scale); a writer locks every
/// stripe, except a registration into a registry that only one stripe's threads read, which locks
/// that stripe (``withWriteLock(excludingReadersOf:_:)``). Reads are resolutions (frequent), writes
/// are registrations and cache updates.
final class StripedLock: @unchecked Sendable {
    static let stripeCount = 8
    /// Bytes between two mutexes: two cache lines.
    private static let stride = 128
    private let base = UnsafeMutableRawPointer.allocate(
        byteCount: StripedLock.stripeCount * StripedLock.stride, alignment: StripedLock.stride)

    init() {
        for index in 0..<Self.stripeCount {
            mutex(index).initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex(index), nil)
        }
    }

    deinit {
        for index in 0..<Self.stripeCount { pthread_mutex_destroy(mutex(index)) }
        base.deallocate()
    }

    @inline(__always)
    private func mutex(_ index: Int) -> UnsafeMutablePointer<pthread_mutex_t> {
        (base + index &* Self.stride).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    @inline(__always)
    func withReadLock<R>(_ stripe: Int, _ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex(stripe))
        defer { pthread_mutex_unlock(mutex(stripe)) }
        return try body()
    }

    /// Runs `body` under the write lock; what it puts in the leftovers is released after the
    /// lock, so that no deinitializer of a replaced instance, factory or registration runs under it.
    func withWriteLock<R>(_ body: (inout Leftovers) throws -> R) rethrows -> R {
        var leftovers = Leftovers()
        let result: R
        do {
            for index in 0..<Self.stripeCount { pthread_mutex_lock(mutex(index)) }
            defer { for index in (0..<Self.stripeCount).reversed() { pthread_mutex_unlock(mutex(index)) } }
            result = try body(&leftovers)
        }
        leftovers.release()
        return result
    }

    /// Runs `body` under the lock that excludes every reader of `registry`: its owner's stripe
    /// while only threads of that stripe read it (``Registry/isShared``, which only the write lock
    /// sets, so the owner's stripe is enough to read it), else the write lock. What `body` puts in
    /// the leftovers is released after the lock.
    func withWriteLock<R>(excludingReadersOf registry: Registry, _ body: (inout Leftovers) throws -> R) rethrows -> R {
        let stripe = registry.ownerStripe
        pthread_mutex_lock(mutex(stripe))
        guard !registry.isShared else {
            pthread_mutex_unlock(mutex(stripe))
            return try withWriteLock(body)
        }
        var leftovers = Leftovers()
        let result: R
        do {
            defer { pthread_mutex_unlock(mutex(stripe)) }
            result = try body(&leftovers)
        }
        leftovers.release()
        return result
    }
}

/// What a locked section took out, to be released once the lock is gone.
///
/// The optimizer ends a value's lifetime at its last use, so keeping it in a local until after
/// the unlock is not enough: ``release()`` is a call that cannot move before the unlock.
struct Leftovers {
    private var items: [Any] = []

    /// Generic, so that nil is told before the item is made an `Any` (callgrind: 158 instructions
    /// a registration as `Any?`).
    mutating func append<Item>(_ item: Item?) {
        if let item { items.append(item) }
    }

    var isEmpty: Bool { items.isEmpty }

    /// Takes over what `other` holds, to be released later than it would be.
    mutating func take(_ other: inout Leftovers) {
        items += other.items
        other.items = []
    }

    /// Releases the items; inside a factory, when the thread's top-level resolution ends instead,
    /// or inside an async one, when the outermost async build ends (a deinitializer may resolve
    /// what is still being built, which would be taken for a cycle). Out of line: inlined, it
    /// lengthened a transient resolution (callgrind: 1,487 → 1,477 instructions).
    @inline(never)
    func release() {
        guard !items.isEmpty else { return }
        let resolution = Resolution.existing
        if let resolution, resolution.depth > 0 {
            var items = self
            return resolution.releaseAtEnd(&items)
        }
        if let step = resolution?.asyncStep ?? Resolver.binding?.asyncStep {
            return step.releaseAtEnd(self)
        }
        releaseNow()
    }

    /// Releases the items, wherever this thread is.
    func releaseNow() {
        Leftovers.discard(items)
    }

    @inline(never) @_optimize(none)
    private static func discard(_ items: consuming [Any]) {
        _ = consume items
    }
}

/// The one lock guarding every registry, cache and the static container state. Held only for
/// lookups and bookkeeping, never while user code runs.
let registryLock = StripedLock()

/// Runs `work` on a new thread with an 8 MiB stack and waits until the thread ends (`work` returned,
/// or the thread ended itself); false if no thread could be created. `verify()`'s workers are the
/// only threads Syringe starts.
func runOnNewThread(_ work: @escaping () -> Void) -> Bool {
    final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, 8 << 20)
    let context = Unmanaged.passRetained(Work(work)).toOpaque()
    #if canImport(Darwin)
        var thread: pthread_t?
        let status = pthread_create(
            &thread, &attributes,
            {
                Unmanaged<Work>.fromOpaque($0).takeRetainedValue().body()
                return nil
            }, context)
    #else
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            {
                Unmanaged<Work>.fromOpaque($0!).takeRetainedValue().body()
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

/// Writes `message` and a newline to standard error (a wait report).
func writeToStandardError(_ message: String) {
    var text = message + "\n"
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

/// The system's id of the calling thread: what debuggers and `top -H` show.
func currentThreadID() -> UInt64 {
    #if canImport(Darwin)
        var id: UInt64 = 0
        pthread_threadid_np(nil, &id)
        return id
    #else
        return UInt64(linuxThreadID())
    #endif
}

/// A running thread in messages: `thread 4242 "worker"`, or `thread 4242` when it has no name.
func threadLabel(_ thread: pthread_t, id: UInt64) -> String {
    #if canImport(Darwin)
        let number = "0x" + String(id, radix: 16)
    #else
        let number = String(id)
    #endif
    var buffer = [CChar](repeating: 0, count: 64)
    guard threadName(thread, &buffer, buffer.count) == 0 else { return "thread \(number)" }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? "thread \(number)" : "thread \(number) \"\(name)\""
}

#if canImport(Darwin)
    private func threadName(_ thread: pthread_t, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32 {
        pthread_getname_np(thread, buffer, size)
    }
#else
    /// glibc's and musl's `pthread_getname_np`, which the C module does not import.
    @_silgen_name("pthread_getname_np")
    private func threadName(_ thread: pthread_t, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32

    /// glibc's and musl's `gettid()`, which the C module does not import.
    @_silgen_name("gettid")
    func linuxThreadID() -> pid_t
#endif
