import Foundation
import Observation
import Syringe
import Testing

private final class PWService {
    let serial = FxSerial.next()
    let label: String
    init(_ label: String = "plain") { self.label = label }
}
private final class PWMissing {}
private final class PWHeldTarget: Sendable {
    static let shared = PWHeldTarget()
}
private enum PWQualifier: Qualifier {}
private enum PWScope: Scope {}

/// Containers named by `(container:)` selectors; a property-wrapper argument cannot see locals.
private enum PWContainers {
    static let inject = Resolver()
    static let lazy = Resolver()
    static let weak = Resolver()
    static let optional = Resolver()
}

private func registerSelectors(in r: Resolver, lifetime: Lifetime = .transient) {
    r.register(lifetime: lifetime) { PWService("plain") }
    r.register(qualifiedBy: PWQualifier.self, lifetime: lifetime) { PWService("qualified") }
    r.register(scopedTo: PWScope.self) { PWService("scoped") }
    r.register(PWService.self, scopedTo: PWScope.self, qualifiedBy: PWQualifier.self) { PWService("scopedQualified") }
    r.register(name: "named", lifetime: lifetime) { PWService("named") }
}

// MARK: @Inject

private final class InjectSelectors {
    @Inject var plain: PWService
    @Inject(PWQualifier.self) var qualified: PWService
    @Inject(PWScope.self) var scoped: PWService
    @Inject(PWScope.self, PWQualifier.self) var scopedQualified: PWService
    @Inject(name: "named") var named: PWService
    @Inject(container: PWContainers.inject) var fromContainer: PWService
    @Inject({ PWService("provided") }) var provided: PWService
    @Inject(PWService("auto")) var auto: PWService
}

private final class InjectOne {
    @Inject var service: PWService
}

private struct InjectInAStruct {
    @Inject var service: PWService
}

private final class InjectOuter {
    @Inject var inner: InjectOne
}

// MARK: @LazyInject

private final class LazySelectors {
    @LazyInject var plain: PWService
    @LazyInject(PWQualifier.self) var qualified: PWService
    @LazyInject(PWScope.self) var scoped: PWService
    @LazyInject(PWScope.self, PWQualifier.self) var scopedQualified: PWService
    @LazyInject(name: "named") var named: PWService
    @LazyInject(container: PWContainers.lazy) var fromContainer: PWService
    @LazyInject({ PWService("provided") }) var provided: PWService
    @LazyInject(PWService("auto")) var auto: PWService
}

private final class LazyOne {
    @LazyInject var service: PWService
}

/// Counts its instances; used by exactly one test.
private final class LazyProbe {
    static let built = FxCounter()
    init() { Self.built.increment() }
}

private final class LazyProbeHolder {
    @LazyInject({ LazyProbe() }) var provided: LazyProbe
    @LazyInject(LazyProbe()) var auto: LazyProbe
}

private final class LazyRaceHolder: @unchecked Sendable {
    @LazyInject var service: PWService
}

// MARK: @WeakInject

private final class WeakSelectors {
    @WeakInject var plain: PWService?
    @WeakInject(PWQualifier.self) var qualified: PWService?
    @WeakInject(PWScope.self) var scoped: PWService?
    @WeakInject(PWScope.self, PWQualifier.self) var scopedQualified: PWService?
    @WeakInject(name: "named") var named: PWService?
    @WeakInject(container: PWContainers.weak) var fromContainer: PWService?
    @WeakInject({ PWHeldTarget.shared }) var provided: PWHeldTarget?
    @WeakInject(PWHeldTarget.shared) var auto: PWHeldTarget?
}

private final class WeakOne {
    @WeakInject var service: PWService?
}

private final class WeakScoped {
    @WeakInject(PWScope.self) var service: PWService?
}

// MARK: @OptionalInject

private final class OptionalSelectors {
    @OptionalInject var plain: PWService?
    @OptionalInject(PWQualifier.self) var qualified: PWService?
    @OptionalInject(PWScope.self) var scoped: PWService?
    @OptionalInject(PWScope.self, PWQualifier.self) var scopedQualified: PWService?
    @OptionalInject(name: "named") var named: PWService?
    @OptionalInject(container: PWContainers.optional) var fromContainer: PWService?
    @OptionalInject({ PWService("provided") }) var provided: PWService?
    @OptionalInject(PWService("auto")) var auto: PWService?
    @OptionalInject var missing: PWMissing?
    @OptionalInject(name: "absent") var missingNamed: PWService?
}

@Suite struct PropertyWrapperTests {
    // MARK: @Inject

    @Test func injectTakesEverySelector() {
        let r = Resolver()
        registerSelectors(in: r)
        PWContainers.inject.register { PWService("container") }
        let holder = Resolver.withContainer(r) { InjectSelectors() }
        #expect(holder.plain.label == "plain")
        #expect(holder.qualified.label == "qualified")
        #expect(holder.scoped.label == "scoped")
        #expect(holder.scopedQualified.label == "scopedQualified")
        #expect(holder.named.label == "named")
        #expect(holder.fromContainer.label == "container")
        #expect(holder.provided.label == "provided")
        #expect(holder.auto.label == "auto")
    }

    @Test func injectResolvesWhenTheObjectIsCreated() {
        let r = Resolver()
        let built = FxCounter()
        r.register { () -> PWService in
            built.increment()
            return PWService()
        }
        let holder = Resolver.withContainer(r) { InjectOne() }
        #expect(built.value == 1)
        let first = holder.service
        let second = holder.service
        #expect(first === second)
        #expect(built.value == 1)
    }

    @Test func injectSharesAScopedInstanceBetweenObjects() {
        let r = Resolver()
        registerSelectors(in: r)
        PWContainers.inject.register { PWService("container") }
        let (a, b) = Resolver.withContainer(r) { (InjectSelectors(), InjectSelectors()) }
        #expect(a.scoped === b.scoped)
        #expect(a.scopedQualified === b.scopedQualified)
        #expect(a.scoped !== a.scopedQualified)
        #expect(a.plain !== b.plain)
    }

    @Test func injectInAStruct() {
        let r = Resolver()
        r.register { PWService("in struct") }
        let value = Resolver.withContainer(r) { InjectInAStruct() }
        #expect(value.service.label == "in struct")
    }

    @Test func injectInsideAFactoryUsesTheResolvingContainer() {
        let r = Resolver()
        r.register { PWService("from r") }
        r.register { InjectOne() }
        r.register { InjectOuter() }
        // No withContainer: the factory runs inside r's resolution.
        let one: InjectOne = r.resolve()
        let outer: InjectOuter = r.resolve()
        #expect(one.service.label == "from r")
        #expect(outer.inner.service.label == "from r")
    }

    @Test func injectUsesTheContainerCurrentAtCreation() {
        let r1 = Resolver()
        let r2 = Resolver()
        r1.register { PWService("one") }
        r2.register { PWService("two") }
        let a = Resolver.withContainer(r1) { InjectOne() }
        let b = Resolver.withContainer(r2) { InjectOne() }
        #expect(a.service.label == "one")
        #expect(b.service.label == "two")
    }

    // MARK: @LazyInject

    @Test func lazyInjectTakesEverySelector() {
        let r = Resolver()
        registerSelectors(in: r)
        PWContainers.lazy.register { PWService("container") }
        let holder = Resolver.withContainer(r) { LazySelectors() }
        #expect(holder.plain.label == "plain")
        #expect(holder.qualified.label == "qualified")
        #expect(holder.scoped.label == "scoped")
        #expect(holder.scopedQualified.label == "scopedQualified")
        #expect(holder.named.label == "named")
        #expect(holder.fromContainer.label == "container")
        #expect(holder.provided.label == "provided")
        #expect(holder.auto.label == "auto")
    }

    @Test func lazyInjectResolvesOnFirstAccessOnly() {
        let r = Resolver()
        let built = FxCounter()
        r.register { () -> PWService in
            built.increment()
            return PWService()
        }
        let holder = Resolver.withContainer(r) { LazyOne() }
        #expect(built.value == 0)
        let first = holder.service
        #expect(built.value == 1)
        let second = holder.service
        #expect(first === second)
        #expect(built.value == 1)
    }

    @Test func lazyInjectProviderAndAutoclosureRunOnFirstReadOnly() {
        let holder = LazyProbeHolder()
        #expect(LazyProbe.built.value == 0)
        _ = holder.provided
        #expect(LazyProbe.built.value == 1)
        _ = holder.auto
        #expect(LazyProbe.built.value == 2)
        _ = holder.provided
        _ = holder.auto
        #expect(LazyProbe.built.value == 2)
    }

    @Test func lazyInjectKeepsTheContainerCurrentAtCreation() {
        let r1 = Resolver()
        let r2 = Resolver()
        r1.register { PWService("one") }
        r2.register { PWService("two") }
        let holder = Resolver.withContainer(r1) { LazyOne() }
        let label = Resolver.withContainer(r2) { holder.service.label }
        #expect(label == "one")
    }

    @Test func lazyInjectReadOutsideAnyContainerBinding() {
        let r = Resolver()
        r.register { PWService("from r") }
        let holder = Resolver.withContainer(r) { LazyOne() }
        #expect(holder.service.label == "from r")
    }

    @Test func lazyInjectResolvesExactlyOnceWhenTwoThreadsRead() {
        let r = Resolver()
        let built = FxCounter()
        r.register { () -> PWService in
            built.increment()
            usleep(50_000)  // widen the window in which a second reader could slip in
            return PWService()
        }
        let holder = Resolver.withContainer(r) { LazyRaceHolder() }
        let seen = FxRecorder<Int>()
        let finished = fxRunThreads(2) { _ in seen.append(holder.service.serial) }
        #expect(finished)
        #expect(built.value == 1)
        #expect(Set(seen.values).count == 1)
        #expect(seen.values.count == 2)
    }

    // MARK: @WeakInject

    @Test func weakInjectTakesEverySelector() {
        let r = Resolver()
        registerSelectors(in: r, lifetime: .singleton)
        PWContainers.weak.register(lifetime: .singleton) { PWService("container") }
        let keepScoped: PWService = r.resolve(scopedTo: PWScope.self)
        let keepScopedQualified: PWService = r.resolve(scopedTo: PWScope.self, qualifiedBy: PWQualifier.self)
        let holder = Resolver.withContainer(r) { WeakSelectors() }
        #expect(holder.plain?.label == "plain")
        #expect(holder.qualified?.label == "qualified")
        #expect(holder.scoped === keepScoped)
        #expect(holder.scopedQualified === keepScopedQualified)
        #expect(holder.named?.label == "named")
        #expect(holder.fromContainer?.label == "container")
        #expect(holder.provided === PWHeldTarget.shared)
        #expect(holder.auto === PWHeldTarget.shared)
    }

    @Test func weakInjectDoesNotKeepATransientAlive() {
        let r = Resolver()
        r.register { PWService() }
        let holder = Resolver.withContainer(r) { WeakOne() }
        #expect(holder.service == nil)
    }

    @Test func weakInjectFollowsTheHeldObject() {
        let r = Resolver()
        r.register(scopedTo: PWScope.self) { PWService("scoped") }
        var keep: PWService? = r.resolve(scopedTo: PWScope.self)
        let holder = Resolver.withContainer(r) { WeakScoped() }
        #expect(holder.service != nil)
        #expect(holder.service === keep)
        keep = nil
        #expect(holder.service == nil)
    }

    // MARK: @OptionalInject

    @Test func optionalInjectTakesEverySelector() {
        let r = Resolver()
        registerSelectors(in: r)
        PWContainers.optional.register { PWService("container") }
        let holder = Resolver.withContainer(r) { OptionalSelectors() }
        #expect(holder.plain?.label == "plain")
        #expect(holder.qualified?.label == "qualified")
        #expect(holder.scoped?.label == "scoped")
        #expect(holder.scopedQualified?.label == "scopedQualified")
        #expect(holder.named?.label == "named")
        #expect(holder.fromContainer?.label == "container")
        #expect(holder.provided?.label == "provided")
        #expect(holder.auto?.label == "auto")
        #expect(holder.missing == nil)
        #expect(holder.missingNamed == nil)
    }

    @Test func optionalInjectIsNilWhenNothingIsRegistered() {
        let r = Resolver()
        let holder = Resolver.withContainer(r) { OptionalSelectors() }
        #expect(holder.plain == nil)
        #expect(holder.qualified == nil)
        #expect(holder.scoped == nil)
        #expect(holder.named == nil)
        // Explicit providers do not depend on registrations.
        #expect(holder.provided?.label == "provided")
    }

    @Test func optionalInjectHoldsStrongly() {
        let r = Resolver()
        registerSelectors(in: r)
        let holder = Resolver.withContainer(r) { OptionalSelectors() }
        // Scoped instance: the holder is its only owner, and keeps it.
        let weak = FxWeak(holder.scoped)
        #expect(weak.object != nil)
        #expect(holder.scoped === weak.object)
    }
}

/// README, property wrappers: in an `@Observable` class each wrapped property is
/// `@ObservationIgnored`.
@Observable final class PWObservedModel {
    @ObservationIgnored @Inject var service: PWObservedService
    @ObservationIgnored @LazyInject var lazyService: PWObservedService
    var count = 0
}

final class PWObservedService {}

@Suite struct ObservationTests {
    @Test func anObservableModelWithIgnoredWrappers() {
        let r = Resolver()
        r.register(lifetime: .singleton) { PWObservedService() }
        r.register { PWObservedModel() }
        let model: PWObservedModel = r.resolve()
        #expect(model.service === model.lazyService)
        model.count += 1
        #expect(model.count == 1)
    }
}
