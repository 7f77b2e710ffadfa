import Foundation
import Testing

@testable import Syringe

// `verify()` sees the whole graph and never stops the process: failures where `resolve()`
// would stop the program (plain resolves in factories, property wrappers, default arguments)
// are reported with their paths, one registration after another, and leave nothing behind.

final class VrMissing {}
protocol VrMissingProtocol: AnyObject {}
final class VrMissingWeak: VrMissingProtocol {}
final class VrMissingLazy {}
final class VrMissingDefault {}
final class VrMissingDeep {}

/// 1. A factory with a plain `$0.resolve()` of something not registered.
final class VrPlainResolve {
    init(missing: VrMissing) {}
}
/// 2. `@Inject` of something not registered.
final class VrInjected {
    @Inject var missing: VrMissing
}
/// 3. `@WeakInject` of a class-bound protocol nothing implements.
final class VrWeakInjected {
    @WeakInject var delegate: (any VrMissingProtocol)?
}
/// 4. `@OptionalInject` of a type that is registered but cannot be built.
final class VrBroken {
    init(missing: VrMissingDeep) {}
}
final class VrOptionalInjected {
    @OptionalInject var broken: VrBroken?
}
/// 5. `@LazyInject` of something not registered: checked without being read.
final class VrLazyInjected {
    @LazyInject var lazy: VrMissingLazy
}
/// 6. A default-argument `Resolver.resolve()`.
final class VrDefaultArgument {
    init(missing: VrMissingDefault = Resolver.resolve()) {}
}
/// 7. A cycle through plain resolves.
final class VrCycleA {
    init(b: VrCycleB) {}
}
final class VrCycleB {
    init(a: VrCycleA) {}
}
/// 8. An argument mismatch: registered with a String, asked with an Int.
final class VrLabel {
    init(_ text: String) {}
}
final class VrArgumentUser {
    init(label: VrLabel) {}
}
/// 9. A factory that throws.
struct VrOffline: Error {}
final class VrThrowing {}
/// 10. A dependency two levels down, resolved plainly.
final class VrMiddle {
    init(deep: VrBroken) {}
}
final class VrTop {
    init(middle: VrMiddle) {}
}

final class VrFine {
    let serial = FxSerial.next()
}
final class VrSingleton {
    let serial = FxSerial.next()
}
final class VrUsesSingleton {
    let singleton: VrSingleton
    init(singleton: VrSingleton) { self.singleton = singleton }
}
final class VrMaybe {}
final class VrDeep {}
final class ErrorViewModel {
    init(error: any Error) {}
}
final class TestUser {}
final class Profile {
    init(user: TestUser) {}
}
struct Settings {}

/// A container with ten independent failures, one of each kind, and sound registrations
/// around them (a singleton with a build counter among them).
private func makeTenFailures(id: String, singletonBuilds: FxCounter = FxCounter()) -> Resolver {
    let r = Resolver(id: id)
    r.register { VrFine() }
    r.register(lifetime: .singleton) { () -> VrSingleton in
        singletonBuilds.increment()
        return VrSingleton()
    }
    r.register { VrUsesSingleton(singleton: $0.resolve()) }
    r.register { VrPlainResolve(missing: $0.resolve()) }  // 1
    r.register { VrInjected() }  // 2
    r.register { VrWeakInjected() }  // 3
    r.register { VrBroken(missing: $0.resolve()) }  // the broken dependency of 4 and 10
    r.register { VrOptionalInjected() }  // 4
    r.register { VrLazyInjected() }  // 5
    r.register { VrDefaultArgument() }  // 6
    r.register { VrCycleA(b: $0.resolve()) }  // 7
    r.register { VrCycleB(a: $0.resolve()) }
    r.register(arguments: String.self) { VrLabel($0) }
    r.register { VrArgumentUser(label: $0.resolve(arguments: 42)) }  // 8
    r.register { () throws -> VrThrowing in throw VrOffline() }  // 9
    r.register { VrMiddle(deep: $0.resolve()) }  // 10
    r.register { VrTop(middle: $0.resolve()) }
    r.register(VrMaybe.self) { () -> VrMaybe? in nil }  // may yield nothing: not a failure
    return r
}

/// An object made outside any factory and `withContainer` body, whose lazy property a factory reads.
final class VrOutsideModel {
    @LazyInject var singleton: VrSingleton
}
final class VrReadsOutsideModel {
    init(_ model: VrOutsideModel) { _ = model.singleton }
}

/// A time-to-live instance whose deinitializer resolves from the container it was built for.
final class VrExpiring {
    let container: Resolver
    let released: FxCounter
    init(container: Resolver, released: FxCounter) {
        self.container = container
        self.released = released
    }
    deinit {
        // The first resolves the build that let it go (which fails again, on its own worker).
        if released.increment() == 1 { _ = try? container.tryResolve(VrReplacesExpired.self) }
    }
}
final class VrReplacesExpired {}

@Suite struct VerificationRunTests {
    /// `verify()` leaves the objects that outlive it as they were: a lazy property of an object
    /// made outside any container, read by a factory the run builds, is built in the run's
    /// container for that read and not kept.
    @Test func verifyKeepsNoValueInALazyPropertyOfAnObjectMadeOutsideAnyContainer() {
        let r = Resolver()
        r.register(lifetime: .singleton) { VrSingleton() }
        let model = VrOutsideModel()
        r.register { VrReadsOutsideModel(model) }
        #expect(r.verify().isValid)
        #expect(!model.$singleton.isResolved)
        #expect(Resolver.withContainer(r) { model.singleton } === r.resolve(VrSingleton.self))
    }

    /// What the stores let go during a build that a failure ends (an expired instance replaced) is
    /// released when the run ends, on a worker of its own: its deinitializer, which resolves the
    /// build that let it go, meets none of that build's frames, and the report has only the failure.
    @Test func aWorkerEndedInTheMiddleOfABuildReleasesWhatItsStoresLetGo() {
        let r = Resolver()
        let released = FxCounter()
        r.register(lifetime: .singleton) { VrSingleton() }
        r.register(lifetime: .timeToLive(.milliseconds(5))) { VrExpiring(container: r, released: released) }
        let builds = FxCounter()
        r.register { (resolver: Resolver) -> VrReplacesExpired in
            guard builds.increment() == 1 else { return VrReplacesExpired() }  // the deinitializer's
            usleep(30_000)  // the instance the registration's own item built has expired
            let replacement: VrExpiring = resolver.resolve()
            _ = resolver.resolve(VrMissing.self)  // ends the worker
            withExtendedLifetime(replacement) {}
            return VrReplacesExpired()
        }
        let report = r.verify()
        #expect(report.failures.map(\.requested) == ["VrMissing"], "\(report)")
        #expect(released.value >= 1)
        #expect(builds.value == 2)
    }

    @Test func tenIndependentFailuresAreAllReportedInOneRun() {
        let report = makeTenFailures(id: "vr-ten").verify()
        let texts = report.failures.map(\.description)
        func reported(_ fragments: String...) -> Bool {
            texts.contains { text in fragments.allSatisfy { text.contains($0) } }
        }
        #expect(!report.isValid)
        #expect(reported("no registration for VrMissing\n", "while resolving VrPlainResolve → VrMissing"))
        #expect(reported("no registration for VrMissing\n", "while resolving VrInjected → VrMissing", "requested at"))
        #expect(reported("no registration for VrMissingProtocol", "VrWeakInjected → VrMissingProtocol", "requested at"))
        #expect(reported("no registration for VrMissingDeep", "VrOptionalInjected → VrBroken → VrMissingDeep"))
        #expect(reported("no registration for VrMissingLazy", "VrLazyInjected → VrMissingLazy"))
        #expect(reported("no registration for VrMissingDefault", "VrDefaultArgument → VrMissingDefault"))
        #expect(reported("dependency cycle while resolving VrCycleA"))
        #expect(reported("VrLabel with arguments (Int)", "VrArgumentUser → VrLabel"))
        #expect(reported("the factory for VrThrowing threw an error: VrOffline()"))
        #expect(reported("no registration for VrMissingDeep", "VrTop → VrMiddle → VrBroken → VrMissingDeep"))
        #expect(Set(report.verified) == ["VrFine", "VrSingleton", "VrUsesSingleton", "VrMaybe"])
        #expect(report.skipped == ["VrLabel with arguments (String)"])
        #expect(report.registrationCount == 18)
        #expect(report.failedRegistrationCount == 13)
    }

    @Test func realResolutionsAfterVerifyBehaveAsWithoutIt() {
        let builds = FxCounter()
        let r = makeTenFailures(id: "vr-after", singletonBuilds: builds)
        _ = r.verify()
        #expect(builds.value == 1)  // in verify()'s own container
        let user: VrUsesSingleton = r.resolve()
        let again: VrUsesSingleton = r.resolve()
        #expect(user.singleton === again.singleton)
        #expect(builds.value == 2)  // the container built its own, once
        let fine: VrFine = r.resolve()
        let other: VrFine = r.resolve()
        #expect(fine !== other)
        // Verifying again finds the same, and leaves the singleton alone.
        let report = r.verify()
        #expect(report.failures.count >= 10)
        #expect((r.resolve() as VrUsesSingleton).singleton === user.singleton)
        #expect(builds.value == 3)
    }

    @Test func anAbandonedSingletonBuildLeavesNoClaimBehind() {
        final class Holder {
            init(singleton: VrBroken) {}
        }
        let r = Resolver(id: "vr-claims")
        r.register(lifetime: .singleton) { VrBroken(missing: $0.resolve()) }
        r.register { Holder(singleton: $0.resolve()) }
        // Both registrations reach the singleton whose build ends its thread: the second must not
        // wait for the first's claim.
        let report = r.verify()
        #expect(report.failures.count == 2)
        #expect(report.failedRegistrationCount == 2)
        // Once the dependency is registered, real resolutions (and verify) work.
        r.register { VrMissingDeep() }
        let holder: Holder = r.resolve()
        _ = holder
        #expect(r.verify().isValid)
    }

    @Test func verifyRunsWhileOtherThreadsResolve() {
        let r = makeTenFailures(id: "vr-concurrent")
        let done = FxCounter()
        let threads = (0..<2).map { _ in
            Thread {
                for _ in 0..<2_000 {
                    let user: VrUsesSingleton = r.resolve()
                    _ = user
                }
                done.increment()
            }
        }
        threads.forEach { $0.start() }
        for _ in 0..<5 { #expect(r.verify().failures.count >= 10) }
        while done.value < 2 { usleep(1_000) }
    }

    /// A build whose thread runs short of stack is reported as too deep where the stack ran out;
    /// the run goes on.
    @Test func aBuildShortOfStackIsReportedAsTooDeep() {
        let r = Resolver(id: "vr-short-of-stack")
        r.register(name: "top") { resolver -> VrDeep in
            // As if this thread's stack were nearly used up: the next level is too deep.
            sdWithStackNearlyUsedUp(room: 0) { _ = resolver.resolve(VrDeep.self, name: "middle") }
            return VrDeep()
        }
        r.register(name: "middle") { resolver -> VrDeep in
            _ = resolver.resolve(VrMissing.self)
            return VrDeep()
        }
        r.register { VrFine() }
        let report = r.verify()
        #expect(
            report.failures.map(\.path) == [
                ["VrDeep<\"top\">", "VrDeep<\"middle\">"], ["VrDeep<\"middle\">", "VrMissing"],
            ])
        #expect(report.failures.first.map { if case .tooDeep = $0.reason { true } else { false } } == true)
        #expect(report.verified == ["VrFine"])
    }

    /// A factory that resolves from the container it captured (or `@Inject(container:)`, or
    /// `resolveAll()` on it) still builds in verify()'s own container.
    @Test func resolutionsFromTheVerifiedContainerItselfStayInTheRun() {
        final class Captured {
            init(singleton: VrSingleton, all: [VrSingleton]) {}
        }
        let builds = FxCounter()
        let r = Resolver(id: "vr-captured")
        r.register(lifetime: .singleton) { () -> VrSingleton in
            builds.increment()
            return VrSingleton()
        }
        r.register { Captured(singleton: r.resolve(), all: r.resolveAll()) }
        let report = r.verify()
        #expect(report.isValid, "\(report)")
        #expect(builds.value == 1)  // in verify()'s own container only
        let real: VrSingleton = r.resolve()
        #expect(builds.value == 2)
        _ = r.verify()
        #expect((r.resolve() as VrSingleton) === real)
    }

    /// Two verifications of one container at once, each in its own throw-away container.
    @Test func concurrentVerificationsDoNotInterfere() {
        let r = makeTenFailures(id: "vr-two-at-once")
        let counts = FxCounter()
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            Thread {
                for _ in 0..<5 where r.verify().failedRegistrationCount == 13 { counts.increment() }
                done.signal()
            }.start()
        }
        done.wait()
        done.wait()
        #expect(counts.value == 10)
    }

    /// A chain close to the depth limit, failing at the bottom, on the worker's stack.
    @Test func aDeepChainFailingAtTheBottomIsReported() {
        let r = Resolver(id: "vr-deep")
        for level in 0..<150 {
            r.register(SdLevel.self, name: "\(level)") { resolver in
                SdLevel(next: resolver.resolve(SdLevel.self, name: level < 149 ? "\(level + 1)" : "absent"))
            }
        }
        let report = r.verify()
        #expect(report.failedRegistrationCount == 150)
        #expect(report.failures.first?.path.count == 151)
        #expect(report.failures.first?.requested == "SdLevel named \"absent\"")
    }

    // MARK: Values known only at run time

    @Test func skippedTypesAreNotBuiltAndListed() {
        let r = Resolver(id: "vr-skipping")
        r.register { VrFine() }
        r.register { ErrorViewModel(error: $0.resolve()) }
        let report = r.verify(skipping: [ErrorViewModel.self])
        #expect(report.isValid, "\(report)")
        #expect(report.skipped == ["ErrorViewModel"])
        #expect(report.description.contains("skipped (as asked): ErrorViewModel"))
    }

    @Test func standInsServeWhatIsRegisteredAtRunTime() {
        let r = Resolver(id: "vr-providing")
        r.register { Profile(user: $0.resolve()) }
        #expect(!r.verify().isValid)
        let report = r.verify(providing: { $0.register { TestUser() } })
        #expect(report.isValid, "\(report)")
        #expect(report.verified == ["Profile"])
        #expect(!r.isRegistered(TestUser.self))
    }

    // MARK: Warnings and counts

    @Test func aKeyRegisteredTwiceIsAWarningWithBothSites() {
        let r = Resolver(id: "vr-twice")
        let first = #line + 1
        r.register { VrFine() }
        let second = #line + 1
        r.register { VrFine() }
        let report = r.verify()
        #expect(report.isValid)
        #expect(
            report.warnings == [
                "VrFine is registered more than once: at \(#fileID):\(first), then at \(#fileID):\(second); the last "
                    + "registration wins, remove the others (or give them different qualifiers or names)"
            ])
    }

    @Test func weakValueTypeAndOptionalRegistrationAreWarnings() {
        let r = Resolver(id: "vr-warnings")
        r.register(lifetime: .weak) { Settings() }
        r.register(VrFine?.self) { VrFine() }
        let report = r.verify()
        #expect(report.isValid, "\(report)")
        #expect(report.warnings.count == 2)
        #expect(report.warnings.contains { $0.hasPrefix("Optional<VrFine> is registered (at ") })
        #expect(
            report.warnings.contains(
                "Settings has a weak lifetime but its factory builds a value type, which cannot be held weakly: "
                    + "every resolution builds a new one; register it as .singleton or .transient, or make it a class"))
        #expect(report.description.contains("\nwarnings:\n- "))
    }

    @Test func registrationsAndAliasesAreCountedApart() {
        let r = Resolver(id: "vr-counts")
        r.register { VrMissingWeak() }.implements(VrMissingProtocol.self)
        r.register { VrFine() }
        let report = r.verify()
        #expect(report.registrationCount == 2)
        #expect(report.aliasCount == 1)
        #expect(report.description == "Syringe: all 3 keys resolve (2 registrations, 1 alias)")
    }

    @Test func anEmptyContainerIsNotValid() {
        let report = Resolver(id: "vr-empty").verify()
        #expect(!report.isValid)
        #expect(report.description.hasPrefix("Syringe: nothing is registered"))
    }
}

// MARK: - The main actor

@MainActor final class VrViewModel {
    let fine: VrFine
    init(fine: VrFine) { self.fine = fine }
}

@MainActor final class VrBrokenViewModel {
    init(missing: VrMissing) {}
}

final class VrNeedsViewModel {
    init(model: VrViewModel) {}
}

@Suite struct VerificationMainActorTests {
    private func makeContainer(id: String) -> Resolver {
        let r = Resolver(id: id)
        r.register { VrFine() }
        r.register { @MainActor resolver in VrViewModel(fine: resolver.resolve()) }
        r.register { @MainActor resolver in try VrBrokenViewModel(missing: resolver.tryResolve()) }
        r.register { VrNeedsViewModel(model: $0.resolve()) }  // nonisolated, but needs the main actor
        return r
    }

    @MainActor @Test func mainActorRegistrationsVerifyFromMainActorCode() {
        let report = makeContainer(id: "vr-main").verify()
        #expect(Set(report.verified) == ["VrFine", "VrViewModel", "VrNeedsViewModel"])
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.description.contains("VrBrokenViewModel → VrMissing") == true)
        #expect(report.skipped.isEmpty)
    }

    @Test func fromElsewhereMainActorRegistrationsAreSkipped() async {
        let report = await Task.detached { makeContainer(id: "vr-off-main").verify() }.value
        #expect(report.verified == ["VrFine"])
        #expect(Set(report.skipped) == ["VrViewModel", "VrBrokenViewModel", "VrNeedsViewModel"])
        #expect(report.failures.isEmpty)
        #expect(report.isValid)
    }

    @MainActor @Test func resolveAllFromMainActorCode() {
        let r = Resolver(id: "vr-main-all")
        r.register(name: "a") { @MainActor _ in VrViewModel(fine: VrFine()) }
        r.register(name: "b") { @MainActor _ in VrViewModel(fine: VrFine()) }
        #expect(r.resolveAll(VrViewModel.self).count == 2)
    }
}
