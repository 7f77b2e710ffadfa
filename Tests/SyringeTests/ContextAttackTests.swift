import Foundation
import Syringe
import SyringeTesting
import Testing

// Context factories under attack: the lifetimes and containers they meet, registrations that
// change while they are resolved, their failures, async and main-actor registrations.

private final class CxService {
    let kind: String
    let serial = FxSerial.next()
    init(_ kind: String) { self.kind = kind }
}

private final class CxRepository {}

private final class CxAutowired {
    let kind: String
    init(repository: CxRepository) { kind = "live" }
    init(kind: String) { self.kind = kind }
}

private struct CxFailure: Error {}

private func testContext() -> Resolver.Context { Resolver.Context(isTest: true) }

@Suite struct ContextAttackTests {
    @Test func aTestFactoryReplacesAnInstanceGivenToRegisterSingleton() {
        let resolver = Resolver()
        resolver.context = testContext()
        let live = CxService("live")
        resolver.registerSingleton(live)
            .onTest { CxService("test") }
        let first: CxService = resolver.resolve()
        #expect(first.kind == "test")
        #expect(first === resolver.resolve() as CxService)  // still a singleton
        resolver.context = Resolver.Context()
        let other = Resolver(isolatedChildOf: resolver)
        other.context = Resolver.Context()
        #expect(other.resolve() as CxService === live)  // its own factory hands out the instance given
    }

    @Test func aTestFactoryAddedLaterReachesATestContainerThatKeptAnInstance() {
        let parent = Resolver()
        parent.context = testContext()
        let registration = parent.register(lifetime: .singleton) { CxService("live") }
        let container = Resolver(isolatedChildOf: parent)
        #expect((container.resolve() as CxService).kind == "live")
        registration.onTest { CxService("test") }
        #expect((parent.resolve() as CxService).kind == "test")
        #expect((container.resolve() as CxService).kind == "test")
    }

    @Test func aTestFactoryAddedDuringABuildIsNotUndoneByIt() {
        let resolver = Resolver()
        resolver.context = testContext()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let registration = resolver.register(lifetime: .singleton) { () -> CxService in
            started.signal()
            proceed.wait()
            return CxService("live")
        }
        let finished = DispatchSemaphore(value: 0)
        let building = FxRecorder<String>()
        fxStartThread(finished) { building.append((resolver.resolve() as CxService).kind) }
        started.wait()
        registration.onTest { CxService("test") }
        proceed.signal()
        finished.wait()
        #expect(building.values == ["live"])  // it began before the test factory was given
        #expect((resolver.resolve() as CxService).kind == "test")
    }

    @Test func verifyDoesNotAskForTheOwnFactorysDependenciesWhenAContextFactoryBuilds() {
        let resolver = Resolver()
        resolver.context = testContext()
        resolver.autoregister(CxAutowired.init(repository:))
            .onTest { CxAutowired(kind: "test") }
        #expect((resolver.resolve() as CxAutowired).kind == "test")
        let report = resolver.verify()
        #expect(report.isValid, "\(report)")
        #expect(report.contextFactories == ["CxAutowired: its test factory"])
        resolver.context = Resolver.Context()
        #expect(!resolver.verify().isValid)  // its own factory needs CxRepository
    }

    @Test func aContextFactoryThatResolvesItselfIsACycle() {
        let resolver = Resolver()
        resolver.context = testContext()
        resolver.register { CxService("live") }
            .onTest { r in try r.tryResolve() as CxService }
        #expect {
            let _: CxService = try resolver.tryResolve()
        } throws: { error in
            fxContainsIgnoringCase("\(error)", "cycle") && "\(error)".contains("CxService")
        }
    }

    @Test func aContextFactorysErrorIsWrappedWithItsPath() {
        let resolver = Resolver()
        resolver.context = testContext()
        resolver.register { CxRepository() }
            .onTest { () throws -> CxRepository in throw CxFailure() }
        resolver.register { r in CxAutowired(repository: try r.tryResolve()) }
        #expect {
            let _: CxAutowired = try resolver.tryResolve()
        } throws: { error in
            let text = "\(error)"
            return text.contains("CxFailure") && text.contains("CxAutowired") && text.contains("CxRepository")
        }
    }

    @Test func aContextFactoryResolvesDeeply() {
        let resolver = Resolver()
        resolver.context = testContext()
        for depth in 0..<40 {
            resolver.register(Int.self, name: "\(depth)") {
                depth == 0 ? 0 : (resolver.resolve(name: "\(depth - 1)") as Int) + 100
            }
            .onTest { r in depth == 0 ? 0 : (r.resolve(name: "\(depth - 1)") as Int) + 1 }
        }
        #expect((resolver.resolve(name: "39") as Int) == 39)
    }

    @Test func aliasesMadeBeforeAndAfterTheTestFactoryBothReachIt() {
        let resolver = Resolver()
        resolver.context = testContext()
        resolver.register(lifetime: .singleton) { ContextAPIImpl("live") }
            .implements(ContextAPI.self)
            .onTest { ContextAPIImpl("test") }
            .implements(AnyObject.self)
        let viaBefore: ContextAPI = resolver.resolve()
        let viaAfter: AnyObject = resolver.resolve()
        #expect(viaBefore.kind == "test")
        #expect(viaBefore === viaAfter)
    }

    @Test(arguments: [Lifetime.transient, .graph, .singleton, .weak, .timeToLive(.seconds(60))])
    func everyLifetimeBuildsWithTheContextFactory(lifetime: Lifetime) {
        let resolver = Resolver()
        resolver.context = testContext()
        resolver.register(lifetime: lifetime) { CxService("live") }
            .onTest { CxService("test") }
        let kept: CxService = resolver.resolve()
        #expect(kept.kind == "test")
        #expect((Resolver(isolatedChildOf: resolver).resolve() as CxService).kind == "test")
        let plain = Resolver(parent: resolver)
        plain.context = Resolver.Context()
        let expected = lifetime == .transient || lifetime == .graph ? "live" : "test"
        #expect((plain.resolve() as CxService).kind == expected)
    }

    @Test func aScopedRegistrationBuildsWithTheContextFactory() {
        let resolver = Resolver()
        resolver.context = testContext()
        resolver.register(scopedTo: CxScope.self) { CxService("live") }
            .onTest { CxService("test") }
        let first: CxService = resolver.resolve(scopedTo: CxScope.self)
        #expect(first.kind == "test")
        #expect(first === resolver.resolve(scopedTo: CxScope.self) as CxService)
    }

    @Test func anAsyncRegistrationWithATestFactoryResolvesEveryWay() async throws {
        let resolver = Resolver()
        resolver.context = testContext()
        resolver.register { () async -> CxService in CxService("live") }
            .onTest { CxService("test") }
        #expect((try await resolver.tryResolveAsync() as CxService).kind == "test")
        #expect((await resolver.resolveAsync() as CxService).kind == "test")
        #expect((resolver.resolve() as CxService).kind == "test")  // the test factory is synchronous
        let report = await resolver.verifyAsync()
        #expect(report.isValid, "\(report)")
        #expect(report.contextFactories == ["CxService: its test factory"])
        resolver.context = Resolver.Context()
        #expect((try await resolver.tryResolveAsync() as CxService).kind == "live")
    }

    @Test func aContextChangedWhileManyThreadsResolveGivesOneOfTheFactories() {
        let resolver = Resolver()
        resolver.register { CxService("live") }
            .onTest { CxService("test") }
            .onArgument("-a") { CxService("argument") }
        resolver.register(lifetime: .singleton) { ContextLog("live") }
            .onTest { ContextLog("test") }
        let unexpected = FxCounter()
        let finished = fxRunThreads(6) { index in
            for round in 0..<300 {
                if index == 0 {
                    resolver.context = round.isMultiple(of: 2) ? testContext() : Resolver.Context(arguments: ["-a"])
                } else if index == 1 {
                    let child = Resolver(isolatedChildOf: resolver)
                    child.context.arguments.append("-a")
                    if (child.resolve() as CxService).kind != "argument" { unexpected.increment() }
                    _ = child.resolve() as ContextLog
                } else {
                    let kind = (resolver.resolve() as CxService).kind
                    if kind == "live" { unexpected.increment() }
                    _ = resolver.resolve() as ContextLog
                }
            }
        }
        #expect(finished)
        #expect(unexpected.value == 0)
    }

    @Test func testFactoriesAddedWhileManyThreadsResolve() {
        let resolver = Resolver()
        resolver.context = testContext()
        let registrations = (0..<20).map { index in
            resolver.register(name: "\(index)", lifetime: index.isMultiple(of: 2) ? .singleton : .transient) {
                CxService("live")
            }
        }
        let seenAfter = FxCounter()
        let finished = fxRunThreads(4) { index in
            if index == 0 {
                for registration in registrations { registration.onTest { CxService("test") } }
            } else {
                for _ in 0..<200 {
                    for name in 0..<20 { _ = resolver.resolve(name: "\(name)") as CxService }
                }
            }
        }
        #expect(finished)
        for name in 0..<20 where (resolver.resolve(name: "\(name)") as CxService).kind == "test" {
            seenAfter.increment()
        }
        #expect(seenAfter.value == 20)
    }

    @Test func aMainActorRegistrationWithATestFactory() async {
        let resolver = Resolver()
        resolver.context = testContext()
        await MainActor.run {
            resolver.register { @MainActor in CxService("live") }
                .onTest { CxService("test") }
        }
        let kind = await MainActor.run { (resolver.resolve() as CxService).kind }
        #expect(kind == "test")
        let offMain = await Task.detached { () -> String in
            do {
                let _: CxService = try resolver.tryResolve()
                return "built"
            } catch {
                return "\(error)"
            }
        }.value
        #expect(offMain.contains("main actor"))
    }

    @Test func theGraphAndVerifyOfAPlainChildSayTheChildsContext() {
        let parent = Resolver()
        parent.context = Resolver.Context()
        parent.register { CxService("live") }
            .onTest { CxService("test") }
        let child = Resolver(parent: parent)
        child.context = testContext()
        let report = child.verify()
        #expect(report.isValid)
        #expect(report.context == testContext())
        #expect(report.contextFactories == ["CxService: its test factory"])
        #expect(child.dependencyGraph().nodes.first { $0.title == "CxService" }?.contexts == ["test"])
    }
}

private enum CxScope: Scope {}
