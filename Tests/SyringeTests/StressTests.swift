import Foundation
import Syringe
import Testing

// Stress (SPEC.md §9, STYLE.md §6): eight real threads each run 20,000 mixed operations on one
// container — singleton, transient and scoped resolutions, registering and clearing keys of
// their own, child containers, `@LazyInject` first reads — then every singleton must have been
// built exactly once and every value must be the right one. The join is bounded: a hang fails
// the test instead of stalling the run. No timing is asserted.

final class StressSingletonA {
    let serial = FxSerial.next()
}
final class StressSingletonB {
    let serial = FxSerial.next()
    let a: StressSingletonA
    init(a: StressSingletonA) { self.a = a }
}
final class StressSingletonC {
    let serial = FxSerial.next()
}
final class StressSession {
    let serial = FxSerial.next()
}
final class StressFlowObject {}
struct StressTransient {
    let value: Int
}
final class StressTagged {
    let thread: Int
    let round: Int
    init(thread: Int, round: Int) {
        self.thread = thread
        self.round = round
    }
}
final class StressLocal {
    let thread: Int
    init(thread: Int) { self.thread = thread }
}
final class StressLazyTarget {
    let serial = FxSerial.next()
}
final class StressLazyHolder {
    @LazyInject var target: StressLazyTarget
}
final class StressNeverRegistered {}
enum StressSessionScope: Scope {
    static var retention: ScopeRetention { .strong }
}
enum StressFlow: Scope {}
enum StressTag: Qualifier {}

/// What one worker saw, merged after the join.
private final class StressReport {
    var problems: [String] = []
    var serials: [String: Set<Int>] = [:]
    var lazySerials: [Int: Int] = [:]
    var operations = 0

    func fail(_ problem: String) {
        if problems.count < 5 { problems.append(problem) }
    }

    func saw(_ what: String, _ serial: Int) {
        serials[what, default: []].insert(serial)
    }
}

/// The reports of all workers; each worker writes only its own slot, the test reads after the join.
private final class StressReports: @unchecked Sendable {
    let reports: [StressReport]
    init(count: Int) { reports = (0..<count).map { _ in StressReport() } }
}

private struct StressRandom {
    var state: UInt64
    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

/// Starts `count` threads that begin together, and waits for all of them until `timeout`.
/// Returns false if they did not all finish in time.
private func stressRunThreads(_ count: Int, timeout: TimeInterval, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    for index in 0..<count {
        let thread = Thread {
            ready.signal()
            go.wait()
            body(index)
            finished.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { go.signal() }
    let deadline = DispatchTime.now() + timeout
    for _ in 0..<count {
        if finished.wait(timeout: deadline) == .timedOut { return false }
    }
    return true
}

@Suite struct StressTests {
    static let threads = 8
    static let operationsPerThread = 20_000
    static let sharedLazyHolders = 256

    @Test func mixedOperationsFromEightThreads() {
        let root = Resolver(id: "stress-mixed")
        let buildsA = FxCounter()
        let buildsB = FxCounter()
        let buildsC = FxCounter()
        let buildsSession = FxCounter()
        let buildsLazyTarget = FxCounter()
        root.register(lifetime: .singleton) { () -> StressSingletonA in
            buildsA.increment()
            return StressSingletonA()
        }
        root.register(lifetime: .singleton) { r -> StressSingletonB in
            buildsB.increment()
            return StressSingletonB(a: r.resolve())
        }
        root.register(qualifiedBy: StressTag.self, lifetime: .singleton) { () -> StressSingletonC in
            buildsC.increment()
            return StressSingletonC()
        }
        root.register(scopedTo: StressSessionScope.self) { () -> StressSession in
            buildsSession.increment()
            return StressSession()
        }
        root.register(scopedTo: StressFlow.self) { StressFlowObject() }
        root.register { StressTransient(value: 42) }
        root.register { () -> StressLazyTarget in
            buildsLazyTarget.increment()
            return StressLazyTarget()
        }
        let holders = Resolver.withContainer(root) {
            (0..<Self.sharedLazyHolders).map { _ in StressLazyHolder() }
        }
        let shared = StressLazyHolders(holders)
        let reports = StressReports(count: Self.threads)

        let finished = stressRunThreads(Self.threads, timeout: 120) { index in
            let report = reports.reports[index]
            var random = StressRandom(state: UInt64(index + 1) &* 0x1234_5678_9ABC_DEF1)
            for round in 0..<Self.operationsPerThread {
                Self.operate(
                    random.below(100), round: round, thread: index, root: root, holders: shared, report: report)
                report.operations += 1
            }
        }
        #expect(finished, "the workers did not finish within two minutes (a deadlock?)")
        guard finished else { return }

        let all = reports.reports
        #expect(all.flatMap(\.problems).isEmpty, "\(all.flatMap(\.problems))")
        #expect(all.map(\.operations).reduce(0, +) == Self.threads * Self.operationsPerThread)
        #expect(buildsA.value == 1)
        #expect(buildsB.value == 1)
        #expect(buildsC.value == 1)
        #expect(buildsSession.value == 1)
        var serials: [String: Set<Int>] = [:]
        for report in all {
            serials.merge(report.serials) { $0.union($1) }
        }
        #expect(serials["A"]?.count == 1)
        #expect(serials["B"]?.count == 1)
        #expect(serials["C"]?.count == 1)
        #expect(serials["session"]?.count == 1)
        #expect(serials["A"] == [(root.resolve() as StressSingletonA).serial])
        // Each shared @LazyInject resolved once, however many threads read it first.
        var lazy: [Int: Int] = [:]
        var lazyConflicts = 0
        for report in all {
            for (holder, serial) in report.lazySerials {
                if let seen = lazy[holder], seen != serial { lazyConflicts += 1 }
                lazy[holder] = serial
            }
        }
        #expect(lazyConflicts == 0)
        #expect(!lazy.isEmpty)
        let privateLazyReads = all.map { $0.serials["private lazy", default: []].count }.reduce(0, +)
        #expect(buildsLazyTarget.value == lazy.count + privateLazyReads)
    }

    /// One operation, chosen by `roll` (0..<100).
    private static func operate(
        _ roll: Int, round: Int, thread: Int, root: Resolver, holders: StressLazyHolders, report: StressReport
    ) {
        switch roll {
        case 0..<12:
            let a: StressSingletonA = root.resolve()
            report.saw("A", a.serial)
        case 12..<20:
            let b: StressSingletonB = root.resolve()
            report.saw("B", b.serial)
            report.saw("A", b.a.serial)
        case 20..<26:
            let c: StressSingletonC = root.resolve(qualifiedBy: StressTag.self)
            report.saw("C", c.serial)
        case 26..<38:
            let value: StressTransient = root.resolve()
            if value.value != 42 { report.fail("transient value \(value.value)") }
        case 38..<46:
            let session: StressSession = root.resolve(scopedTo: StressSessionScope.self)
            report.saw("session", session.serial)
        case 46..<54:
            // While this thread holds the flow's object, the scope must hand out that object.
            let first: StressFlowObject = root.resolve(scopedTo: StressFlow.self)
            let second: StressFlowObject = root.resolve(scopedTo: StressFlow.self)
            if first !== second { report.fail("a held weakly scoped object was rebuilt") }
        case 54..<66:
            let name = "stress-\(thread)-\(round)"
            root.register(name: name) { StressTagged(thread: thread, round: round) }
            let tagged: StressTagged = root.resolve(name: name)
            if tagged.thread != thread || tagged.round != round {
                report.fail("\(name) resolved to \(tagged.thread)-\(tagged.round)")
            }
            root.clearRegistration(for: StressTagged.self, name: name)
            if root.optional(StressTagged.self, name: name) != nil { report.fail("\(name) survived clearing") }
        case 66..<74:
            let child = Resolver(parent: root)
            child.register { StressLocal(thread: thread) }
            let local: StressLocal = child.resolve()
            if local.thread != thread { report.fail("a child served thread \(local.thread)'s registration") }
            let a: StressSingletonA = child.resolve()
            report.saw("A", a.serial)
            if root.optional(StressLocal.self) != nil { report.fail("a child's registration reached the parent") }
        case 74..<84:
            let index = (round &* 31 &+ thread) % holders.holders.count
            let serial = holders.holders[index].target.serial
            report.lazySerials[index] = serial
        case 84..<89:
            let holder = Resolver.withContainer(root) { StressLazyHolder() }
            let serial = holder.target.serial
            if holder.target.serial != serial { report.fail("a @LazyInject changed after its first read") }
            report.saw("private lazy", serial)
        case 89..<94:
            let a: StressSingletonA = Resolver.withContainer(root) { Resolver.resolve() }
            report.saw("A", a.serial)
        default:
            if root.optional(StressNeverRegistered.self) != nil { report.fail("an unregistered type resolved") }
        }
    }
}

/// Objects created before the threads start, read by all of them.
private final class StressLazyHolders: @unchecked Sendable {
    let holders: [StressLazyHolder]
    init(_ holders: [StressLazyHolder]) { self.holders = holders }
}
