import Foundation
import Testing

@testable import Syringe

// Locks the full text of every message Syringe prints (SPEC.md §3, STYLE.md §5): thrown errors
// through `tryResolve` and `error.description`, stops through exit tests and standard error.
// Each test names its container with an id of its own, since the container appears in the text.
// Fixture types are internal so that their names print without a private-context prefix.

protocol MsgNetworkServiceProtocol: AnyObject {}
final class MsgNetworkService: MsgNetworkServiceProtocol {}
protocol MsgTicking: AnyObject {}
final class MsgSystemClock: MsgTicking {}
final class MsgMissing {}
final class MsgClient {}
enum MsgStaging: Qualifier {}
enum MsgFlow: Scope {}
final class MsgInner {}
final class MsgOuter {
    init(inner: MsgInner) {}
}
final class MsgTop {
    init(outer: MsgOuter) {}
}
final class MsgArgs {
    init(_ text: String, _ number: Int) {}
}
final class MsgThing {}
final class MsgCycleA {
    init(b: MsgCycleB) {}
}
final class MsgCycleB {
    init(a: MsgCycleA) {}
}
struct MsgDiskError: Error, Equatable, CustomStringConvertible {
    let code: Int
    var description: String { "disk \(code) is on fire" }
}
final class MsgThrowing {}
final class MsgNeedsThrowing {
    init(_ dependency: MsgThrowing) {}
}
struct MsgValue {}
protocol MsgUnrelated {}
final class MsgPlain {}
@MainActor final class MsgMainModel {}
final class MsgMainConsumer {
    init(model: MsgMainModel) {}
}
enum MsgMainActorHook: MainActorResolverRegistering {
    @MainActor static func registerAllServices() {}
}
final class MsgDuplicate {}
final class MsgDeep {}
protocol MsgPeer: AnyObject {}
final class MsgSelfNeeding: MsgPeer {
    init(peer: any MsgPeer) {}
}
final class MsgLazyDependency {}
enum MsgKindsA {
    final class Widget {}
}
enum MsgKindsB {
    final class Widget {}
    protocol Gadget {}
}
enum MsgKindsC {
    final class Gadget {}
}
struct MsgCrate<Value> {}
protocol MsgRoutes: AnyObject {}
final class MsgRouter: MsgRoutes {}
final class MsgRouteScreen {
    init(routes: any MsgRoutes) {}
}
final class MsgPairUser {
    init(_ text: String, _ routes: any MsgRoutes) {}
}
/// Shares its name with `Swift.Hasher` on purpose: two top-level types of different modules
/// that read the same, which messages must tell apart.
struct Hasher {}

final class MsgWrappedA {
    static let injectLine = #line + 1
    @Inject var b: MsgWrappedB
}

final class MsgWrappedB {
    static let injectLine = #line + 1
    @Inject var a: MsgWrappedA
}

final class MsgSiteHolder {
    static let injectLine = #line + 1
    @Inject var missing: MsgMissing
}

final class MsgQualifiedSiteHolder {
    static let injectLine = #line + 1
    @Inject(MsgStaging.self) var client: MsgClient
}

final class MsgLazyHolder {
    static let injectLine = #line + 1
    @LazyInject var dependency: MsgLazyDependency
}

/// Registers `MsgDuplicate` twice; the two registration lines are known to the test.
enum MsgDuplicateSites {
    static let first = #line + 3
    static let second = #line + 3
    static func registerTwice(in resolver: Resolver) {
        resolver.register { MsgDuplicate() }
        resolver.register { MsgDuplicate() }
    }
}

/// The `#fileID` that registration and request sites of this file print as.
private let msgFile = "SyringeTests/ErrorMessageTests.swift"

/// The line of a message saying that the value was asked for on `line` of this file.
private func requestedAt(_ line: Int) -> String {
    "  requested at \(msgFile):\(line)"
}

private func lines(_ lines: String...) -> String {
    lines.joined(separator: "\n")
}

final class MsgPlugin {}

/// A resolving call that stops the program, on a line the tests know (every call written in an
/// exit test's body is at the line of its `#expect`).
enum MsgStoppingCall: String, Codable, Sendable, CaseIterable {
    case resolve, staticResolve, optional, resolveAll

    /// The line of `.resolve`'s call in `run()`; the others follow it, one a line.
    private static let firstCallLine = #line + 4
    func run() {
        let r = makeContainer()
        switch self {
        case .resolve: _ = r.resolve(MsgMissing.self)
        case .staticResolve: Resolver.withContainer(r) { _ = Resolver.resolve(MsgMissing.self) }
        case .optional: _ = r.optional(MsgThrowing.self)
        case .resolveAll: _ = r.resolveAll(MsgPlugin.self)
        }
    }

    private func makeContainer() -> Resolver {
        let r = Resolver(id: "msg-stop-\(rawValue)")
        r.register(MsgThrowing.self) { throw MsgDiskError(code: 5) }
        r.register(name: "logging") { MsgPlugin() }
        r.register(MsgPlugin.self, name: "metrics") { throw MsgDiskError(code: 6) }
        return r
    }

    var line: Int { Self.firstCallLine + Self.allCases.firstIndex(of: self)! }

    /// The message the stop prints.
    var message: String {
        let container = "  in container msg-stop-\(rawValue)"
        switch self {
        case .resolve, .staticResolve:
            return lines(
                "Syringe: no registration for MsgMissing", container, requestedAt(line),
                "  register it first, e.g. Resolver.register { MsgMissing(…) }")
        case .optional:
            return lines(
                "Syringe: the factory for MsgThrowing threw an error: disk 5 is on fire", container, requestedAt(line))
        case .resolveAll:
            return lines(
                "Syringe: the factory for MsgPlugin named \"metrics\" threw an error: disk 6 is on fire", container,
                requestedAt(line))
        }
    }
}

/// The `ResolutionError` that `body` throws, or nil.
private func thrown<T>(_ body: () throws -> T) -> ResolutionError? {
    do {
        _ = try body()
        return nil
    } catch let error as ResolutionError {
        return error
    } catch {
        Issue.record("expected a ResolutionError, got \(error)")
        return nil
    }
}

/// Holds what a background thread saw.
private final class MsgBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Runs `body` on a new thread with a roomy stack and waits (at most a minute) for it.
private func onThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    return done.wait(timeout: .now() + 60) == .success
}

private final class MsgNode {
    var next: MsgNode?
}

@Suite struct ErrorMessageTests {
    /// Diagnostics article: an error an `initCompleted` step throws is reported as the step's, not the
    /// factory's, on the synchronous and the async path; nothing is kept, so the next resolution
    /// builds again.
    @Test func anErrorThrownByAStepNamesTheStep() async throws {
        let r = Resolver()
        let attempts = FxCounter()
        r.register(lifetime: .singleton) { MsgThrowing() }
            .initCompleted { _, _ in if attempts.increment() == 1 { throw MsgDiskError(code: 8) } }
        let first = thrown { try r.tryResolve(MsgThrowing.self) }
        #expect(
            first?.description.hasPrefix("Syringe: an initCompleted step of MsgThrowing threw an error: disk 8") == true
        )
        #expect(first?.underlyingError as? MsgDiskError == MsgDiskError(code: 8))
        _ = try r.tryResolve(MsgThrowing.self)
        #expect(attempts.value == 2)
        r.register(lifetime: .singleton) { () async -> MsgPlugin in MsgPlugin() }
            .initCompleted { _, _ in throw MsgDiskError(code: 9) }
        do {
            _ = try await r.tryResolveAsync(MsgPlugin.self)
            Issue.record("the step's error was not thrown")
        } catch let error as ResolutionError {
            #expect(error.description.hasPrefix("Syringe: an initCompleted step of MsgPlugin threw an error: disk 9"))
        }
        // The factory's own error still names the factory.
        r.register(MsgThrowing.self, name: "broken") { throw MsgDiskError(code: 10) }
        let factory = thrown { try r.tryResolve(MsgThrowing.self, name: "broken") }
        #expect(factory?.description.hasPrefix("Syringe: the factory for MsgThrowing named \"broken\" threw") == true)
    }

    // MARK: Missing registrations

    @Test func missingPlainRegistration() {
        let r = Resolver(id: "msg-missing-plain")
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgMissing.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgMissing",
                    "  in container msg-missing-plain",
                    requestedAt(line),
                    "  register it first, e.g. Resolver.register { MsgMissing(…) }"))
        #expect(error?.requested == "MsgMissing")
        #expect(error?.path == ["MsgMissing"])
        #expect(error?.container == "msg-missing-plain")
        #expect(error?.site == "\(msgFile):\(line)")
    }

    @Test func missingQualifiedRegistration() {
        let r = Resolver(id: "msg-missing-qualified")
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgMissing.self, qualifiedBy: MsgStaging.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgMissing qualified by MsgStaging",
                    "  in container msg-missing-qualified",
                    requestedAt(line),
                    "  register it first, e.g. Resolver.register(qualifiedBy: MsgStaging.self) { MsgMissing(…) }"))
    }

    @Test func missingNamedRegistration() {
        let r = Resolver(id: "msg-missing-named")
        let error = thrown { try r.tryResolve(MsgMissing.self, name: "croissant") }
        #expect(error?.requested == "MsgMissing named \"croissant\"")
        #expect(
            error?.description.hasPrefix(
                lines(
                    "Syringe: no registration for MsgMissing named \"croissant\"",
                    "  in container msg-missing-named"))
                == true)
    }

    /// The fix offered for a missing named registration must register it under that name:
    /// `Resolver.register { MsgMissing(…) }` would not serve the request.
    @Test func missingNamedRegistrationSuggestsRegisteringUnderTheName() {
        let r = Resolver(id: "msg-missing-named-fix")
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgMissing.self, name: "croissant") }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgMissing named \"croissant\"",
                    "  in container msg-missing-named-fix",
                    requestedAt(line),
                    "  register it first, e.g. Resolver.register(name: \"croissant\") { MsgMissing(…) }"))
    }

    @Test func missingScopedRegistration() {
        let r = Resolver(id: "msg-missing-scoped")
        let error = thrown { try r.tryResolve(MsgMissing.self, scopedTo: MsgFlow.self) }
        #expect(error?.requested == "MsgMissing in scope MsgFlow")
        #expect(
            error?.description.hasPrefix(
                lines(
                    "Syringe: no registration for MsgMissing in scope MsgFlow",
                    "  in container msg-missing-scoped"))
                == true)
    }

    /// As for names, the offered fix for a scoped request must register it in that scope.
    @Test func missingScopedRegistrationSuggestsRegisteringInTheScope() {
        let r = Resolver(id: "msg-missing-scoped-fix")
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgMissing.self, scopedTo: MsgFlow.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgMissing in scope MsgFlow",
                    "  in container msg-missing-scoped-fix",
                    requestedAt(line),
                    "  register it first, e.g. Resolver.register(scopedTo: MsgFlow.self) { MsgMissing(…) }"))
    }

    @Test func missingDependencyShowsTheResolutionPath() {
        let r = Resolver(id: "msg-path")
        r.register { try MsgTop(outer: $0.tryResolve()) }
        let line = #line + 1
        r.register { try MsgOuter(inner: $0.tryResolve()) }
        let error = thrown { try r.tryResolve(MsgTop.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgInner",
                    "  while resolving MsgTop → MsgOuter → MsgInner",
                    "  in container msg-path",
                    requestedAt(line),
                    "  register it first, e.g. Resolver.register { MsgInner(…) }"))
        #expect(error?.path == ["MsgTop", "MsgOuter", "MsgInner"])
    }

    @Test func pathShowsQualifiersScopesAndNames() {
        let r = Resolver(id: "msg-path-selectors")
        r.register(MsgTop.self, name: "top") { try MsgTop(outer: $0.tryResolve(qualifiedBy: MsgStaging.self)) }
        r.register(MsgOuter.self, qualifiedBy: MsgStaging.self) {
            _ = try $0.tryResolve(MsgPlain.self, scopedTo: MsgFlow.self)
            return MsgOuter(inner: MsgInner())
        }
        let error = thrown { try r.tryResolve(MsgTop.self, name: "top") }
        #expect(error?.path == ["MsgTop<\"top\">", "MsgOuter<MsgStaging>", "MsgPlain<scope: MsgFlow>"])
        #expect(
            error?.description.hasPrefix(
                lines(
                    "Syringe: no registration for MsgPlain in scope MsgFlow",
                    "  while resolving MsgTop<\"top\"> → MsgOuter<MsgStaging> → MsgPlain<scope: MsgFlow>",
                    "  in container msg-path-selectors"))
                == true)
    }

    @Test func missingThroughAChildNamesTheChild() {
        let parent = Resolver(id: "msg-child-parent")
        let child = Resolver(parent: parent)
        let error = thrown { try child.tryResolve(MsgMissing.self) }
        #expect(child.name.hasSuffix(" of msg-child-parent"))
        #expect(error?.container == child.name)
        #expect(error?.description.contains("\n  in container \(child.name)\n") == true)
    }

    // MARK: Near matches

    @Test func concreteTypeRegisteredButProtocolRequested() {
        let r = Resolver(id: "msg-implements-hint")
        r.register { MsgNetworkService() }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgNetworkServiceProtocol.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgNetworkServiceProtocol",
                    "  in container msg-implements-hint",
                    requestedAt(line),
                    "  MsgNetworkService is registered; to serve MsgNetworkServiceProtocol add "
                        + ".implements(MsgNetworkServiceProtocol.self) to its registration"))
    }

    @Test func cachedInstanceOfTheProtocolSuggestsImplementsWhateverItsName() {
        let r = Resolver(id: "msg-implements-cached")
        r.register(lifetime: .singleton) { MsgSystemClock() }
        _ = r.resolve(MsgSystemClock.self)
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgTicking.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgTicking",
                    "  in container msg-implements-cached",
                    requestedAt(line),
                    "  MsgSystemClock is registered; to serve MsgTicking add "
                        + ".implements(MsgTicking.self) to its registration"))
    }

    @Test func sameTypeUnderAnotherQualifier() {
        let r = Resolver(id: "msg-other-qualifier")
        r.register(qualifiedBy: MsgStaging.self) { MsgClient() }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgClient.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgClient",
                    "  in container msg-other-qualifier",
                    requestedAt(line),
                    "  MsgClient is registered under qualifier MsgStaging; resolve it with (qualifiedBy: MsgStaging.self)"
                ))
    }

    @Test func sameTypeUnderAnotherName() {
        let r = Resolver(id: "msg-other-name")
        r.register(name: "blue") { MsgClient() }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgClient.self, name: "green") }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgClient named \"green\"",
                    "  in container msg-other-name",
                    requestedAt(line),
                    "  MsgClient is registered with name \"blue\"; resolve it with (name: \"blue\")"))
    }

    @Test func sameTypeInAScope() {
        let r = Resolver(id: "msg-other-scope")
        r.register(scopedTo: MsgFlow.self) { MsgClient() }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgClient.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgClient",
                    "  in container msg-other-scope",
                    requestedAt(line),
                    "  MsgClient is registered in scope MsgFlow; resolve it with (scopedTo: MsgFlow.self)"))
    }

    @Test func sameTypeWithoutSelectorsWhenAQualifierIsAskedFor() {
        let r = Resolver(id: "msg-no-selectors")
        r.register { MsgClient() }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgClient.self, qualifiedBy: MsgStaging.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgClient qualified by MsgStaging",
                    "  in container msg-no-selectors",
                    requestedAt(line),
                    "  MsgClient is registered without qualifier, scope or name; resolve it without selectors, "
                        + "or register it with the ones asked for"))
    }

    @Test func everyNearMatchIsListed() {
        let r = Resolver(id: "msg-all-matches")
        r.register(qualifiedBy: MsgStaging.self) { MsgClient() }
        r.register(name: "blue") { MsgClient() }
        let error = thrown { try r.tryResolve(MsgClient.self) }
        #expect(
            error?.suggestions.sorted() == [
                "MsgClient is registered under qualifier MsgStaging; resolve it with (qualifiedBy: MsgStaging.self)",
                "MsgClient is registered with name \"blue\"; resolve it with (name: \"blue\")",
            ])
    }

    @Test func registeredWithOtherArgumentTypes() {
        let r = Resolver(id: "msg-argument-types")
        r.register(arguments: String.self, Int.self) { MsgArgs($0, $1) }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgArgs.self, arguments: 42) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgArgs with arguments (Int)",
                    "  in container msg-argument-types",
                    requestedAt(line),
                    "  MsgArgs is registered with arguments (String, Int), called with (Int): pass 2 arguments"))
    }

    @Test func registeredWithArgumentsButResolvedWithout() {
        let r = Resolver(id: "msg-no-arguments")
        r.register(arguments: String.self, Int.self) { MsgArgs($0, $1) }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgArgs.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgArgs",
                    "  in container msg-no-arguments",
                    requestedAt(line),
                    "  MsgArgs is registered with arguments (String, Int), called without arguments: "
                        + "pass them: resolve(arguments: …)"))
    }

    @Test func registeredWithoutArgumentsButResolvedWithSome() {
        let r = Resolver(id: "msg-unexpected-arguments")
        r.register { MsgThing() }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgThing.self, arguments: true) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgThing with arguments (Bool)",
                    "  in container msg-unexpected-arguments",
                    requestedAt(line),
                    "  MsgThing is registered without arguments, called with (Bool): resolve it without arguments"))
    }

    @Test func optionalRegisteredButNonOptionalRequested() {
        let r = Resolver(id: "msg-optional")
        r.register(MsgThing?.self) { MsgThing() }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgThing.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgThing",
                    "  in container msg-optional",
                    requestedAt(line),
                    "  Optional<MsgThing> is registered; resolve it as MsgThing? or register MsgThing itself"))
    }

    /// Once the registered Optional has a cached instance, the hint must stay the Optional one:
    /// `.implements(MsgThing.self)` on an `Optional<MsgThing>` registration cannot be written.
    @Test func cachedOptionalSingletonStillGetsTheOptionalHint() {
        let r = Resolver(id: "msg-optional-cached")
        r.register(MsgThing?.self, lifetime: .singleton) { MsgThing() }
        _ = r.resolve(MsgThing?.self)
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgThing.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgThing",
                    "  in container msg-optional-cached",
                    requestedAt(line),
                    "  Optional<MsgThing> is registered; resolve it as MsgThing? or register MsgThing itself"))
    }

    /// A registration that needs the protocol it implements: the loop closes on the
    /// `.implements` key, which the registration itself serves.
    @Test func cycleThroughAnImplementedProtocol() {
        let r = Resolver(id: "msg-cycle-implements")
        let line = #line + 1
        r.register { try MsgSelfNeeding(peer: $0.tryResolve()) }.implements(MsgPeer.self)
        let error = thrown { try r.tryResolve(MsgSelfNeeding.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: dependency cycle while resolving MsgPeer",
                    "  cycle: MsgSelfNeeding → MsgPeer",
                    "  in container msg-cycle-implements",
                    requestedAt(line),
                    "  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created"
                ))
    }

    /// A transient whose `initCompleted` step resolves its own type: the loop names the step, and
    /// the fix is a shared lifetime (the generic advice, which names `initCompleted`, is left out).
    @Test func aCycleThroughATransientsStepNamesTheStepAndTheFix() {
        let r = Resolver(id: "msg-step-cycle")
        let line = #line + 1
        r.register { MsgNode() }.initCompleted { resolver, node in node.next = try resolver.tryResolve() }
        let error = thrown { try r.tryResolve(MsgNode.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: dependency cycle while resolving MsgNode",
                    "  cycle: MsgNode → MsgNode.initCompleted → MsgNode",
                    "  in container msg-step-cycle",
                    requestedAt(line),
                    "  the loop passes through MsgNode's initCompleted step: when MsgNode is not shared, each new "
                        + "instance's step builds another; register it with a lifetime that shares the instance "
                        + "(.graph, say, for a class; .singleton for a struct), so that the step finds the one it "
                        + "completes"))
    }

    /// A function type registered without `@Sendable` is named when the `@Sendable` one is asked for.
    @Test func aFunctionTypeWithoutItsAttributesIsANearMatch() {
        let r = Resolver(id: "msg-sendable-function")
        r.register { () -> () -> MsgThing in { MsgThing() } }
        let error = thrown { try r.tryResolve((@Sendable () -> MsgThing).self) }
        #expect(
            error?.suggestions == [
                "() -> MsgThing is registered, a different type from the @Sendable () -> MsgThing asked for"
            ],
            "\(String(describing: error))")
    }

    /// One argument of tuple type and two arguments are different keys, and read differently.
    @Test func singleTupleArgumentIsNotTwoArguments() {
        let r = Resolver(id: "msg-tuple-argument")
        r.register(arguments: String.self, Int.self) { MsgArgs($0, $1) }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgArgs.self, arguments: ("stage", 1200)) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgArgs with arguments ((String, Int))",
                    "  in container msg-tuple-argument",
                    requestedAt(line),
                    "  MsgArgs is registered with arguments (String, Int), called with ((String, Int)): "
                        + "pass 2 arguments, not one tuple"))
    }

    /// A value that is not an instance of the registered argument type does not reach it (one
    /// that is would): the hint says which value is of the wrong type.
    @Test func argumentOfAnotherTypeIsNamed() {
        let r = Resolver(id: "msg-argument-other-type")
        r.register(arguments: (any MsgRoutes).self) { MsgRouteScreen(routes: $0) }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgRouteScreen.self, arguments: MsgThing()) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgRouteScreen with arguments (MsgThing)",
                    "  in container msg-argument-other-type",
                    requestedAt(line),
                    "  MsgRouteScreen is registered with arguments (MsgRoutes), called with (MsgThing): "
                        + "a MsgThing is not a MsgRoutes; pass a value of the registered type"))
    }

    @Test func oneOfSeveralArgumentsOfAnotherType() {
        let r = Resolver(id: "msg-argument-other-type-second")
        r.register(arguments: String.self, (any MsgRoutes).self) { MsgPairUser($0, $1) }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgPairUser.self, arguments: "home", MsgThing()) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgPairUser with arguments (String, MsgThing)",
                    "  in container msg-argument-other-type-second",
                    requestedAt(line),
                    "  MsgPairUser is registered with arguments (String, MsgRoutes), called with (String, MsgThing): "
                        + "argument 2 (a MsgThing) is not a MsgRoutes; pass values of the registered types"))
    }

    /// A value that is an instance of the registered argument type matches it, whatever its
    /// static type at the call site.
    @Test func argumentOfAConformingTypeMatches() {
        let r = Resolver(id: "msg-argument-conforming")
        r.register(arguments: (any MsgRoutes).self) { MsgRouteScreen(routes: $0) }
        #expect(thrown { try r.tryResolve(MsgRouteScreen.self, arguments: MsgRouter()) } == nil)
    }

    /// However many registrations are near, a message lists ten and counts the rest.
    @Test func nearMatchesAreListedUpToTenAndCounted() {
        let r = Resolver(id: "msg-many-near-matches")
        for index in 0..<100_000 { r.register(name: "n\(index)") { MsgClient() } }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgClient.self, name: "blue") }
        let hints = (0..<10).map {
            "  MsgClient is registered with name \"n\($0)\"; resolve it with (name: \"n\($0)\")"
        }
        #expect(
            error?.description
                == ([
                    "Syringe: no registration for MsgClient named \"blue\"",
                    "  in container msg-many-near-matches",
                    requestedAt(line),
                ] + hints + ["  and 99990 more near matches"]).joined(separator: "\n"))
    }

    // MARK: Type names

    @Test func nestedTypeIsNamedWithItsEnclosingType() {
        let r = Resolver(id: "msg-nested")
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgKindsB.Widget.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgKindsB.Widget",
                    "  in container msg-nested",
                    requestedAt(line),
                    "  register it first, e.g. Resolver.register { MsgKindsB.Widget(…) }"))
    }

    @Test func sameNamedTypeOfAnotherEnclosingTypeIsToldApart() {
        let r = Resolver(id: "msg-same-name-nested")
        r.register { MsgKindsA.Widget() }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgKindsB.Widget.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgKindsB.Widget",
                    "  in container msg-same-name-nested",
                    requestedAt(line),
                    "  MsgKindsA.Widget is registered, a different type from the MsgKindsB.Widget asked for"))
    }

    /// A protocol and an unrelated class of the same name: no `.implements` hint between them.
    @Test func sameNamedClassIsNotOfferedAsAnImplementation() {
        let r = Resolver(id: "msg-same-name-protocol")
        r.register { MsgKindsC.Gadget() }
        let line = #line + 1
        let error = thrown { try r.tryResolve((any MsgKindsB.Gadget).self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgKindsB.Gadget",
                    "  in container msg-same-name-protocol",
                    requestedAt(line),
                    "  MsgKindsC.Gadget is registered, a different type from the MsgKindsB.Gadget asked for"))
    }

    /// Top-level types of two modules read the same without their modules: both get them.
    @Test func sameNamedTypesOfTwoModulesAreNamedWithTheirModules() {
        let r = Resolver(id: "msg-same-name-modules")
        r.register { Swift.Hasher() }
        let line = #line + 1
        let error = thrown { try r.tryResolve(Hasher.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for SyringeTests.Hasher",
                    "  in container msg-same-name-modules",
                    requestedAt(line),
                    "  Swift.Hasher is registered, a different type from the SyringeTests.Hasher asked for"))
    }

    @Test func instanceOfASameNamedTypeIsNamedWithItsModule() {
        let r = Resolver(id: "msg-not-convertible-same-name")
        r.register { Swift.Hasher() }.implements(Hasher.self)
        let line = #line + 1
        let error = thrown { try r.tryResolve(Hasher.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: the instance built for SyringeTests.Hasher is a Swift.Hasher, which is not a "
                        + "SyringeTests.Hasher",
                    "  in container msg-not-convertible-same-name",
                    requestedAt(line),
                    "  remove .implements(SyringeTests.Hasher.self) from the registration of Swift.Hasher, "
                        + "or register a SyringeTests.Hasher under that key itself"))
    }

    @Test func genericTypeReadsAsWritten() {
        let r = Resolver(id: "msg-generic")
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgCrate<Int>.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgCrate<Int>",
                    "  in container msg-generic",
                    requestedAt(line),
                    "  register it first, e.g. Resolver.register { MsgCrate<Int>(…) }"))
    }

    // MARK: Registration hints by kind of type

    @Test func missingFunctionTypeGetsAClosureRegistrationHint() {
        let r = Resolver(id: "msg-missing-function")
        let line = #line + 1
        let error = thrown { try r.tryResolve((@Sendable () -> Int).self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for @Sendable () -> Int",
                    "  in container msg-missing-function",
                    requestedAt(line),
                    "  register it first, e.g. Resolver.register((@Sendable () -> Int).self) { { … } }"))
    }

    @Test func missingTupleTypeGetsATupleRegistrationHint() {
        let r = Resolver(id: "msg-missing-tuple")
        let line = #line + 1
        let error = thrown { try r.tryResolve((String, Int).self, name: "origin") }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for (String, Int) named \"origin\"",
                    "  in container msg-missing-tuple",
                    requestedAt(line),
                    "  register it first, e.g. Resolver.register((String, Int).self, name: \"origin\") { (…) }"))
    }

    @Test func missingProtocolGetsAConformingTypeHint() {
        let r = Resolver(id: "msg-missing-protocol")
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgUnrelated.self, qualifiedBy: MsgStaging.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: no registration for MsgUnrelated qualified by MsgStaging",
                    "  in container msg-missing-protocol",
                    requestedAt(line),
                    "  register a type that conforms to MsgUnrelated and add .implements(MsgUnrelated.self) to its "
                        + "registration, or register one for it: "
                        + "Resolver.register(MsgUnrelated.self, qualifiedBy: MsgStaging.self) { … }"))
    }

    // MARK: Cycles

    @Test func cycleThroughTryResolve() {
        let r = Resolver(id: "msg-cycle")
        r.register { try MsgCycleA(b: $0.tryResolve()) }
        let line = #line + 1
        r.register { try MsgCycleB(a: $0.tryResolve()) }
        let error = thrown { try r.tryResolve(MsgCycleA.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: dependency cycle while resolving MsgCycleA",
                    "  cycle: MsgCycleA → MsgCycleB → MsgCycleA",
                    "  in container msg-cycle",
                    requestedAt(line),
                    "  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created"
                ))
        guard case .cycle(let keys) = error?.reason else {
            Issue.record("expected a cycle, got \(String(describing: error?.reason))")
            return
        }
        #expect(keys == ["MsgCycleA", "MsgCycleB", "MsgCycleA"])
    }

    @Test func cycleThroughASingleton() {
        let r = Resolver(id: "msg-cycle-singleton")
        let line = #line + 1
        r.register(lifetime: .singleton) { try MsgCycleA(b: $0.tryResolve()) }
        r.register(lifetime: .singleton) { try MsgCycleB(a: $0.tryResolve()) }
        let error = thrown { try r.tryResolve(MsgCycleB.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: dependency cycle while resolving MsgCycleB",
                    "  cycle: MsgCycleB → MsgCycleA → MsgCycleB",
                    "  in container msg-cycle-singleton",
                    requestedAt(line),
                    "  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created"
                ))
    }

    @Test func cycleThroughPropertyWrappersNamesTheDeclaration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-cycle-wrappers")
            r.register { MsgWrappedA() }
            r.register { MsgWrappedB() }
            _ = r.resolve(MsgWrappedA.self)
        }
        let expected = lines(
            "Syringe: dependency cycle while resolving MsgWrappedA",
            "  cycle: MsgWrappedA → MsgWrappedB → MsgWrappedA",
            "  in container msg-cycle-wrappers",
            requestedAt(MsgWrappedB.injectLine),
            "  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created")
        let stderr = fxStderr(result)
        #expect(stderr.contains(expected), "\(stderr)")
    }

    // MARK: Factory errors

    @Test func factoryErrorIsWrappedAndKept() {
        let r = Resolver(id: "msg-factory-error")
        r.register(MsgThrowing.self) { throw MsgDiskError(code: 7) }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgThrowing.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: the factory for MsgThrowing threw an error: disk 7 is on fire",
                    "  in container msg-factory-error",
                    requestedAt(line)))
        #expect(error?.underlyingError as? MsgDiskError == MsgDiskError(code: 7))
    }

    @Test func nestedFactoryErrorKeepsThePath() {
        let r = Resolver(id: "msg-factory-error-nested")
        r.register(MsgThrowing.self) { throw MsgDiskError(code: 9) }
        let line = #line + 1
        r.register { try MsgNeedsThrowing($0.tryResolve()) }
        let error = thrown { try r.tryResolve(MsgNeedsThrowing.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: the factory for MsgThrowing threw an error: disk 9 is on fire",
                    "  while resolving MsgNeedsThrowing → MsgThrowing",
                    "  in container msg-factory-error-nested",
                    requestedAt(line)))
        #expect(error?.underlyingError as? MsgDiskError == MsgDiskError(code: 9))
    }

    @Test func otherFailuresHaveNoUnderlyingError() {
        let r = Resolver(id: "msg-no-underlying")
        let error = thrown { try r.tryResolve(MsgMissing.self) }
        #expect(error != nil)
        #expect(error?.underlyingError == nil)
    }

    // MARK: Lifetimes and casts

    @Test func weakLifetimeOnAValueTypeIsNotAnError() {
        let r = Resolver(id: "msg-weak-struct")
        r.register(lifetime: .weak) { MsgValue() }
        #expect(thrown { try r.tryResolve(MsgValue.self) } == nil)
    }

    /// An Optional wrapping a class instance is held weakly like the instance: no message.
    @Test func weakLifetimeOnAnOptionalIsNotAnError() {
        let r = Resolver(id: "msg-weak-optional")
        r.register(MsgThing?.self, lifetime: .weak) { MsgThing() }
        #expect(thrown { try r.tryResolve(MsgThing?.self) } == nil)
    }

    @Test func implementsAProtocolTheTypeDoesNotConformTo() {
        let r = Resolver(id: "msg-not-convertible")
        r.register { MsgPlain() }.implements(MsgUnrelated.self)
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgUnrelated.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: the instance built for MsgUnrelated is a MsgPlain, which is not a MsgUnrelated",
                    "  in container msg-not-convertible",
                    requestedAt(line),
                    "  remove .implements(MsgUnrelated.self) from the registration of MsgPlain, "
                        + "or register a MsgUnrelated under that key itself"))
    }

    @Test func castToAnUnrelatedTypeStops() async {
        let line = #line + 1  // every call in an exit test's body is at its #expect
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-cast")
            r.register { MsgPlain() }
            let _: any MsgUnrelated = r.resolve(MsgPlain.self)
        }
        let expected = lines(
            "Syringe: the instance built for MsgUnrelated is a MsgPlain, which is not a MsgUnrelated",
            "  in container msg-cast",
            requestedAt(line))
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    @Test func argumentRegistrationResolvingItselfWithoutEnd() {
        let r = Resolver(id: "msg-too-deep")
        let line = #line + 2
        r.register(arguments: Int.self) { level in
            try Resolver.current.tryResolve(MsgDeep.self, arguments: level + 1)
        }
        let error = MsgBox<ResolutionError>()
        let finished = onThread {
            error.value = thrown { try r.tryResolve(MsgDeep.self, arguments: 0) }
        }
        #expect(finished)
        // Long paths show their first and last five steps.
        let path = (Array(repeating: "MsgDeep", count: 5) + ["… 190 more …"] + Array(repeating: "MsgDeep", count: 5))
            .joined(separator: " → ")
        #expect(
            error.value?.description
                == lines(
                    "Syringe: resolving MsgDeep with arguments (Int) went 200 levels deep; "
                        + "a registration with arguments probably resolves itself without end",
                    "  while resolving \(path)",
                    "  in container msg-too-deep",
                    requestedAt(line)))
    }

    /// A chain of 201 distinct registrations without arguments is too deep but not a loop: the
    /// message says so and shows the path abridged.
    @Test func chainOfDistinctRegistrationsDeeperThanTheLimit() {
        let r = Resolver(id: "msg-deep-chain")
        let line = #line + 2
        for level in 0...200 {
            r.register(MsgDeep.self, name: "\(level)") { try $0.tryResolve(MsgDeep.self, name: "\(level + 1)") }
        }
        let error = MsgBox<ResolutionError>()
        let finished = onThread {
            error.value = thrown { try r.tryResolve(MsgDeep.self, name: "0") }
        }
        #expect(finished)
        let path = ((0..<5).map { "MsgDeep<\"\($0)\">" } + ["… 191 more …"] + (196...200).map { "MsgDeep<\"\($0)\">" })
            .joined(separator: " → ")
        #expect(
            error.value?.description
                == lines(
                    "Syringe: the resolution path to MsgDeep named \"200\" is deeper than 200 levels",
                    "  while resolving \(path)",
                    "  in container msg-deep-chain",
                    requestedAt(line),
                    "  no registration on the path repeats: the chain of dependencies is longer than the 200 levels "
                        + "Syringe follows; shorten it, or let part of it resolve later (@LazyInject)"))
    }

    // MARK: Main actor

    @Test func mainActorRegistrationResolvedOffTheMainThread() async {
        let r = Resolver(id: "msg-main-actor")
        await MainActor.run {
            _ = r.register(file: "Screens.swift", line: 40) { MsgMainModel() }
        }
        let error = MsgBox<ResolutionError>()
        let line = #line + 2
        let finished = onThread {
            error.value = thrown { try r.tryResolve(MsgMainModel.self) }
        }
        #expect(finished)
        #expect(
            error.value?.description
                == lines(
                    "Syringe: MsgMainModel is bound to the main actor and was resolved off it",
                    "  in container msg-main-actor",
                    requestedAt(line),
                    "  its factory, registered at Screens.swift:40, is isolated to the main actor (written in "
                        + "@MainActor code, or a @MainActor function)",
                    "  resolve it from @MainActor code, or hop there first: await MainActor.run { … }",
                    "  a factory that need not run on the main actor can be registered from nonisolated code "
                        + "(a ResolverModule, say), with no @MainActor on its closure or initializer"))
    }

    @Test func mainActorRegistrationResolvedOffTheMainActorThroughAPath() async {
        let r = Resolver(id: "msg-main-actor-path")
        let line = #line + 1
        r.register { MsgMainConsumer(model: try $0.tryResolve()) }
        r.register(file: "Screens.swift", line: 41) { @MainActor in MsgMainModel() }
        let error = await Task.detached { thrown { try r.tryResolve(MsgMainConsumer.self) } }.value
        #expect(
            error?.description
                == lines(
                    "Syringe: MsgMainModel is bound to the main actor and was resolved off it",
                    "  while resolving MsgMainConsumer → MsgMainModel",
                    "  in container msg-main-actor-path",
                    requestedAt(line),
                    "  its factory, registered at Screens.swift:41, is isolated to the main actor (written in "
                        + "@MainActor code, or a @MainActor function)",
                    "  resolve it from @MainActor code, or hop there first: await MainActor.run { … }",
                    "  a factory that need not run on the main actor can be registered from nonisolated code "
                        + "(a ResolverModule, say), with no @MainActor on its closure or initializer"))
    }

    // MARK: Where the value was asked for (thrown)

    /// `tryResolve` names the line of its call, in the instance and static forms, with and
    /// without runtime arguments.
    @Test func tryResolveErrorsNameTheCallersLine() {
        let r = Resolver(id: "msg-site-try")
        r.register(arguments: String.self, Int.self) { MsgArgs($0, $1) }
        let line = #line + 1
        let instance = thrown { try r.tryResolve(MsgMissing.self) }
        let staticLine = #line + 1
        let fromCurrent = Resolver.withContainer(r) { thrown { try Resolver.tryResolve(MsgMissing.self) } }
        let argumentsLine = #line + 1
        let withArguments = thrown { try r.tryResolve(MsgArgs.self, arguments: 42) }
        #expect(instance?.site == "\(msgFile):\(line)")
        #expect(fromCurrent?.site == "\(msgFile):\(staticLine)")
        #expect(withArguments?.site == "\(msgFile):\(argumentsLine)")
        #expect(
            fromCurrent?.description
                == lines(
                    "Syringe: no registration for MsgMissing",
                    "  in container msg-site-try",
                    requestedAt(staticLine),
                    "  register it first, e.g. Resolver.register { MsgMissing(…) }"))
    }

    /// An `autoregister`ed type asks for its dependencies where it is registered; `verify()`
    /// names the same line.
    @Test func autoregisteredDependencyIsRequestedWhereItIsRegistered() {
        let r = Resolver(id: "msg-site-autoregister")
        let line = #line + 1
        r.autoregister(MsgOuter.init)
        let error = thrown { try r.tryResolve(MsgOuter.self) }
        let message = { (container: String) in
            lines(
                "Syringe: no registration for MsgInner",
                "  while resolving MsgOuter → MsgInner",
                "  in container \(container)",
                requestedAt(line),
                "  register it first, e.g. Resolver.register { MsgInner(…) }")
        }
        #expect(error?.description == message("msg-site-autoregister"))
        #expect(r.verify().failures.map(\.description) == [message("verification of msg-site-autoregister")])
    }

    /// A factory that may yield no value produced nil: the error is the registration's own, asked
    /// for by the call.
    @Test func producedNilNamesTheCallersLine() {
        let r = Resolver(id: "msg-site-nil")
        r.register(MsgThing.self) { () -> MsgThing? in nil }
        let line = #line + 1
        let error = thrown { try r.tryResolve(MsgThing.self) }
        #expect(
            error?.description
                == lines(
                    "Syringe: the factory for MsgThing produced nil",
                    "  in container msg-site-nil",
                    requestedAt(line),
                    "  it is registered with a factory that may yield no value; ask for it with optional() or "
                        + "@OptionalInject, or let the factory always return one"))
    }

    // MARK: Stops (exit tests)

    @Test func resolveStopsWithTheSameTextTryResolveThrows() async {
        let line = #line + 1  // every call in an exit test's body is at its #expect
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-trap-path")
            r.register { MsgTop(outer: $0.resolve()) }
            r.register { MsgOuter(inner: $0.resolve()) }
            _ = r.resolve(MsgTop.self)
        }
        let expected = lines(
            "Syringe: no registration for MsgInner",
            "  while resolving MsgTop → MsgOuter → MsgInner",
            "  in container msg-trap-path",
            requestedAt(line),
            "  register it first, e.g. Resolver.register { MsgInner(…) }")
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    // MARK: Where the value was asked for

    /// A stop is reported at the line of the call, and the message names it.
    @Test(arguments: MsgStoppingCall.allCases)
    func stopIsReportedAtTheCallersLine(call: MsgStoppingCall) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [call] in
            call.run()
        }
        let expected = "\(msgFile):\(call.line): Fatal error: \(call.message)\n"
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    @Test func duplicateWithOverridesOffNamesTheKeyAndBothSites() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-duplicate")
            r.allowsOverrides = false
            MsgDuplicateSites.registerTwice(in: r)
        }
        let expected = lines(
            "Syringe: MsgDuplicate is already registered in container msg-duplicate",
            "  first registered at \(msgFile):\(MsgDuplicateSites.first)",
            "  registered again at \(msgFile):\(MsgDuplicateSites.second)",
            "  overrides are off (allowsOverrides = false); remove one registration, give them different "
                + "qualifiers or names, or set allowsOverrides = true")
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    @Test func duplicateQualifiedKeyIsNamedWithItsQualifier() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-duplicate-qualified")
            r.allowsOverrides = false
            r.register(qualifiedBy: MsgStaging.self) { MsgDuplicate() }
            r.register(qualifiedBy: MsgStaging.self) { MsgDuplicate() }
        }
        #expect(
            fxStderr(result).contains(
                "Syringe: MsgDuplicate qualified by MsgStaging is already registered in container "
                    + "msg-duplicate-qualified\n"))
    }

    /// The stop is reported at the `resolve()` that began the resolution; the message names the
    /// declaration of the `@Inject` property that asked for the missing registration.
    @Test func injectNamesItsDeclarationSite() async {
        let resolveLine = #line + 1  // an exit test's body reports the line of `#expect`
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-inject-site")
            r.register { MsgSiteHolder() }
            _ = r.resolve(MsgSiteHolder.self)
        }
        let expected = lines(
            "\(msgFile):\(resolveLine): Fatal error: Syringe: no registration for MsgMissing",
            "  while resolving MsgSiteHolder → MsgMissing",
            "  in container msg-inject-site",
            requestedAt(MsgSiteHolder.injectLine),
            "  register it first, e.g. Resolver.register { MsgMissing(…) }")
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    @Test func injectOutsideAnyResolutionNamesItsSiteAndNearMatches() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-inject-qualified")
            r.register { MsgClient() }
            _ = Resolver.withContainer(r) { MsgQualifiedSiteHolder() }
        }
        let expected = lines(
            "Syringe: no registration for MsgClient qualified by MsgStaging",
            "  in container msg-inject-qualified",
            requestedAt(MsgQualifiedSiteHolder.injectLine),
            "  MsgClient is registered without qualifier, scope or name; resolve it without selectors, "
                + "or register it with the ones asked for")
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    @Test func lazyInjectNamesItsSiteOnFirstRead() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-lazy-site")
            let holder = Resolver.withContainer(r) { MsgLazyHolder() }
            _ = holder.dependency
        }
        let expected = lines(
            "Syringe: no registration for MsgLazyDependency",
            "  in container msg-lazy-site",
            requestedAt(MsgLazyHolder.injectLine),
            "  register it first, e.g. Resolver.register { MsgLazyDependency(…) }")
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    @Test func lazyInjectReadDuringItsOwnResolution() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-lazy-cycle")
            let holder = Resolver.withContainer(r) { MsgLazyHolder() }
            r.register { () -> MsgLazyDependency in
                _ = holder.dependency
                return MsgLazyDependency()
            }
            _ = holder.dependency
        }
        let site = "\(msgFile):\(MsgLazyHolder.injectLine)"
        let expected =
            "\(site): Fatal error: Syringe: a @LazyInject property declared at \(site) was read while its "
            + "own value was being resolved; its dependencies form a cycle through it"
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    @Test func argumentRegistrationWithACachedLifetimeStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-arguments-singleton")
            r.register(lifetime: .singleton, arguments: String.self, Int.self) { MsgArgs($0, $1) }
        }
        let expected = lines(
            "Syringe: MsgArgs with arguments (String, Int) takes runtime arguments and cannot have a singleton lifetime",
            "  every resolution passes its own arguments, so each one builds a new instance;",
            "  register it without a lifetime (transient), or register the shared part separately")
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    @Test func mainActorRegistrationResolvedOffTheMainThreadStops() async {
        let line = #line + 1  // every call in an exit test's body is at its #expect
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "msg-main-actor-trap")
            r.register(file: "Screens.swift", line: 42) { @MainActor in MsgMainModel() }
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = r.resolve(MsgMainModel.self)
                done.signal()
            }
            thread.start()
            done.wait()
        }
        let expected = lines(
            "Syringe: MsgMainModel is bound to the main actor and was resolved off it",
            "  in container msg-main-actor-trap",
            requestedAt(line),
            "  its factory, registered at Screens.swift:42, is isolated to the main actor (written in "
                + "@MainActor code, or a @MainActor function)",
            "  resolve it from @MainActor code, or hop there first: await MainActor.run { … }",
            "  a factory that need not run on the main actor can be registered from nonisolated code "
                + "(a ResolverModule, say), with no @MainActor on its closure or initializer")
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
    }

    @Test func mainActorRegisteringHookReachedOffTheMainActorStopsAtTheCall() async {
        let line = #line + 1  // every call in an exit test's body is at its #expect
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            msgUseRegisteringHook(MsgMainActorHook.self)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = Resolver.main.optional(MsgPlain.self)
                done.signal()
            }
            thread.start()
            done.wait()
        }
        let expected = lines(
            "Syringe: registerAllServices() is isolated to the main actor (MainActorResolverRegistering) and the "
                + "first resolution that reaches main ran off the main actor, so it could not run",
            requestedAt(line),
            "  resolve something from @MainActor code first (at launch, or in a @MainActor test), or conform to "
                + "ResolverRegistering with a nonisolated registerAllServices() (main-actor types are then registered "
                + "with register { @MainActor in … })")
        #expect(fxStderr(result).contains(expected), "\(fxStderr(result))")
        #expect(fxStderr(result).contains("\(msgFile):\(line): Fatal error: Syringe: registerAllServices()"))
    }

    @Test func mainActorRegisteringHookReachedByResolveAllOffTheMainActorStopsAtTheCall() async {
        let line = #line + 1  // every call in an exit test's body is at its #expect
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            msgUseRegisteringHook(MsgMainActorHook.self)
            let finished = DispatchSemaphore(value: 0)
            fxStartThread(finished) { _ = Resolver.main.resolveAll(MsgPlain.self) }
            finished.wait()
        }
        #expect(fxStderr(result).contains("\(msgFile):\(line): Fatal error: Syringe: registerAllServices()"))
        #expect(fxStderr(result).contains(requestedAt(line)))
    }
}

// MARK: - Deep resolutions

final class MsgLevel {
    init(next: MsgLevel?) {}
}

extension ErrorMessageTests {
    @MainActor @Test func resolutionWhereTheStackRunsShort() {
        let r = Resolver(id: "msg-main-stack")
        let line = #line + 3
        for level in 0..<200 {
            r.register(MsgLevel.self, name: "\(level)") { resolver in
                MsgLevel(next: level < 199 ? try resolver.tryResolve(name: "\(level + 1)") : nil)
            }
        }
        let error = sdWithStackNearlyUsedUp(room: 64 << 10) { thrown { try r.tryResolve(MsgLevel.self, name: "0") } }
        let depth = error?.path.count ?? 0
        let path = (0..<depth).map { #"MsgLevel<"\#($0)">"# }
        let shownPath = depth > 12 ? path.prefix(5) + ["… \(depth - 10) more …"] + path.suffix(5) : path[...]
        #expect(
            error?.description
                == lines(
                    "Syringe: resolving MsgLevel named \"\(depth - 1)\" went \(depth) levels deep and this thread's "
                        + "stack is nearly used up; resolve it on a thread with a larger stack, or let part of the "
                        + "graph resolve later (@LazyInject)",
                    "  while resolving \(shownPath.joined(separator: " → "))",
                    "  in container msg-main-stack",
                    requestedAt(line)))
    }
}

// MARK: - Waits across threads

final class MsgBlocked {}
final class MsgBlockedHolder {
    init(blocked: MsgBlocked) {}
}
final class MsgLeftValue {}
final class MsgRightValue {}
final class MsgLeftHolder: @unchecked Sendable {
    static let injectLine = #line + 1
    @LazyInject var value: MsgLeftValue
}
final class MsgRightHolder: @unchecked Sendable {
    static let injectLine = #line + 1
    @LazyInject var value: MsgRightValue
}

/// Registers `MsgBlocked` as a singleton whose factory starts a thread named "msg-waiter" that
/// resolves `MsgBlocked` too, and waits for it (forever); `MsgBlockedHolder` needs it.
func msgRegisterBlockedSingleton(_ r: Resolver) {
    r.register { MsgBlockedHolder(blocked: $0.resolve()) }
    r.register(lifetime: .singleton) { resolver -> MsgBlocked in
        let done = DispatchSemaphore(value: 0)
        msgStartThread(named: "msg-waiter") {
            _ = resolver.resolve(MsgBlocked.self)
            done.signal()
        }
        done.wait()
        return MsgBlocked()
    }
}

/// Registers the lazy values of `holders` so that building either reads the other's property
/// once both have started.
func msgRegisterLazyLoop(_ r: Resolver, _ holders: (MsgLeftHolder, MsgRightHolder)) {
    let leftStarted = DispatchSemaphore(value: 0)
    let rightStarted = DispatchSemaphore(value: 0)
    r.register { () -> MsgLeftValue in
        leftStarted.signal()
        _ = rightStarted.wait(timeout: .now() + 5)
        _ = holders.1.value
        return MsgLeftValue()
    }
    r.register { () -> MsgRightValue in
        rightStarted.signal()
        _ = leftStarted.wait(timeout: .now() + 5)
        _ = holders.0.value
        return MsgRightValue()
    }
}

/// Starts a thread named `name` (the system thread's name, which messages show) running `body`.
func msgStartThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    Thread {
        #if canImport(Darwin)
            pthread_setname_np(name)
        #else
            _ = msgSetThreadName(pthread_self(), name)
        #endif
        body()
    }.start()
}

#if !canImport(Darwin)
    /// glibc's `pthread_setname_np`, which the C module does not import.
    @_silgen_name("pthread_setname_np")
    private func msgSetThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
#endif

extension ErrorMessageTests {
    @Test func longWaitForAnotherThreadsBuildIsReported() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            WaitWatchdog.reportDelay = 0.2
            let r = Resolver(id: "msg-long-wait")
            msgRegisterBlockedSingleton(r)
            msgStartThread(named: "msg-builder") { _ = r.resolve(MsgBlockedHolder.self) }
            usleep(1_000_000)
            exit(0)
        }
        // Thread ids differ from run to run.
        let text = fxStderr(result).replacing(/thread (?:0x[0-9a-f]+|[0-9]+)/, with: "thread N")
        let expected = lines(
            "Syringe: a thread has waited 0.2 s for MsgBlocked, which another thread is building",
            "  waiting:  thread N \"msg-waiter\", resolving MsgBlocked",
            "  building: thread N \"msg-builder\", resolving MsgBlockedHolder → MsgBlocked",
            "  a factory waiting on this thread would be a cycle: if one on the building thread's path blocks until "
                + "this thread is done (DispatchQueue.sync, a semaphore, a thread join), neither can finish; resolve "
                + "what that factory needs before it blocks",
            "  this thread goes on waiting, in case the build is only slow\n")
        #expect(text.contains(expected), "\(text)")
    }

    @Test func lazyPropertiesNeedingEachOtherAcrossThreads() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "msg-lazy-threads")
            let holders = Resolver.withContainer(r) { (MsgLeftHolder(), MsgRightHolder()) }
            msgRegisterLazyLoop(r, holders)
            let done = DispatchSemaphore(value: 0)
            msgStartThread(named: "msg-left") {
                _ = holders.0.value
                done.signal()
            }
            msgStartThread(named: "msg-right") {
                _ = holders.1.value
                done.signal()
            }
            done.wait()
            done.wait()
        }
        let left = "\(msgFile):\(MsgLeftHolder.injectLine)"
        let right = "\(msgFile):\(MsgRightHolder.injectLine)"
        // Whichever thread comes second closes the loop and stops the program.
        let closedByRight = lines(
            "Syringe: a @LazyInject property declared at \(left) was read while the thread resolving its value "
                + "waits for this one; their dependencies form a cycle through it",
            "  this thread: MsgRightValue → @LazyInject MsgLeftValue (\(left))",
            "  the thread resolving it: MsgLeftValue → @LazyInject MsgRightValue (\(right))\n")
        let closedByLeft = lines(
            "Syringe: a @LazyInject property declared at \(right) was read while the thread resolving its value "
                + "waits for this one; their dependencies form a cycle through it",
            "  this thread: MsgLeftValue → @LazyInject MsgRightValue (\(right))",
            "  the thread resolving it: MsgRightValue → @LazyInject MsgLeftValue (\(left))\n")
        let text = fxStderr(result)
        #expect(text.contains(closedByRight) || text.contains(closedByLeft), "\(text)")
    }
}

// MARK: - verify()'s messages

final class MsgVerifyMissing {}
struct MsgVerifySettings {}
@MainActor final class MsgVerifyViewModel {
    init(missing: MsgVerifyMissing) {}
}
final class MsgVerifyWeakHolder {
    @WeakInject var settings: MsgVerifySettings?
}

@Suite struct VerificationMessageTests {
    private let file = "SyringeTests/ErrorMessageTests.swift"

    @Test func optionalRegistrationWarning() {
        let r = Resolver(id: "msg-verify-optional")
        let line = #line + 1
        r.register(MsgVerifyMissing?.self) { MsgVerifyMissing() }
        #expect(
            r.verify().warnings == [
                "Optional<MsgVerifyMissing> is registered (at \(file):\(line)) but MsgVerifyMissing is not: "
                    + "optional(), @OptionalInject and resolve() as MsgVerifyMissing ask for MsgVerifyMissing and do "
                    + "not find it; register MsgVerifyMissing with a factory that may yield nil instead, "
                    + "`register(MsgVerifyMissing.self) { … as MsgVerifyMissing? }`"
            ])
    }

    @Test func registeredTwiceAndWeakValueTypeWarnings() {
        let r = Resolver(id: "msg-verify-warnings")
        let first = #line + 1
        r.register(lifetime: .weak) { MsgVerifySettings() }
        let second = #line + 1
        r.register(lifetime: .weak) { MsgVerifySettings() }
        #expect(
            r.verify().warnings == [
                "MsgVerifySettings is registered more than once: at \(file):\(first), then at \(file):\(second); "
                    + "the last registration wins, remove the others (or give them different qualifiers or names)",
                "MsgVerifySettings has a weak lifetime but its factory builds a value type, which cannot be held "
                    + "weakly: every resolution builds a new one; register it as .singleton or .transient, or make it "
                    + "a class",
            ])
    }

    @Test func nothingRegistered() {
        #expect(
            Resolver(id: "msg-verify-empty").verify().description
                == lines(
                    "Syringe: nothing is registered, so nothing was verified",
                    "  register the app's services first (or verify the container that has them)"))
    }

    /// A stop that is not a resolution error (here a `@WeakInject` of a value type) is reported
    /// with its own message.
    @Test func aStopOtherThanAResolutionErrorIsReportedWithItsMessage() throws {
        let r = Resolver(id: "msg-verify-stopped")
        r.register { MsgVerifySettings() }
        r.register { MsgVerifyWeakHolder() }
        let report = r.verify()
        let failure = try #require(report.failures.first)
        guard case .stopped(let message) = failure.reason else {
            Issue.record("unexpected \(failure)")
            return
        }
        #expect(failure.description.hasPrefix(message + "\n  while resolving MsgVerifyWeakHolder"))
        #expect(message.hasPrefix("Syringe: a weakly held MsgVerifySettings (declared at "), "\(message)")
    }

    /// From main-actor code, a main-actor factory's plain `resolve()` that fails is reported
    /// like any other (the build runs on a worker holding the main actor for the caller).
    @MainActor @Test func aFailureInsideAMainActorFactoryIsReported() {
        let r = Resolver(id: "msg-verify-main")
        r.register { @MainActor resolver in MsgVerifyViewModel(missing: resolver.resolve()) }
        let report = r.verify()
        #expect(
            report.failures.map(\.description).first?.hasPrefix(
                lines(
                    "Syringe: no registration for MsgVerifyMissing",
                    "  while resolving MsgVerifyViewModel → MsgVerifyMissing",
                    "  in container verification of msg-verify-main",
                    "  requested at \(file):")) == true, "\(report)")
    }
}
