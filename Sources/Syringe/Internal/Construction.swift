#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

/// Something one thread builds while others may wait for it.
enum Awaited: Hashable {
    /// A cache slot of a registration.
    case cell(Cell)
    /// The value of a `@LazyInject` property, identified by its storage.
    case lazyValue(ObjectIdentifier)
}

/// What is being built, for messages.
enum AwaitedSubject {
    /// An instance of a registration.
    case instance(Key)
    /// The value of a `@LazyInject` property of type `type`.
    case lazyValue(type: Any.Type, site: SourceLocation?)

    /// `SlowService`, `the @LazyInject ImageCache declared at Profile.swift:12`.
    var description: String {
        switch self {
        case .instance(let key): key.description
        case .lazyValue(let type, let site): Messages.lazyValue(type: type, site: site, short: false)
        }
    }

    /// The steps of a resolution path that lead to it from `path`, the frames in progress
    /// (which already end with an instance's key).
    func trail(from path: [Key]) -> [String] {
        switch self {
        case .instance(let key):
            let steps = path.map(\.shortDescription)
            return path.last == key ? steps : steps + [key.shortDescription]
        case .lazyValue(let type, let site):
            return path.map(\.shortDescription) + [Messages.lazyValue(type: type, site: site, short: true)]
        }
    }
}

/// How a lazy value's claim ended, for ``LazyBox``.
enum LazyClaim<T> {
    case existing(T)
    case claimed
    /// Waiting would close a cycle; the program must stop with this message.
    case cycle(String)
}

/// Makes cached instances and `@LazyInject` values be built exactly once without holding any
/// lock while a factory runs.
///
/// A thread that finds something being built by another thread waits for it, unless
/// waiting would close a loop of threads waiting on one another (two singletons that
/// need each other, or two lazy properties that read each other, built from two threads at
/// once): that is a dependency cycle and is reported as one instead of deadlocking.
///
/// A loop through something Syringe does not see (a factory that blocks on another thread
/// which resolves what that factory is building) cannot be told from a slow build: a thread
/// that has waited ``WaitWatchdog/reportDelay`` seconds says so on standard error, naming
/// both threads and their paths, and goes on waiting.
final class Construction: @unchecked Sendable {
    static let shared = Construction()

    /// A build in progress.
    private struct Build {
        /// The thread building it, by its state: a thread that continues the resolution on a
        /// larger stack uses the same state, and counts as the same thread.
        let thread: ObjectIdentifier
        /// The system thread running the build, for messages; it lives while the build is in
        /// progress.
        let systemThread: pthread_t
        let systemThreadID: UInt64
        /// The frames in progress when the build started.
        let path: [Key]
        let subject: AwaitedSubject
    }

    private let lock = ConditionLock()
    /// What is being built, and by which thread.
    private var builds: [Awaited: Build] = [:]
    /// A thread waiting: what for, and the path that led there (stable while it waits).
    private struct Waiter {
        let awaited: Awaited
        let path: [Key]
        let subject: AwaitedSubject

        var trail: [String] { subject.trail(from: path) }
    }

    /// Threads waiting, by their state.
    private var waiting: [ObjectIdentifier: Waiter] = [:]
    /// What each building thread was resolving when it last started a build, for cycle messages.
    private var paths: [ObjectIdentifier: [Key]] = [:]

    /// How a claim ended.
    private enum Outcome<T> {
        case existing(T)
        case claimed
        /// Waiting would close a loop. `otherPath` is what the building thread was resolving
        /// when it last started a build, and `otherTrail` what it waits for now; both are nil
        /// when it is the calling thread itself.
        case loop(otherPath: [Key]?, otherTrail: [String]?)
    }

    /// Claims a registration's cache cell, or waits for the thread building it and returns
    /// what it built. `existing` looks in the cache (it runs with the read lock held).
    func claim<T>(
        _ cell: Cell, request: Request, existing: () -> T?
    ) throws(ResolutionError) -> Claim<T> {
        let state = request.state
        let outcome = claim(.cell(cell), subject: .instance(request.key), state: state) {
            registryLock.withReadLock(state.stripe, existing)
        }
        switch outcome {
        case .existing(let value):
            return .existing(value)
        case .claimed:
            return .claimed
        case .loop(let otherPath, _):
            throw ResolutionError(
                .cycle(of: (otherPath ?? []) + state.path + [request.key]),
                key: request.key, path: state.path, container: request.resolving, site: request.site)
        }
    }

    /// Publishes the built instance (`publish` runs with the write lock held) and wakes waiters.
    /// What `publish` replaces is released after both locks.
    func finish(_ cell: Cell, publish: (inout Leftovers) -> Void) {
        var leftovers = Leftovers()
        finish(.cell(cell)) { registryLock.withWriteLock { publish(&leftovers) } }
        leftovers.release()
    }

    /// Gives up a claim after the factory failed; a waiter will try building itself.
    func abandon(_ cell: Cell) {
        abandon(.cell(cell))
    }

    /// Claims the value of the `@LazyInject` property stored in `box`, or waits for the thread
    /// resolving it. `existing` reads the stored value (no user code).
    func claimLazyValue<T>(
        in box: AnyObject, type: Any.Type, site: SourceLocation?, existing: () -> T?
    ) -> LazyClaim<T> {
        let state = ThreadState.current
        let outcome = claim(
            .lazyValue(ObjectIdentifier(box)), subject: .lazyValue(type: type, site: site), state: state,
            existing: existing)
        switch outcome {
        case .existing(let value):
            return .existing(value)
        case .claimed:
            return .claimed
        case .loop(_, nil):
            return .cycle(Messages.lazyCycle(site: site))
        case .loop(_, let otherTrail?):
            let trail = AwaitedSubject.lazyValue(type: type, site: site).trail(from: state.path)
            return .cycle(Messages.lazyCycleAcrossThreads(site: site, trail: trail, otherTrail: otherTrail))
        }
    }

    /// Publishes a built value (`publish` runs with this coordinator's lock held) and wakes waiters.
    func finish(_ awaited: Awaited, publish: () -> Void) {
        lock.lock()
        publish()
        release(awaited)
        lock.unlock()
    }

    /// Gives up a claim; a waiter will try building itself.
    func abandon(_ awaited: Awaited) {
        lock.lock()
        release(awaited)
        lock.unlock()
    }

    /// Gives up every claim of the thread whose state is `state`: a `verify()` worker that ends
    /// in the middle of its builds. Waiters try building themselves.
    func abandonAll(claimedBy state: ThreadState) {
        let me = ObjectIdentifier(state)
        lock.lock()
        builds = builds.filter { $0.value.thread != me }
        paths[me] = nil
        waiting[me] = nil
        lock.broadcast()
        lock.unlock()
    }

    private func claim<T>(
        _ awaited: Awaited, subject: @autoclosure () -> AwaitedSubject, state: ThreadState, existing: () -> T?
    ) -> Outcome<T> {
        let me = ObjectIdentifier(state)
        var timer = WaitTimer()
        var waiter: Waiter?
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let value = existing() { return .existing(value) }
            guard let build = builds[awaited] else {
                let path = state.path
                builds[awaited] = Build(
                    thread: me, systemThread: pthread_self(), systemThreadID: state.systemThreadID, path: path,
                    subject: subject())
                paths[me] = path
                return .claimed
            }
            if build.thread == me { return .loop(otherPath: nil, otherTrail: nil) }
            if waitLoopReaches(me, from: build.thread) {
                return .loop(otherPath: paths[build.thread] ?? [], otherTrail: waiting[build.thread]?.trail ?? [])
            }
            if waiter == nil { waiter = Waiter(awaited: awaited, path: state.path, subject: subject()) }
            waiting[me] = waiter
            let isWoken: Bool
            if let deadline = timer.nextDeadline() {
                isWoken = lock.wait(until: deadline)
            } else {
                lock.wait()
                isWoken = true
            }
            waiting[me] = nil
            if !isWoken {
                let waited = timer.reportMade()
                guard let build = builds[awaited] else { continue }
                // Still being built: `systemThread` is alive. If the building thread waits too (for
                // something built by a thread that is not waiting), what it waits for is more telling.
                let report = Messages.longWait(
                    waited: waited, subject: build.subject.description,
                    thread: threadLabel(pthread_self(), id: state.systemThreadID), path: waiter?.trail ?? [],
                    buildingThread: threadLabel(build.systemThread, id: build.systemThreadID),
                    buildingPath: waiting[build.thread]?.trail ?? build.subject.trail(from: build.path))
                lock.unlock()
                WaitWatchdog.report(report)
                lock.lock()
            }
        }
    }

    private func release(_ awaited: Awaited) {
        if let build = builds.removeValue(forKey: awaited) {
            if !builds.values.contains(where: { $0.thread == build.thread }) { paths[build.thread] = nil }
        }
        lock.broadcast()
    }

    /// Whether following "waits for something built by" from `thread` comes back to `me`.
    private func waitLoopReaches(_ me: ObjectIdentifier, from thread: ObjectIdentifier) -> Bool {
        var current = thread
        var seen: Set<ObjectIdentifier> = []
        while let awaited = waiting[current]?.awaited, let next = builds[awaited]?.thread {
            if next == me { return true }
            guard seen.insert(next).inserted else { return false }
            current = next
        }
        return false
    }
}
