import Foundation
import Testing

@testable import Syringe

// Review of the single lookup (the first look at the registrations handing what it found to the
// resolution) and of verify() lending the main actor to its workers. Each test here shows a case
// that does not hold; crashes and hangs are caught inside exit tests.

final class LrCounted {
    let serial = FxSerial.next()
}
final class LrMissing {}

/// An object with a lazy dependency, made outside any resolution.
final class LrLazyHolder {
    @LazyInject var counted: LrCounted
}

/// Makes an `LrLazyHolder` when it goes away (a deinitializer that sets up a screen's model, say).
final class LrMakesLazyHolderOnDeinit {
    deinit { _ = LrLazyHolder() }
}

/// A singleton whose deinitializer resolves the next one from the container it captured.
final class LrRelay {
    let onDeinit: () -> Void
    init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}

/// A level of a deep chain.
final class LrLevel {
    let next: LrLevel?
    init(next: LrLevel?) { self.next = next }
}

/// Uses about `frames` × 3 KiB of stack (unoptimized), then runs `body`: a factory with large locals or
/// deep helpers of its own.
@inline(never)
func lrUsingStack<T>(_ frames: Int, _ body: () throws -> T) rethrows -> T {
    var pad = SIMD64<UInt64>(repeating: UInt64(frames))
    return try withUnsafeMutablePointer(to: &pad) { pointer in
        if frames == 0 { return try body() }
        let value = try lrUsingStack(frames - 1, body)
        pointer.pointee[0] &+= 1
        return value
    }
}

/// Registers a chain of `count` levels named "0", "1", …, each of which uses about 60 KiB of stack
/// before it resolves the next: more than the 8 MiB of a `verify()` worker in all.
func lrRegisterHeavyChain(_ r: Resolver, count: Int) {
    for level in 0..<count {
        r.register(LrLevel.self, name: "\(level)") { resolver in
            try lrUsingStack(20) {
                LrLevel(next: level + 1 < count ? try resolver.tryResolve(name: "\(level + 1)") : nil)
            }
        }
    }
}

/// A main-actor view model whose deinitializer runs on the main actor (`isolated deinit`).
@MainActor final class LrScreenModel {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    isolated deinit { onDeinit() }
}

/// Holds what a factory got from the container it captured and from the container it was given.
final class LrPair {
    let viaCaptured: LrCounted
    let viaFactory: LrCounted
    init(viaCaptured: LrCounted, viaFactory: LrCounted) {
        self.viaCaptured = viaCaptured
        self.viaFactory = viaFactory
    }
}

@Suite struct LookupReviewTests {
    // MARK: verify(): emptying the run's container on a worker

    /// A singleton of the run's container whose deinitializer makes an object with a `@LazyInject`
    /// property: released while the run's container is emptied (``VerificationRun/dismantle``),
    /// the lazy request is noted for a run whose current item is -1, and the program stops with
    /// "Index out of range" instead of verify() returning its report.
    @Test func aLazyPropertyMadeWhileTheRunsContainerIsEmptiedDoesNotStopTheProgram() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            fxStartWatchdog(seconds: 30)
            let r = Resolver(id: "lr-dismantle-lazy")
            r.register { LrCounted() }
            r.register(lifetime: .singleton) { LrMakesLazyHolderOnDeinit() }
            let report = r.verify()
            invRequire(report.isValid, "\(report)")
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    /// A chain of singletons whose deinitializers each resolve the next from the captured verified
    /// container: the run's container is emptied in three rounds only, so what is left is released
    /// after the run, on the caller's thread, where the resolution builds in the verified container.
    /// Later, the container hands out an instance verify() made instead of building its own.
    @Test func deinitializersOfTheRunsContainerNeverBuildInTheVerifiedContainer() {
        let builds = FxRecorder<Int>()
        let r = Resolver(id: "lr-dismantle-relay")
        let count = 6
        for level in 0..<count {
            r.register(LrRelay.self, name: "\(level)", lifetime: .singleton) {
                builds.append(level)
                return LrRelay {
                    if level + 1 < count { _ = r.resolve(LrRelay.self, name: "\(level + 1)") }
                }
            }
        }
        #expect(r.verify().isValid)
        let last = count - 1
        let before = builds.values.filter { $0 == last }.count
        _ = r.resolve(LrRelay.self, name: "\(last)")
        #expect(
            builds.values.filter { $0 == last }.count == before + 1,
            "the verified container already holds an instance built after verify() was over")
    }

    /// A known limit. A main-actor view model with an `isolated deinit`, built by verify() on a worker that holds
    /// the main actor: the worker's release cannot run the deinitializer (the runtime does not know
    /// the worker holds the main actor), so it is queued on the main actor and runs after the run,
    /// where what it resolves from the verified container is built there.
    @MainActor @Test func anIsolatedDeinitOfTheRunsInstanceDoesNotBuildInTheVerifiedContainer() async {
        let builds = FxCounter()
        let deinits = FxCounter()
        let r = Resolver(id: "lr-dismantle-isolated-deinit")
        r.register(lifetime: .singleton) { () -> LrCounted in
            builds.increment()
            return LrCounted()
        }
        r.register(lifetime: .singleton) { @MainActor _ in
            LrScreenModel {
                deinits.increment()
                _ = r.resolve(LrCounted.self)
            }
        }
        #expect(r.verify().isValid)
        for _ in 0..<50 where deinits.value == 0 { await Task.yield() }
        #expect(deinits.value == 1, "the run's view model is released")
        let before = builds.value
        _ = r.resolve(LrCounted.self)
        withKnownIssue("an isolated deinit runs on the main actor after the run, outside it") {
            #expect(builds.value == before + 1, "the verified container's singleton was built by the run's view model")
        }
    }

    // MARK: verify(): workers that hold the main actor

    /// A nonisolated registration whose chain needs more stack than a worker has is reported as
    /// too deep alike from main-actor code and from elsewhere: a resolution never moves to another
    /// thread.
    @Test func aDeepNonisolatedRegistrationIsVerifiedAlikeFromTheMainActor() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            fxStartWatchdog(seconds: 60)
            let r = Resolver(id: "lr-deep-main-actor")
            lrRegisterHeavyChain(r, count: 180)
            let fromElsewhere = r.verify()
            let fromMainActor = await MainActor.run { r.verify() }
            invRequire(!fromElsewhere.isValid, "verify() from nonisolated code: \(fromElsewhere)")
            invRequire(
                fromMainActor.description == fromElsewhere.description,
                "verify() from main-actor code: \(fromMainActor)\nfrom elsewhere: \(fromElsewhere)")
            invRequire(
                fromElsewhere.failures.allSatisfy { if case .tooDeep = $0.reason { true } else { false } },
                "\(fromElsewhere)")
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    // MARK: verify() and the first lookup

    /// A factory that resolves from the verified container it captured, once that container has
    /// built the singleton and seen the edge: the first lookup returns the verified container's
    /// cached instance before the resolution is redirected to the run's container, so the object
    /// verify() builds holds the verified container's singleton next to the run's own.
    @Test func aCachedSingletonOfTheVerifiedContainerIsNotHandedToTheRun() {
        let pairs = FxRecorder<LrPair>()
        let r = Resolver(id: "lr-verify-cached")
        r.register(lifetime: .singleton) { LrCounted() }
        r.register { resolver -> LrPair in
            let pair = LrPair(viaCaptured: r.resolve(), viaFactory: resolver.resolve())
            pairs.append(pair)
            return pair
        }
        let real: LrPair = r.resolve()
        #expect(real.viaCaptured === real.viaFactory)
        #expect(r.verify().isValid)
        let built = pairs.values.last
        #expect(built !== real)
        #expect(built?.viaCaptured === built?.viaFactory, "the run's object got the verified container's singleton")
        #expect(built?.viaCaptured !== real.viaCaptured, "the verified container's singleton was handed to the run")
    }
}
