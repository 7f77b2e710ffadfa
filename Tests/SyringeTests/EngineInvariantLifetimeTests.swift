import Foundation
import Syringe
import Testing

// Lifetime rules that must never be bent silently: a type conforming to Singleton is one instance
// per registration (and a registration that says otherwise stops the program), `.lifetime(_:)`
// either takes effect or says why it cannot, and a lifetime changed while an instance is being
// built does not leave that instance behind.

protocol InvDatabase: AnyObject {}
final class InvSingletonDatabase: InvDatabase, Singleton {
    let serial = FxSerial.next()
}
final class InvSingletonWithArgument: Singleton {
    let value: Int
    init(_ value: Int) { self.value = value }
}

enum InvLifetimeFlow: Scope {}
final class InvFlowUser {}
final class InvEarth {}
final class InvSlowBuilt {
    let serial = FxSerial.next()
}

/// The lifetime a test argument names (arguments of exit tests must be encodable).
func invLifetime(_ name: String) -> Lifetime {
    switch name {
    case "transient": .transient
    case "graph": .graph
    case "weak": .weak
    default: .singleton
    }
}

@Suite struct EngineInvariantLifetimeTests {
    // MARK: Singleton conformance

    @Test func singletonFoundOnTheFirstInstanceIsBuiltOnceUnderARace() {
        let c = Resolver()
        let built = FxCounter()
        c.register(InvDatabase.self) { () -> any InvDatabase in
            built.increment()
            usleep(20_000)  // keep the window open while the other threads arrive
            return InvSingletonDatabase()
        }
        let serials = FxRecorder<Int>()
        let finished = fxRunThreads(8) { _ in
            let database = c.resolve(InvDatabase.self)
            serials.append((database as? InvSingletonDatabase)?.serial ?? -1)
        }
        #expect(finished)
        #expect(built.value == 1)
        #expect(serials.values.count == 8)
        #expect(Set(serials.values).count == 1)
    }

    @Test(arguments: ["transient", "graph", "weak"])
    func registeringASingletonTypeWithAnotherLifetimeStops(_ lifetimeName: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [lifetimeName] in
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            c.register(lifetime: invLifetime(lifetimeName)) { InvSingletonDatabase() }
        }
        #expect(fxStderr(result).contains("conforms to Singleton"))
    }

    @Test(arguments: ["transient", "graph", "weak"])
    func changingASingletonTypesLifetimeStops(_ lifetimeName: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [lifetimeName] in
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            c.register { InvSingletonDatabase() }.lifetime(invLifetime(lifetimeName))
        }
        #expect(fxStderr(result).contains("conforms to Singleton"))
    }

    @Test func aSingletonTypeMayBeGivenTheSingletonLifetime() {
        let c = Resolver()
        c.register { InvSingletonDatabase() }.lifetime(.singleton)
        c.register(qualifiedBy: InvLifetimeQualifier.self, lifetime: .singleton) { InvSingletonDatabase() }
        #expect(c.resolve(InvSingletonDatabase.self) === c.resolve(InvSingletonDatabase.self))
        #expect(
            c.resolve(InvSingletonDatabase.self, qualifiedBy: InvLifetimeQualifier.self)
                === c.resolve(InvSingletonDatabase.self, qualifiedBy: InvLifetimeQualifier.self))
    }

    @Test func registeringASingletonTypeWithArgumentsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            c.register(arguments: Int.self) { InvSingletonWithArgument($0) }
        }
        let text = fxStderr(result)
        #expect(text.contains("conforms to Singleton"))
        #expect(text.contains("arguments"))
    }

    // MARK: .lifetime(_:) takes effect or stops

    @Test func lifetimeOnAScopedRegistrationStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            c.register(scopedTo: InvLifetimeFlow.self) { InvFlowUser() }.lifetime(.singleton)
        }
        #expect(fxStderr(result).contains("scope"))
    }

    @Test func otherLifetimeOnAnInstanceRegistrationStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            c.registerSingleton(InvEarth()).lifetime(.transient)
        }
        #expect(fxStderr(result).contains("registerSingleton"))
    }

    @Test func singletonLifetimeOnAnInstanceRegistrationKeepsTheInstance() {
        let c = Resolver()
        let earth = InvEarth()
        c.registerSingleton(earth).lifetime(.singleton)
        #expect(c.resolve(InvEarth.self) === earth)
    }

    @Test(arguments: ["transient", "graph", "weak"])
    func lifetimeChangedDuringABuildLeavesNothingBehind(_ lifetimeName: String) {
        let c = Resolver()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let isFirstBuild = FxFlag(true)
        let registration = c.register(lifetime: .singleton) { () -> InvSlowBuilt in
            if isFirstBuild.value {
                isFirstBuild.value = false
                entered.signal()
                proceed.wait()
            }
            return InvSlowBuilt()
        }
        let builtBefore = FxRecorder<InvSlowBuilt>()
        let finished = DispatchSemaphore(value: 0)
        fxStartThread(finished) { builtBefore.append(c.resolve()) }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        registration.lifetime(invLifetime(lifetimeName))
        proceed.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        c.dropCached([InvSlowBuilt.self])
        // `builtBefore` still holds the instance built under the old lifetime.
        let old = builtBefore.values.first?.serial
        let first = c.resolve(InvSlowBuilt.self).serial
        let second = c.resolve(InvSlowBuilt.self).serial
        #expect(first != old)
        #expect(second != old)
        #expect(first != second, "nothing holds the instances, so each resolution builds one")
    }
}

enum InvLifetimeQualifier: Qualifier {}
