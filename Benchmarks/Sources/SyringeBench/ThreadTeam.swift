import Dispatch
import Foundation

/// A fixed set of worker threads, started once and reused for every batch, so thread start-up
/// is not part of the measurement.
final class ThreadTeam: @unchecked Sendable {
    private final class Worker: @unchecked Sendable {
        let start = DispatchSemaphore(value: 0)
        var body: (@Sendable (Int) -> Void)?
        var count = 0
    }

    private let workers: [Worker]
    private let done = DispatchSemaphore(value: 0)

    nonisolated(unsafe) private static var teams: [Int: ThreadTeam] = [:]

    /// The team with `size` threads (created on first use, from the main thread).
    static func of(_ size: Int) -> ThreadTeam {
        if let team = teams[size] { return team }
        let team = ThreadTeam(size: size)
        teams[size] = team
        return team
    }

    private init(size: Int) {
        workers = (0..<size).map { _ in Worker() }
        for worker in workers {
            let done = self.done
            let thread = Thread {
                while true {
                    worker.start.wait()
                    worker.body?(worker.count)
                    done.signal()
                }
            }
            thread.start()
        }
    }

    /// Splits `total` operations evenly over the workers and returns the wall time in
    /// nanoseconds from releasing them until the last one is done.
    func run(total: Int, _ body: @escaping @Sendable (Int) -> Void) -> UInt64 {
        let share = total / workers.count
        for worker in workers {
            worker.body = body
            worker.count = share
        }
        let start = Measurement.begin()
        for worker in workers { worker.start.signal() }
        for _ in workers { done.wait() }
        return Measurement.end(since: start)
    }
}
