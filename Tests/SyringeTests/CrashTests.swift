import Syringe
import Testing

// Every way Syringe stops the program, each in its own process (exit tests). The message is
// checked for what SPEC.md §3 asks it to name. Types are internal so their names print plainly.

final class CrashMissing {}
protocol CrashNetworkServiceProtocol: AnyObject {}
final class CrashNetworkService: CrashNetworkServiceProtocol {}
enum CrashQualifier: Qualifier {}
enum CrashFlow: Scope {}
final class CrashInner {}
final class CrashOuter {
    init(inner: CrashInner) {}
}
final class CrashTop {
    init(outer: CrashOuter) {}
}
final class CrashCycleA {
    init(b: CrashCycleB) {}
}
final class CrashCycleB {
    init(a: CrashCycleA) {}
}
final class CrashWrappedA {
    @Inject var b: CrashWrappedB
}
final class CrashWrappedB {
    @Inject var a: CrashWrappedA
}
final class CrashDuplicate {}
final class CrashArgs {
    init(_ value: String) {}
}
final class CrashThrowing {}
struct CrashFactoryFailure: Error, CustomStringConvertible {
    var description: String { "disk is on fire" }
}
final class CrashInjectHolder {
    @Inject var missing: CrashMissing
}
protocol CrashShape {}
struct CrashSquare: CrashShape {}
final class CrashWeakShapeHolder {
    static let injectLine = #line + 1
    @WeakInject var shape: CrashShape?
}
final class CrashLazyHolder {
    static let injectLine = #line + 1
    @LazyInject var missing: CrashMissing
}

/// A stop caused by a failed resolution, on a line the tests know (every call written in an exit
/// test's body is at the line of its `#expect`).
enum CrashStop: String, Codable, Sendable, CaseIterable {
    case arguments, cast, nestedResolve, weakInject, lazyInject

    /// The line of `.arguments`'s call in `run()`; `.cast`'s follows it.
    private static let firstCallLine = #line + 4
    func run() {
        let r = makeContainer()
        switch self {
        case .arguments: let _: CrashArgs = r.resolve(arguments: 42)
        case .cast: let _: CrashMissing = r.resolve(CrashThrowing.self)
        case .nestedResolve: let _: CrashOuter = r.resolve()
        case .weakInject: _ = Resolver.withContainer(r) { CrashWeakShapeHolder() }
        case .lazyInject:
            let holder = Resolver.withContainer(Resolver()) { CrashLazyHolder() }
            _ = holder.missing
        }
    }

    static let factoryLine = #line + 6
    private func makeContainer() -> Resolver {
        let r = Resolver()
        r.register(arguments: String.self) { CrashArgs($0) }
        r.register { CrashThrowing() }
        r.register { CrashSquare() as CrashShape }
        r.register { CrashOuter(inner: $0.resolve()) }
        return r
    }

    /// The line the stop is reported at: the call's that began the resolution (also for a miss in
    /// a factory further down, whose line the message names), or the wrapper's.
    var line: Int {
        switch self {
        case .arguments: Self.firstCallLine
        case .cast: Self.firstCallLine + 1
        case .nestedResolve: Self.firstCallLine + 2
        case .weakInject: CrashWeakShapeHolder.injectLine
        case .lazyInject: CrashLazyHolder.injectLine
        }
    }

    /// How the message starts, after `Syringe: `.
    var message: String {
        switch self {
        case .arguments: "no registration for CrashArgs"
        case .cast: "the instance built for CrashMissing"
        case .nestedResolve: "no registration for CrashInner"
        case .weakInject: "a weakly held CrashShape"
        case .lazyInject: "the @LazyInject property declared at"
        }
    }
}

/// A miss found while resolving a dependency further down: the forms that begin a resolution of
/// an autoregistered type or of a registered factory, one of whose dependencies is missing.
enum CrashBegin: String, Codable, Sendable, CaseIterable {
    case resolve, optional, resolveAll, registeredOptional, registeredResolveAll, staticResolve

    /// The line of `.resolve`'s call in `run()`; each later case's call follows on the next line.
    private static let firstCallLine = #line + 6
    func run() {
        let r = Resolver()
        register(in: r)
        Resolver.root = r
        switch self {
        case .resolve: let _: CrashOuter = r.resolve()
        case .optional: _ = r.optional(CrashOuter.self)
        case .resolveAll: _ = r.resolveAll(CrashOuter.self)
        case .registeredOptional: _ = r.optional(CrashTop.self)
        case .registeredResolveAll: _ = r.resolveAll(CrashTop.self)
        case .staticResolve: let _: CrashOuter = Resolver.resolve()
        }
    }

    private static let autoregisterLine = #line + 3
    private static let factoryLine = #line + 3
    private func register(in r: Resolver) {
        r.autoregister(CrashOuter.init(inner:))
        r.register { CrashTop(outer: CrashOuter(inner: $0.resolve())) }
    }

    /// Where the program stops: the call that began the resolution.
    var stopLine: Int {
        Self.firstCallLine + Self.allCases.firstIndex(of: self)!
    }

    /// The line the message names: the one that asked for the missing dependency.
    var requestLine: Int {
        switch self {
        case .registeredOptional, .registeredResolveAll: Self.factoryLine
        default: Self.autoregisterLine
        }
    }
}

/// Where a stop is reported, as Swift prints it before the message: `Module/File.swift:12: Fatal error: `.
private func crashStop(at line: Int) -> String {
    "SyringeTests/CrashTests.swift:\(line): Fatal error: Syringe: "
}

@Suite struct CrashTests {
    /// The README: naming the type asks for it, so an Optional result does not make a miss nil.
    @Test func anOptionalResultOfANamedTypeStillStopsOnAMiss() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "CrashNamed")
            let maybe: CrashMissing? = r.resolve(CrashMissing.self)
            _ = maybe
        }
        #expect(fxStderr(result).contains("no registration for CrashMissing"))
        let r = Resolver()
        let inferred: CrashMissing? = r.resolve()
        #expect(inferred == nil)
    }

    @Test func missingRegistrationNamesTypeAndContainer() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "CrashBox")
            let _: CrashMissing = r.resolve()
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashMissing"))
        #expect(text.contains("CrashBox"))
    }

    @Test func missingQualifiedRegistrationNamesTheQualifier() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "CrashQualifiedBox")
            r.register { CrashMissing() }
            let _: CrashMissing = r.resolve(qualifiedBy: CrashQualifier.self)
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashMissing"))
        #expect(text.contains("CrashQualifier"))
        #expect(text.contains("CrashQualifiedBox"))
    }

    @Test func missingNamedRegistrationNamesTheName() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "CrashNamedBox")
            let _: CrashMissing = r.resolve(name: "croissant")
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashMissing"))
        #expect(text.contains("croissant"))
        #expect(text.contains("CrashNamedBox"))
    }

    @Test func missingScopedRegistrationNamesTheScope() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "CrashScopedBox")
            let _: CrashOuter = r.resolve(scopedTo: CrashFlow.self)
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashOuter"))
        #expect(text.contains("CrashFlow"))
    }

    @Test func missingInMainNamesMain() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let _: CrashMissing = Resolver.main.resolve()
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashMissing"))
        #expect(text.contains("main"))
    }

    @Test func missingNestedDependencyShowsTheWholePath() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { CrashOuter(inner: $0.resolve()) }
            r.register { CrashTop(outer: $0.resolve()) }
            let _: CrashTop = r.resolve()
        }
        #expect(fxStderr(result).contains("CrashTop → CrashOuter → CrashInner"))
    }

    @Test func nestedPlainResolveStopsEvenUnderTryResolve() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { CrashOuter(inner: $0.resolve()) }
            _ = try? r.tryResolve() as CrashOuter
        }
        #expect(fxStderr(result).contains("CrashOuter → CrashInner"))
    }

    @Test func unboundProtocolMessageSuggestsImplements() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { CrashNetworkService() }
            let _: CrashNetworkServiceProtocol = r.resolve()
        }
        #expect(fxStderr(result).contains(".implements(CrashNetworkServiceProtocol.self)"))
    }

    @Test func cycleThroughResolveIsReportedNotAStackOverflow() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { CrashCycleA(b: $0.resolve()) }
            r.register { CrashCycleB(a: $0.resolve()) }
            let _: CrashCycleA = r.resolve()
        }
        let text = fxStderr(result)
        #expect(fxContainsIgnoringCase(text, "cycle"))
        #expect(text.contains("CrashCycleA → CrashCycleB → CrashCycleA"))
    }

    @Test func cycleThroughASingletonIsReported() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register(lifetime: .singleton) { CrashCycleA(b: $0.resolve()) }
            r.register(lifetime: .singleton) { CrashCycleB(a: $0.resolve()) }
            let _: CrashCycleB = r.resolve()
        }
        let text = fxStderr(result)
        #expect(fxContainsIgnoringCase(text, "cycle"))
        #expect(text.contains("CrashCycleB → CrashCycleA → CrashCycleB"))
    }

    @Test func cycleThroughPropertyWrappersIsReported() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register { CrashWrappedA() }
            r.register { CrashWrappedB() }
            let _: CrashWrappedA = r.resolve()
        }
        let text = fxStderr(result)
        #expect(fxContainsIgnoringCase(text, "cycle"))
        #expect(text.contains("CrashWrappedA → CrashWrappedB → CrashWrappedA"))
    }

    @Test func duplicateRegistrationWithOverridesOffNamesKeyAndBothSites() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.allowsOverrides = false
            r.register { CrashDuplicate() }
            r.register { CrashDuplicate() }
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashDuplicate"))
        let sites = text.components(separatedBy: "SyringeTests/CrashTests.swift:").count - 1
        #expect(sites >= 2, "both registration sites (#fileID:#line) should be named")
    }

    @Test func duplicateQualifiedRegistrationWithOverridesOff() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.allowsOverrides = false
            r.register(qualifiedBy: CrashQualifier.self) { CrashDuplicate() }
            r.register { CrashDuplicate() }
            r.register(qualifiedBy: CrashQualifier.self) { CrashDuplicate() }
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashDuplicate"))
        #expect(text.contains("CrashQualifier"))
    }

    @Test func argumentTypeMismatchThroughResolve() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register(arguments: String.self) { CrashArgs($0) }
            let _: CrashArgs = r.resolve(arguments: 42)
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashArgs"))
        #expect(text.contains("String"))
        #expect(text.contains("Int"))
    }

    @Test func missingArgumentsThroughResolve() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register(arguments: String.self) { CrashArgs($0) }
            let _: CrashArgs = r.resolve()
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashArgs"))
        #expect(text.contains("String"))
    }

    @Test func factoryErrorThroughResolve() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register(CrashThrowing.self) { throw CrashFactoryFailure() }
            let _: CrashThrowing = r.resolve()
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashThrowing"))
        #expect(text.contains("disk is on fire"))
    }

    @Test func optionalStopsForAFailingRegistration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver()
            r.register(CrashThrowing.self) { throw CrashFactoryFailure() }
            let _: CrashThrowing? = r.optional()
        }
        #expect(fxStderr(result).contains("CrashThrowing"))
    }

    @Test func injectOfAMissingRegistration() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "CrashInjectBox")
            _ = Resolver.withContainer(r) { CrashInjectHolder() }
        }
        let text = fxStderr(result)
        #expect(text.contains("CrashMissing"))
        #expect(text.contains("CrashInjectBox"))
    }

    // MARK: Where a stop is reported

    /// The argument and cast forms stop at their call, a nested `$0.resolve()` in a factory at the
    /// call that began the resolution (naming the factory's line), and the weak and lazy wrappers at
    /// their declaration.
    @Test(arguments: CrashStop.allCases)
    func stopIsReportedWhereTheValueWasAskedFor(stop: CrashStop) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [stop] in
            fxStartWatchdog()
            stop.run()
        }
        let text = fxStderr(result)
        #expect(text.contains(crashStop(at: stop.line) + stop.message), "\(text)")
        if stop == .nestedResolve {
            #expect(text.contains("requested at SyringeTests/CrashTests.swift:\(CrashStop.factoryLine)\n"), "\(text)")
        }
    }

    /// A miss below an autoregistered type or a registered factory stops at the `resolve()`,
    /// `optional()` or `resolveAll()` call that began the resolution, and the message names the
    /// line that asked for the missing dependency.
    @Test(arguments: CrashBegin.allCases)
    func aMissFurtherDownStopsWhereTheResolutionBegan(begin: CrashBegin) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [begin] in
            fxStartWatchdog()
            begin.run()
        }
        let text = fxStderr(result)
        #expect(text.contains(crashStop(at: begin.stopLine) + "no registration for CrashInner\n"), "\(text)")
        #expect(text.contains("requested at SyringeTests/CrashTests.swift:\(begin.requestLine)\n"), "\(text)")
    }

    @Test func correctResolutionDoesNotStop() async {
        // Control: the same shapes as above, registered correctly, exit normally.
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            let r = Resolver()
            r.allowsOverrides = false
            r.register { CrashInner() }
            r.register { CrashOuter(inner: $0.resolve()) }
            r.register(arguments: String.self) { CrashArgs($0) }
            let _: CrashOuter = r.resolve()
            let _: CrashArgs = r.resolve(arguments: "ok")
        }
    }
}
