#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes shared instances and `@LazyInject` values be built exactly once without holding any lock
/// while a factory runs.
///
/// A thread that finds something being built by another thread waits for it, unless waiting would
/// close a loop of threads waiting on one another (two singletons that need each other, built from
/// two threads at once): that is a dependency cycle and is reported as one instead of deadlocking.
/// A loop through something Syringe does not see (a factory that blocks on another thread which
/// resolves what that factory is building) cannot be told from a slow build: a thread that has
/// waited ``reportDelay`` seconds says so on standard error, and goes on waiting.
final class Construction: @unchecked Sendable {
    static let shared = Construction()

    /// Something one thread builds while others may wait: a store being filled, or a lazy value.
    struct Build {
        /// The building thread's state, which identifies it.
        let builder: ObjectIdentifier
        let systemThread: pthread_t
        let systemThreadID: UInt64
        /// The frames in progress when the build started, and what is built, for messages.
        let path: [Key]
        let subject: Subject
    }

    /// What is being built, for messages.
    enum Subject {
        case instance(Key)
        case lazyValue(type: Any.Type, site: SourceLocation?)

        var description: String {
            switch self {
            case .instance(let key): key.description
            case .lazyValue(let type, let site): Messages.lazyValue(type: type, site: site, short: false)
            }
        }

        var shortDescription: String {
            switch self {
            case .instance(let key): key.shortDescription
            case .lazyValue(let type, let site): Messages.lazyValue(type: type, site: site, short: true)
            }
        }

        /// The steps of a path that lead to it from `path`.
        func trail(from path: [Key]) -> [String] {
            switch self {
            case .instance(let key): path.map(\.shortDescription) + (path.last == key ? [] : [key.shortDescription])
            case .lazyValue(let type, let site):
                path.map(\.shortDescription) + [Messages.lazyValue(type: type, site: site, short: true)]
            }
        }
    }

    /// How a claim ended.
    enum Claim<T> {
        /// Built meanwhile by another thread.
        case existing(T)
        /// The caller builds it now and must ``finish(_:publish:)`` or ``abandon(_:)``.
        case claimed
        /// Waiting would close a loop: the other thread's path and what it waits for (nil when
        /// the loop is the calling thread's own), and the loop of builds, each waiting for the next,
        /// from one this thread builds back to it (empty when the loop is the thread's own).
        case loop(otherPath: [Key]?, otherTrail: [String]?, builds: [String])
    }

    private let lock = ConditionLock()
    private var builds: [ObjectIdentifier: Build] = [:]
    /// The threads waiting, and for what (their path and subject are stable while they wait).
    private var waiting: [ObjectIdentifier: (awaited: ObjectIdentifier, trail: [String])] = [:]

    /// Claims building `item` (identified by an object the caller keeps alive meanwhile), or waits
    /// for the thread building it and returns what `existing` finds then. `existing` runs with this
    /// coordinator's lock held and must run no user code.
    func claim<T>(
        _ item: AnyObject, subject: @autoclosure () -> Subject, in resolution: Resolution, existing: () -> T?
    ) -> Claim<T> {
        let me = ObjectIdentifier(resolution)
        let awaited = ObjectIdentifier(item)
        var reports = 0
        let start = monotonicNanoseconds()
        return lock.withLock {
            while true {
                if let value = existing() { return .existing(value) }
                guard let build = builds[awaited] else {
                    builds[awaited] = Build(
                        builder: me, systemThread: pthread_self(), systemThreadID: resolution.systemThreadID,
                        path: resolution.path, subject: subject())
                    return .claimed
                }
                if build.builder == me { return .loop(otherPath: nil, otherTrail: nil, builds: []) }
                if let loop = waitLoop(
                    me, wanting: awaited, from: build.builder, trail: subject().trail(from: resolution.path))
                {
                    return .loop(otherPath: build.path, otherTrail: waiting[build.builder]?.trail ?? [], builds: loop)
                }
                let trail = subject().trail(from: resolution.path)
                waiting[me] = (awaited, trail)
                let delay = UInt64(WaitWatchdog.reportDelay * (reports == 0 ? 1 : 6) * 1e9)
                let isWoken = lock.wait(until: reports < 2 ? start + delay : nil)
                waiting[me] = nil
                if !isWoken, let build = builds[awaited] {
                    reports += 1
                    // If the building thread waits too, what it waits for is more telling.
                    writeToStandardError(
                        Messages.longWait(
                            waited: Double(delay) / 1e9, subject: build.subject.description,
                            thread: threadLabel(pthread_self(), id: resolution.systemThreadID), path: trail,
                            buildingThread: threadLabel(build.systemThread, id: build.systemThreadID),
                            buildingPath: waiting[build.builder]?.trail ?? build.subject.trail(from: build.path)))
                }
            }
        }
    }

    /// Publishes what was built (`publish` runs with this coordinator's lock held) and wakes the
    /// threads waiting for it.
    func finish(_ item: AnyObject, publish: () -> Void = {}) {
        lock.withLock {
            publish()
            builds[ObjectIdentifier(item)] = nil
            lock.broadcast()
        }
    }

    /// Gives up a claim (the factory failed): a waiting thread builds it itself.
    func abandon(_ item: AnyObject) {
        finish(item)
    }

    /// Gives up every claim of the thread whose state is `resolution`: a `verify()` worker that
    /// ends in the middle of its builds.
    func abandonAll(claimedBy resolution: Resolution) {
        let me = ObjectIdentifier(resolution)
        lock.withLock {
            builds = builds.filter { $0.value.builder != me }
            waiting[me] = nil
            lock.broadcast()
        }
    }

    /// The loop that `me` waiting for `wanted` (built by `thread`) would close, if following
    /// "waits for something built by" from `thread` comes back to `me`: each thread's path from what
    /// it builds to what it waits for, joined (`A → B → A`: `me` builds `A` and wants `B`, whose
    /// thread waits for `A`); nil otherwise. `trail`: `me`'s path and `wanted`.
    private func waitLoop(
        _ me: ObjectIdentifier, wanting wanted: ObjectIdentifier, from thread: ObjectIdentifier, trail: [String]
    ) -> [String]? {
        // The threads on the way, each with the build it holds.
        var hops = [(thread: thread, holds: wanted)]
        var seen: Set<ObjectIdentifier> = []
        while let awaited = waiting[hops[hops.count - 1].thread]?.awaited, let build = builds[awaited] {
            guard build.builder != me else {
                var loop = segment(of: trail, from: awaited)
                for hop in hops {
                    loop += segment(of: waiting[hop.thread]?.trail ?? [], from: hop.holds).dropFirst()
                }
                return loop
            }
            guard seen.insert(build.builder).inserted else { return nil }
            hops.append((build.builder, awaited))
        }
        return nil
    }

    /// The part of a waiting thread's trail from the build `item` it holds on.
    private func segment(of trail: [String], from item: ObjectIdentifier) -> [String] {
        let name = builds[item]?.subject.shortDescription ?? "?"
        guard let start = trail.lastIndex(of: name) else { return [name] + trail }
        return Array(trail[start...])
    }
}

/// Says so on standard error when a thread has waited long for another thread's build.
enum WaitWatchdog {
    private static let lock = Lock()
    nonisolated(unsafe) private static var delay = 5.0

    /// Seconds a thread waits for another thread's build before it reports the wait (tests shorten it).
    static var reportDelay: Double {
        get { lock.withLock { delay } }
        set { lock.withLock { delay = newValue } }
    }
}
