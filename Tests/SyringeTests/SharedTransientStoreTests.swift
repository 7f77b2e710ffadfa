import Syringe
import Testing

// Transient registrations of structs, enums and tuples share one store (nothing is kept in it).
// What must not follow: one registration's instance handed out for another's, where an instance
// waits in the resolution for its `initCompleted` step.

private struct StsLabel: Equatable { let text: String }
private struct StsCount: Equatable { let value: Int }

@Suite struct SharedTransientStoreTests {
    /// A step of one transient resolves another transient: each gets its own factory's instance.
    @Test func aStepResolvingAnotherTransientGetsThatOnesInstance() {
        let r = Resolver()
        let seen = Box<[StsCount]>([])
        r.register { StsCount(value: 7) }
        r.register { StsLabel(text: "label") }
            .initCompleted { r, _ in seen.value.append(r.resolve(StsCount.self)) }
        #expect(r.resolve(StsLabel.self) == StsLabel(text: "label"))
        #expect(r.resolve(StsLabel.self) == StsLabel(text: "label"))
        #expect(seen.value == [StsCount(value: 7), StsCount(value: 7)])
    }

    /// The same, with an async transient whose step waits with its instance while a synchronous
    /// transient of another type is resolved.
    @Test func anAsyncStepResolvingATransientGetsThatOnesInstance() async {
        let r = Resolver()
        let seen = Box<[StsCount]>([])
        r.register { StsCount(value: 3) }
        r.register { () async -> StsLabel in StsLabel(text: "async") }
            .initCompleted { r, label in
                seen.value.append(r.resolve(StsCount.self))
                #expect(label == StsLabel(text: "async"))
            }
        let first: StsLabel = await r.resolveAsync()
        let second: StsLabel = await r.resolveAsync()
        #expect([first, second] == [StsLabel(text: "async"), StsLabel(text: "async")])
        #expect(seen.value == [StsCount(value: 3), StsCount(value: 3)])
    }

    /// Changing one registration's lifetime leaves every other transient transient.
    @Test func aLifetimeChangeStaysWithItsRegistration() {
        let r = Resolver()
        let labels = Box(0)
        let counts = Box(0)
        r.register { () -> StsLabel in
            labels.value += 1
            return StsLabel(text: "\(labels.value)")
        }
        r.register { () -> StsCount in
            counts.value += 1
            return StsCount(value: counts.value)
        }
        .lifetime(.singleton)
        #expect(r.resolve(StsCount.self) == r.resolve(StsCount.self))
        #expect(r.resolve(StsLabel.self) != r.resolve(StsLabel.self))
        r.dropCached([StsCount.self])
        #expect(r.resolve(StsCount.self) == StsCount(value: 2))
        #expect(r.resolve(StsLabel.self) == StsLabel(text: "3"))
    }

    /// A container's default lifetime, read when each registration is bound, applies to each alone.
    @Test func theDefaultLifetimeIsReadWhenARegistrationIsBound() {
        let r = Resolver()
        let counts = Box(0)
        r.register { () -> StsLabel in StsLabel(text: "transient") }
        r.defaultLifetime = .singleton
        r.register { () -> StsCount in
            counts.value += 1
            return StsCount(value: counts.value)
        }
        r.defaultLifetime = .transient
        #expect(r.resolve(StsCount.self) == StsCount(value: 1))
        #expect(r.resolve(StsCount.self) == StsCount(value: 1))
        #expect(r.dependencyGraph().description.contains("singleton"))
    }
}

/// A value the tests' closures change; they run on the test's thread or task, one at a time.
private final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
