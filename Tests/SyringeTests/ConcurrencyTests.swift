import Foundation
import Syringe
import Testing

private final class CcShared {
    let serial = FxSerial.next()
}
private final class CcSlow {
    let serial = FxSerial.next()
}
private final class CcUnrelatedSingleton {
    let inner: CcShared
    init(inner: CcShared) { self.inner = inner }
}
private protocol CcServing: AnyObject {}
private final class CcServer: CcServing {
    let serial = FxSerial.next()
}
private final class CcA {
    let b: CcB
    init(b: CcB) { self.b = b }
}
private final class CcB {
    let c: CcC
    init(c: CcC) { self.c = c }
}
private final class CcC {
    let serial = FxSerial.next()
}
private final class CcCycleX {
    init(y: CcCycleY) {}
}
private final class CcCycleY {
    init(x: CcCycleX) {}
}
private final class CcGraphPart {
    let serial = FxSerial.next()
}
private final class CcGraphRoot {
    let left: CcGraphPart
    let right: CcGraphPart
    init(left: CcGraphPart, right: CcGraphPart) {
        self.left = left
        self.right = right
    }
}
private struct CcValue: Sendable {
    let tag: String
}
private enum CcQualifier: Qualifier {}
private enum CcFlow: Scope {}

private func requireSendable<T: Sendable>(_ value: T) -> T { value }

/// A value singleton larger than the slot a kept instance is first copied into, whose fields
/// must all come from one instance.
private struct CcWideValue {
    var generation: Int
    var copies: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
    var label: String

    init(_ generation: Int) {
        self.generation = generation
        copies = (
            generation, generation, generation, generation, generation, generation, generation, generation,
            generation, generation, generation
        )
        label = "generation \(generation)"
    }

    var isWhole: Bool {
        let all = [
            copies.0, copies.1, copies.2, copies.3, copies.4, copies.5, copies.6, copies.7, copies.8,
            copies.9, copies.10,
        ]
        return all.allSatisfy { $0 == generation } && label == "generation \(generation)"
    }
}

/// A small value singleton.
private struct CcSmallValue {
    var generation: Int
}

@Suite struct ConcurrencyTests {
    /// Singletons are read without counting a reference to what keeps them: threads reading a
    /// small and a wide value singleton and a class singleton while another thread keeps dropping
    /// and re-registering them each get a whole instance, built by one of the factories (CI also runs
    /// it under the thread sanitizer).
    @Test func singletonsReadWhileAnotherThreadReplacesThemAreWhole() {
        let r = Resolver()
        let generation = FxCounter()
        @Sendable func registerAll() {
            let next = generation.increment()
            r.register(lifetime: .singleton) { CcWideValue(next) }
            r.register(lifetime: .singleton) { CcSmallValue(generation: next) }
            r.register(lifetime: .singleton) { CcShared() }
        }
        registerAll()
        let torn = FxCounter()
        let stop = FxFlag()
        let finished = fxRunThreads(4) { index in
            guard index > 0 else {
                for round in 0..<2_000 {
                    if round % 2 == 0 {
                        registerAll()
                    } else {
                        r.dropCached([CcWideValue.self, CcSmallValue.self, CcShared.self])
                    }
                }
                stop.value = true
                return
            }
            var reads = 0
            while reads < 2_000 || !stop.value {
                reads += 1
                // Alternating a wide and a small type grows the thread's slot once, then reuses it.
                let wide: CcWideValue = r.resolve()
                let small: CcSmallValue = r.resolve()
                let shared: CcShared = r.resolve()
                if !wide.isWhole || small.generation < 1 || small.generation > generation.value { torn.increment() }
                _ = shared.serial
            }
        }
        #expect(finished)
        #expect(torn.value == 0)
        #expect((r.resolve() as CcWideValue).isWhole)
    }

    @Test func resolverIsSendable() async {
        let r = requireSendable(Resolver())
        r.register { CcValue(tag: "sent") }
        let tag = await Task.detached { (r.resolve() as CcValue).tag }.value
        #expect(tag == "sent")
    }

    @Test func singletonFactoryRunsExactlyOnceUnderARace() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .singleton) { () -> CcShared in
            built.increment()
            usleep(20_000)  // keep the window open while the other threads arrive
            return CcShared()
        }
        let serials = FxRecorder<Int>()
        let finished = fxRunThreads(12) { _ in
            let shared: CcShared = r.resolve()
            serials.append(shared.serial)
        }
        #expect(finished)
        #expect(built.value == 1)
        #expect(serials.values.count == 12)
        #expect(Set(serials.values).count == 1)
    }

    @Test func scopedFactoryRunsExactlyOnceUnderARace() {
        let r = Resolver()
        let built = FxCounter()
        r.register(scopedTo: CcFlow.self) { () -> CcShared in
            built.increment()
            usleep(20_000)
            return CcShared()
        }
        let flow = r.beginScope(CcFlow.self)
        let held = FxRecorder<CcShared>()  // keeps every result alive until the end
        let finished = fxRunThreads(10) { _ in held.append(r.resolve(scopedTo: CcFlow.self)) }
        #expect(finished)
        #expect(built.value == 1)
        #expect(Set(held.values.map(\.serial)).count == 1)
        flow.end()
    }

    @Test func implementedProtocolAndTypeRaceForOneInstance() {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .singleton) { () -> CcServer in
            built.increment()
            usleep(20_000)
            return CcServer()
        }.implements(CcServing.self)
        let identities = FxRecorder<ObjectIdentifier>()
        let finished = fxRunThreads(10) { index in
            if index.isMultiple(of: 2) {
                identities.append(ObjectIdentifier(r.resolve() as CcServer))
            } else {
                identities.append(ObjectIdentifier(r.resolve() as CcServing))
            }
        }
        #expect(finished)
        #expect(built.value == 1)
        #expect(Set(identities.values).count == 1)
    }

    @Test func manyTasksShareOneSingleton() async {
        let r = Resolver()
        let built = FxCounter()
        r.register(lifetime: .singleton) { () -> CcShared in
            built.increment()
            return CcShared()
        }
        let serials = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<64 {
                group.addTask { (r.resolve() as CcShared).serial }
            }
            var all: Set<Int> = []
            for await serial in group { all.insert(serial) }
            return all
        }
        #expect(serials.count == 1)
        #expect(built.value == 1)
    }

    @Test func reEntrantSingletonsDoNotDeadlock() {
        let r = Resolver()
        r.register(lifetime: .singleton) { (resolver: Resolver) -> CcA in
            usleep(5_000)
            return CcA(b: resolver.resolve())
        }
        r.register(lifetime: .singleton) { () -> CcB in
            usleep(5_000)
            return CcB(c: Resolver.resolve())
        }
        r.register(lifetime: .singleton) { CcC() }
        let problems = FxCounter()
        let finished = fxRunThreads(9, timeout: 20) { index in
            switch index % 3 {
            case 0:
                let a: CcA = r.resolve()
                if a.b !== (r.resolve() as CcB) { problems.increment() }
            case 1:
                let b: CcB = r.resolve()
                if b.c !== (r.resolve() as CcC) { problems.increment() }
            default:
                let c: CcC = r.resolve()
                if c !== (r.resolve() as CcA).b.c { problems.increment() }
            }
        }
        #expect(finished, "re-entrant singleton resolution did not finish: deadlock")
        #expect(problems.value == 0)
    }

    @Test func slowSingletonDoesNotStallUnrelatedResolutions() {
        let r = Resolver()
        let factoryStarted = DispatchSemaphore(value: 0)
        let unrelatedDone = DispatchSemaphore(value: 0)
        let progressDuringFactory = FxFlag()
        r.register(lifetime: .singleton) { () -> CcSlow in
            factoryStarted.signal()
            // Bounded wait: succeeds only if the other thread resolved while this factory runs.
            progressDuringFactory.value = unrelatedDone.wait(timeout: .now() + 10) == .success
            return CcSlow()
        }
        r.register { CcValue(tag: "unrelated") }
        r.register(qualifiedBy: CcQualifier.self, lifetime: .singleton) { CcShared() }
        let unrelatedCorrect = FxFlag()
        let slowFinished = DispatchSemaphore(value: 0)
        let otherFinished = DispatchSemaphore(value: 0)
        fxStartThread(slowFinished) { _ = r.resolve() as CcSlow }
        fxStartThread(otherFinished) {
            guard factoryStarted.wait(timeout: .now() + 10) == .success else { return }
            let value: CcValue = r.resolve()
            let shared: CcShared = r.resolve(qualifiedBy: CcQualifier.self)
            unrelatedCorrect.value = value.tag == "unrelated" && shared.serial > 0
            unrelatedDone.signal()
        }
        #expect(slowFinished.wait(timeout: .now() + 30) == .success)
        #expect(otherFinished.wait(timeout: .now() + 30) == .success)
        #expect(progressDuringFactory.value, "an unrelated resolution waited for a slow singleton factory")
        #expect(unrelatedCorrect.value)
    }

    @Test func reEntrantSingletonBuildsWhileAnotherThreadBuildsASlowOne() {
        let r = Resolver()
        let factoryStarted = DispatchSemaphore(value: 0)
        let otherDone = DispatchSemaphore(value: 0)
        let progressDuringFactory = FxFlag()
        r.register(lifetime: .singleton) { () -> CcSlow in
            factoryStarted.signal()
            progressDuringFactory.value = otherDone.wait(timeout: .now() + 10) == .success
            return CcSlow()
        }
        r.register(lifetime: .singleton) { CcShared() }
        r.register(lifetime: .singleton) { CcUnrelatedSingleton(inner: $0.resolve()) }
        let correct = FxFlag()
        let slowFinished = DispatchSemaphore(value: 0)
        let otherFinished = DispatchSemaphore(value: 0)
        fxStartThread(slowFinished) { _ = r.resolve() as CcSlow }
        fxStartThread(otherFinished) {
            guard factoryStarted.wait(timeout: .now() + 10) == .success else { return }
            let outer: CcUnrelatedSingleton = r.resolve()
            correct.value = outer.inner === (r.resolve() as CcShared)
            otherDone.signal()
        }
        #expect(slowFinished.wait(timeout: .now() + 30) == .success)
        #expect(otherFinished.wait(timeout: .now() + 30) == .success)
        #expect(progressDuringFactory.value, "a re-entrant singleton waited for an unrelated slow factory")
        #expect(correct.value)
    }

    @Test func slowFactoryInOneContainerDoesNotStallAnother() {
        let slowContainer = Resolver()
        let other = Resolver()
        let factoryStarted = DispatchSemaphore(value: 0)
        let otherDone = DispatchSemaphore(value: 0)
        let progressDuringFactory = FxFlag()
        slowContainer.register(lifetime: .singleton) { () -> CcSlow in
            factoryStarted.signal()
            progressDuringFactory.value = otherDone.wait(timeout: .now() + 10) == .success
            return CcSlow()
        }
        other.register(lifetime: .singleton) { CcShared() }
        let slowFinished = DispatchSemaphore(value: 0)
        let otherFinished = DispatchSemaphore(value: 0)
        fxStartThread(slowFinished) { _ = slowContainer.resolve() as CcSlow }
        fxStartThread(otherFinished) {
            guard factoryStarted.wait(timeout: .now() + 10) == .success else { return }
            _ = other.resolve() as CcShared
            otherDone.signal()
        }
        #expect(slowFinished.wait(timeout: .now() + 30) == .success)
        #expect(otherFinished.wait(timeout: .now() + 30) == .success)
        #expect(progressDuringFactory.value)
    }

    @Test func crossThreadSingletonCycleIsReportedNotDeadlocked() {
        let r = Resolver()
        let xStarted = DispatchSemaphore(value: 0)
        let yStarted = DispatchSemaphore(value: 0)
        r.register(lifetime: .singleton) { (resolver: Resolver) throws -> CcCycleX in
            xStarted.signal()
            _ = yStarted.wait(timeout: .now() + 2)  // let the other thread enter Y's factory
            return CcCycleX(y: try resolver.tryResolve())
        }
        r.register(lifetime: .singleton) { (resolver: Resolver) throws -> CcCycleY in
            yStarted.signal()
            _ = xStarted.wait(timeout: .now() + 2)
            return CcCycleY(x: try resolver.tryResolve())
        }
        let outcomes = FxRecorder<String>()
        let finished = fxRunThreads(2, timeout: 20) { index in
            do {
                if index == 0 {
                    _ = try r.tryResolve() as CcCycleX
                } else {
                    _ = try r.tryResolve() as CcCycleY
                }
                outcomes.append("built")
            } catch {
                outcomes.append(String(describing: error))
            }
        }
        #expect(finished, "two threads building the two halves of a singleton cycle deadlocked")
        guard finished else { return }
        #expect(outcomes.values.count == 2)
        #expect(!outcomes.values.contains("built"))
        #expect(outcomes.values.contains { fxContainsIgnoringCase($0, "cycle") })
    }

    @Test func graphInstancesAreNotSharedAcrossThreads() {
        let r = Resolver()
        r.register(lifetime: .graph) { CcGraphPart() }
        r.register { CcGraphRoot(left: $0.resolve(), right: $0.resolve()) }
        let roots = FxRecorder<CcGraphRoot>()
        let finished = fxRunThreads(8) { _ in
            for _ in 0..<50 { roots.append(r.resolve()) }
        }
        #expect(finished)
        let all = roots.values
        #expect(all.count == 400)
        #expect(all.allSatisfy { $0.left === $0.right })
        #expect(Set(all.map(\.left.serial)).count == 400)
    }

    @Test func childrenCreatedConcurrentlyShareTheParentsSingleton() {
        let parent = Resolver()
        parent.register(lifetime: .singleton) { CcShared() }
        let serials = FxRecorder<Int>()
        let finished = fxRunThreads(8) { index in
            let child = Resolver(parent: parent)
            child.register { CcValue(tag: "\(index)") }
            serials.append((child.resolve() as CcShared).serial)
            if (child.resolve() as CcValue).tag != "\(index)" { serials.append(-1) }
        }
        #expect(finished)
        #expect(Set(serials.values).count == 1)
        #expect(serials.values.first == (parent.resolve() as CcShared).serial)
    }

    @Test func mixedOperationsFromManyThreads() {
        let r = Resolver()
        r.register(lifetime: .singleton) { CcShared() }
        r.register { CcValue(tag: "transient") }
        r.register(lifetime: .singleton) { CcC() }
        let sharedSerial = (r.resolve() as CcShared).serial
        let wrong = FxRecorder<String>()
        let finished = fxRunThreads(8, timeout: 60) { thread in
            for i in 0..<300 {
                let name = "t\(thread)-\(i)"
                switch i % 8 {
                case 0:
                    r.register(name: name) { CcValue(tag: name) }
                    let value: CcValue = r.resolve(name: name)
                    if value.tag != name { wrong.append("named \(name) gave \(value.tag)") }
                case 1:
                    if (r.resolve() as CcShared).serial != sharedSerial { wrong.append("singleton identity") }
                case 2:
                    if (r.resolve() as CcValue).tag != "transient" { wrong.append("transient value") }
                case 3:
                    if (r.optional(name: "never-registered") as CcValue?) != nil { wrong.append("phantom") }
                case 4:
                    r.register(qualifiedBy: CcQualifier.self) { CcValue(tag: "qualified") }
                    if (r.resolve(qualifiedBy: CcQualifier.self) as CcValue).tag != "qualified" {
                        wrong.append("qualified value")
                    }
                case 5:
                    let child = Resolver(parent: r)
                    child.register { CcValue(tag: name) }
                    if (child.resolve() as CcValue).tag != name { wrong.append("child shadow") }
                    if (child.resolve() as CcShared).serial != sharedSerial { wrong.append("child singleton") }
                case 6:
                    if i % 48 == 6 { r.dropCached([CcC.self]) }
                    let first: CcC = r.resolve()
                    if first.serial <= 0 { wrong.append("dropped singleton") }
                default:
                    let value = Resolver.withContainer(r) { Resolver.resolve() as CcValue }
                    if value.tag != "transient" { wrong.append("static transient value") }
                }
            }
        }
        #expect(finished)
        #expect(wrong.values.isEmpty, "\(wrong.values.prefix(5))")
        // Everything registered along the way is still there afterwards.
        for thread in 0..<8 {
            for i in stride(from: 0, to: 300, by: 8) {
                let name = "t\(thread)-\(i)"
                #expect((r.optional(name: name) as CcValue?)?.tag == name)
            }
        }
    }

    @Test func concurrentRegistrationOfDistinctKeysLosesNothing() {
        let r = Resolver()
        let finished = fxRunThreads(8) { thread in
            for i in 0..<200 {
                let name = "k\(thread)-\(i)"
                r.register(name: name) { CcValue(tag: name) }
            }
        }
        #expect(finished)
        var missing = 0
        for thread in 0..<8 {
            for i in 0..<200 where (r.optional(name: "k\(thread)-\(i)") as CcValue?)?.tag != "k\(thread)-\(i)" {
                missing += 1
            }
        }
        #expect(missing == 0)
    }
}
