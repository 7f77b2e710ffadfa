#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-recursive pthread mutex.
///
/// Syringe uses pthread primitives rather than `Synchronization.Mutex` so that the
/// library runs on every declared platform and stays clean under the thread sanitizer.
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    package func lock() { pthread_mutex_lock(mutex) }

    @inline(__always)
    package func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A mutex paired with a condition variable, for threads that wait on one another.
final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
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
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for a broadcast; the caller holds the lock.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a broadcast until `deadline` (of ``monotonicNanoseconds()``); the caller holds
    /// the lock. Returns false when the deadline passed first. The thread sleeps meanwhile.
    func wait(until deadline: UInt64) -> Bool {
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

/// A reader/writer lock made of one padded mutex per stripe.
///
/// A reader locks only the stripe its thread was given, so readers on different
/// cores never write to a shared cache line; a writer locks every stripe in order.
/// Reads are the resolutions (frequent), writes are registrations and cache updates
/// (rare). No user code ever runs while a stripe is held.
final class StripedLock: @unchecked Sendable {
    static let stripeCount = 16
    /// Bytes between two mutexes: two cache lines, so neighbours never share one.
    private static let stride = 128

    private let base: UnsafeMutableRawPointer

    init() {
        base = .allocate(byteCount: Self.stripeCount * Self.stride, alignment: Self.stride)
        for index in 0..<Self.stripeCount {
            let mutex = mutexPointer(index)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
    }

    deinit {
        for index in 0..<Self.stripeCount {
            pthread_mutex_destroy(mutexPointer(index))
        }
        base.deallocate()
    }

    @inline(__always)
    private func mutexPointer(_ index: Int) -> UnsafeMutablePointer<pthread_mutex_t> {
        (base + index &* Self.stride).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    @inline(__always)
    func lockRead(stripe: Int) { pthread_mutex_lock(mutexPointer(stripe)) }

    @inline(__always)
    func unlockRead(stripe: Int) { pthread_mutex_unlock(mutexPointer(stripe)) }

    func lockWrite() {
        for index in 0..<Self.stripeCount { pthread_mutex_lock(mutexPointer(index)) }
    }

    func unlockWrite() {
        for index in (0..<Self.stripeCount).reversed() { pthread_mutex_unlock(mutexPointer(index)) }
    }
}

extension StripedLock {
    @inline(__always)
    func withReadLock<R>(_ stripe: Int, _ body: () throws -> R) rethrows -> R {
        lockRead(stripe: stripe)
        defer { unlockRead(stripe: stripe) }
        return try body()
    }

    func withWriteLock<R>(_ body: () throws -> R) rethrows -> R {
        lockWrite()
        defer { unlockWrite() }
        return try body()
    }

    /// Runs `body` under the write lock; whatever it puts in the leftovers is released after
    /// the lock, so that no deinitializer of a removed instance, factory or registration runs
    /// under it.
    func withWriteLock<R>(_ body: (inout Leftovers) throws -> R) rethrows -> R {
        var leftovers = Leftovers()
        let result: R
        do {
            lockWrite()
            defer { unlockWrite() }
            result = try body(&leftovers)
        }
        leftovers.release()
        return result
    }
}

/// What a locked section removed, to be released once the lock is gone.
///
/// Swift ends a value's lifetime at its last use, so "keep it in a local until after the
/// unlock" is not enough in optimized builds: the optimizer may release it early. The
/// leftovers are released by a call that cannot be moved before the unlock.
struct Leftovers {
    private var items: [Any] = []

    /// Keeps `item` until ``release()``.
    mutating func append(_ item: Any?) {
        if let item { items.append(item) }
    }

    /// Releases everything kept. Call after unlocking.
    func release() {
        withExtendedLifetime(items) {}
        Leftovers.discard(items)
    }

    /// Not inlined and not optimized, so the releases happen here and nowhere earlier.
    @inline(never) @_optimize(none)
    private static func discard(_ items: consuming [Any]) {
        _ = consume items
    }
}

/// The one lock guarding every registry, cache and the static container state.
/// Held only for lookups and bookkeeping, never while user code runs.
let registryLock = StripedLock()
