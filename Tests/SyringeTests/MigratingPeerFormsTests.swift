import Syringe
import Testing

// Twins of the Migrating article's rows for capabilities that Syringe spells another way: Factory's
// `@DynamicInjected`, `promised()` and `push()`/`pop()`, Resolver's lazy-wrapper arguments and
// Swinject's `print(container)`.

private final class MPClock {
    let serial = FxSerial.next()
}
private final class MPReport {
    let title: String
    init(title: String) { self.title = title }
}
private final class MPAnalytics {}

/// `@DynamicInjected`: a computed property resolves at every read.
private struct MPScreen {
    var clock: MPClock { Resolver.resolve() }
}

/// Resolver's `$report.args = …`: a `lazy var` resolves with its arguments at the first read.
private final class MPViewer {
    let title: String
    lazy var report: MPReport = Resolver.resolve(arguments: title)
    init(title: String) { self.title = title }
}

/// Factory's `promised()`: nil until another module registers it.
private final class MPTracker {
    @OptionalInject var analytics: MPAnalytics?
}

@Suite struct MigratingPeerFormsTests {
    @Test func aComputedPropertyResolvesAtEveryRead() {
        let r = Resolver()
        r.register { MPClock() }
        Resolver.withContainer(r) {
            let screen = MPScreen()
            #expect(screen.clock.serial != screen.clock.serial)
        }
    }

    @Test func aLazyVarResolvesWithItsArgumentsAtTheFirstRead() {
        let r = Resolver()
        let built = FxCounter()
        r.register(arguments: String.self) { title -> MPReport in
            built.increment()
            return MPReport(title: title)
        }
        Resolver.withContainer(r) {
            let viewer = MPViewer(title: "Q3")
            #expect(built.value == 0)
            #expect(viewer.report.title == "Q3")
            #expect(viewer.report === viewer.report)
            #expect(built.value == 1)
        }
    }

    @Test func aServiceAnotherModuleRegistersIsNilUntilItDoes() {
        let r = Resolver()
        Resolver.withContainer(r) {
            #expect(MPTracker().analytics == nil)
            #expect(r.optional(MPAnalytics.self) == nil)
            r.register { MPAnalytics() }
            #expect(MPTracker().analytics != nil)
        }
    }

    @Test func overridesInATestContainerEndWithIt() {
        let app = Resolver()
        app.register { MPReport(title: "live") }
        Resolver.withContainer(Resolver(isolatedChildOf: app)) {
            Resolver.register { MPReport(title: "mock") }
            #expect((Resolver.resolve() as MPReport).title == "mock")
        }
        #expect((app.resolve() as MPReport).title == "live")
    }

    @Test func theDependencyGraphListsTheRegistrations() {
        let r = Resolver()
        r.register { MPClock() }
        r.register { MPReport(title: "x") }
        let listing = "\(r.dependencyGraph())"
        #expect(listing.contains("MPClock") && listing.contains("MPReport"))
    }
}
