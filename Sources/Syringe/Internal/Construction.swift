/// One store being filled: a registration's, or a test container's own copy of it. The
/// builder keeps the store alive while the cell is claimed, so its identity is not reused.
struct Cell: Hashable {
    let store: ObjectIdentifier

    init(_ store: AnyObject) {
        self.store = ObjectIdentifier(store)
    }
}

enum Claim<T> {
    /// Another thread finished building it meanwhile.
    case existing(T)
    /// The caller now builds it and must call `finish` or `abandon`.
    case claimed
}

/// Makes cached instances be built exactly once without holding any lock while a
/// factory runs.
///
/// A thread that finds a cell being built by another thread waits for it, unless
/// waiting would close a loop of threads waiting on one another (two singletons that
/// need each other, built from two threads at once): that is a dependency cycle and is
/// reported as one instead of deadlocking.
final class Construction: @unchecked Sendable {
    static let shared = Construction()

    private let lock = ConditionLock()
    /// Cells being built, and the thread building each.
    private var builders: [Cell: ObjectIdentifier] = [:]
    /// Threads waiting, and the cell each waits for.
    private var waiting: [ObjectIdentifier: Cell] = [:]
    /// What each building thread is resolving, for cycle messages.
    private var paths: [ObjectIdentifier: [Key]] = [:]

    func claim<T>(
        _ cell: Cell, request: Request, existing: () -> T?
    ) throws(ResolutionError) -> Claim<T> {
        let me = ObjectIdentifier(request.state)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let value = registryLock.withReadLock(request.state.stripe, existing) {
                return .existing(value)
            }
            guard let builder = builders[cell] else {
                builders[cell] = me
                paths[me] = request.state.path
                return .claimed
            }
            if builder == me || waitLoopReaches(me, from: builder) {
                let otherPath = paths[builder] ?? []
                throw ResolutionError(
                    .cycle(of: (builder == me ? [] : otherPath) + request.state.path + [request.key]),
                    key: request.key, path: request.state.path, container: request.resolving, site: request.site)
            }
            waiting[me] = cell
            lock.wait()
            waiting[me] = nil
        }
    }

    /// Publishes the built instance (`publish` runs with the write lock held) and wakes waiters.
    /// What `publish` replaces is released after both locks.
    func finish(_ cell: Cell, publish: (inout Leftovers) -> Void) {
        var leftovers = Leftovers()
        lock.lock()
        registryLock.withWriteLock { publish(&leftovers) }
        release(cell)
        lock.unlock()
        leftovers.release()
    }

    /// Gives up a claim after the factory failed; a waiter will try building itself.
    func abandon(_ cell: Cell) {
        lock.lock()
        release(cell)
        lock.unlock()
    }

    private func release(_ cell: Cell) {
        if let builder = builders.removeValue(forKey: cell) {
            if !builders.values.contains(builder) { paths[builder] = nil }
        }
        lock.broadcast()
    }

    /// Whether following "waits for a cell built by" from `thread` comes back to `me`.
    private func waitLoopReaches(_ me: ObjectIdentifier, from thread: ObjectIdentifier) -> Bool {
        var current = thread
        var seen: Set<ObjectIdentifier> = []
        while let cell = waiting[current], let next = builders[cell] {
            if next == me { return true }
            guard seen.insert(next).inserted else { return false }
            current = next
        }
        return false
    }
}
