import AllocationCounter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Consumes a value so the optimiser cannot delete the work that produced it.
@inline(never) @_optimize(none)
func blackHole(_: some Any) {}

/// Monotonic time in nanoseconds.
@inline(__always)
func now() -> UInt64 {
    #if canImport(Darwin)
        return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #else
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    #endif
}

/// Whether the current pass counts allocations (the counting pass) or only times (the timing
/// passes). Written only by the main thread between batches.
enum Measurement {
    nonisolated(unsafe) static var isCountingAllocations = false
    nonisolated(unsafe) static var allocations: Int64 = 0

    static func begin() -> UInt64 {
        if isCountingAllocations { allocation_counter_start() }
        return now()
    }

    static func end(since start: UInt64) -> UInt64 {
        let elapsed = now() - start
        if isCountingAllocations { allocations += allocation_counter_stop() }
        return elapsed
    }
}

/// Times `body` (and counts its allocations in the counting pass); returns nanoseconds.
@inline(__always)
func measured(_ body: () -> Void) -> UInt64 {
    let start = Measurement.begin()
    body()
    return Measurement.end(since: start)
}

/// Times `count` runs of `body`; returns nanoseconds.
@inline(__always)
func timed(_ count: Int, _ body: () -> Void) -> UInt64 {
    measured {
        for _ in 0..<count { body() }
    }
}

/// One contender's way of running one scenario.
struct Job {
    /// Operations come in multiples of this (`register-1000`: a fresh container per 1,000).
    var granularity = 1
    /// Runs `count` operations and returns the nanoseconds of the measured part (setup that is
    /// not the operation, such as a fresh container, stays outside).
    var run: (_ count: Int) -> UInt64

    init(granularity: Int = 1, run: @escaping (_ count: Int) -> UInt64) {
        self.granularity = granularity
        self.run = run
    }

    /// `threads` worker threads share `count` operations; the result is the wall time until the
    /// last one finishes, so ns/op is the inverse of the total throughput.
    static func threaded(
        _ threads: Int, prepare: @escaping () -> Void = {},
        _ body: @escaping @Sendable (_ count: Int) -> Void
    ) -> Job {
        let team = ThreadTeam.of(threads)
        return Job(granularity: threads) { count in
            prepare()
            return team.run(total: count, body)
        }
    }
}

/// Sizes of the measurement.
struct Plan {
    var rounds: Int
    /// Each batch is sized to take about this long.
    var batchNanoseconds: UInt64
    /// Allocations are counted over about this many operations.
    var countedOperations: Int

    static let full = Plan(rounds: 61, batchNanoseconds: 10_000_000, countedOperations: 2_000)
    static let quick = Plan(rounds: 7, batchNanoseconds: 1_000_000, countedOperations: 200)
}

struct Result {
    var nanosecondsPerOperation: Double
    var allocationsPerOperation: Double?
}

enum Runner {
    /// Measures the jobs of one scenario side by side: each round runs one batch of every job
    /// (starting with a different one each round), and the median over rounds is kept.
    static func measure(_ jobs: [(Contender, Job)], plan: Plan) -> [Contender: Result] {
        let sizes = jobs.map { calibrate($0.1, plan: plan) }
        var samples = Array(repeating: [Double](), count: jobs.count)
        for round in 0..<plan.rounds {
            for offset in jobs.indices {
                let index = (round + offset) % jobs.count
                let elapsed = jobs[index].1.run(sizes[index])
                samples[index].append(Double(elapsed) / Double(sizes[index]))
            }
        }
        var results: [Contender: Result] = [:]
        for (index, (contender, job)) in jobs.enumerated() {
            let allocations = countAllocations(job, plan: plan, batch: sizes[index])
            results[contender] = Result(
                nanosecondsPerOperation: median(samples[index]), allocationsPerOperation: allocations)
        }
        return results
    }

    /// Finds the batch size that takes about `plan.batchNanoseconds` (after a warm-up batch).
    /// Grows the batch until it takes at least half the target, so fixed costs per batch (waking
    /// worker threads) do not dominate the estimate, then scales it to the target.
    private static func calibrate(_ job: Job, plan: Plan) -> Int {
        let unit = job.granularity
        let limit = 1 << 28
        var count = unit
        _ = job.run(count)
        while true {
            let elapsed = job.run(count)
            if elapsed >= plan.batchNanoseconds / 2 || count >= limit {
                let scaled = Double(count) * Double(plan.batchNanoseconds) / Double(max(elapsed, 1))
                let units = max(1, Int((scaled / Double(unit)).rounded()))
                return min(units * unit, limit)
            }
            let growth = Double(plan.batchNanoseconds) / Double(max(elapsed, 1))
            count = min(limit, count * Int(min(16, max(2, growth.rounded(.up)))))
        }
    }

    private static func countAllocations(_ job: Job, plan: Plan, batch: Int) -> Double? {
        guard allocation_counter_is_available() else { return nil }
        let unit = job.granularity
        let count = max(unit, min(batch, plan.countedOperations) / unit * unit)
        Measurement.allocations = 0
        Measurement.isCountingAllocations = true
        _ = job.run(count)
        Measurement.isCountingAllocations = false
        return Double(Measurement.allocations) / Double(count)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
