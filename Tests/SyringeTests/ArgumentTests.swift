import Syringe
import Testing

final class ArgClassD {
    let environment: String
    let timestamp: Int
    init(environment: String, timestamp: Int = 0) {
        self.environment = environment
        self.timestamp = timestamp
    }
}
final class ArgClassE {
    let value: String?
    init(_ value: String?) { self.value = value }
}
private struct ArgFour: Equatable {
    let a: Int
    let b: String
    let c: Double
    let d: Bool
}
private struct ArgThree: Equatable {
    let a: Int
    let b: Int
    let c: String
}
private final class ArgDependency {}
private final class ArgWithDependency {
    let name: String
    let dependency: ArgDependency
    init(name: String, dependency: ArgDependency) {
        self.name = name
        self.dependency = dependency
    }
}
private enum ArgStaging: Qualifier {}

@Suite struct ArgumentTests {
    @Test func oneArgument() {
        let r = Resolver()
        r.register(arguments: String.self) { ArgClassD(environment: $0) }
        let d: ArgClassD = r.resolve(arguments: "stage")
        #expect(d.environment == "stage")
    }

    @Test func twoArguments() {
        let r = Resolver()
        r.register(arguments: String.self, Int.self) { env, ts in ArgClassD(environment: env, timestamp: ts) }
        let d: ArgClassD = r.resolve(arguments: "stage", 1200)
        #expect(d.environment == "stage")
        #expect(d.timestamp == 1200)
    }

    @Test func threeArguments() {
        let r = Resolver()
        r.register(arguments: Int.self, Int.self, String.self) { ArgThree(a: $0, b: $1, c: $2) }
        let value: ArgThree = r.resolve(arguments: 1, 2, "three")
        #expect(value == ArgThree(a: 1, b: 2, c: "three"))
    }

    @Test func fourArguments() {
        let r = Resolver()
        r.register(arguments: Int.self, String.self, Double.self, Bool.self) { ArgFour(a: $0, b: $1, c: $2, d: $3) }
        let value: ArgFour = r.resolve(arguments: 1, "two", 3.5, true)
        #expect(value == ArgFour(a: 1, b: "two", c: 3.5, d: true))
    }

    @Test func argumentsAreFreshForEachResolution() {
        let r = Resolver()
        r.register(arguments: String.self) { ArgClassD(environment: $0) }
        let a: ArgClassD = r.resolve(arguments: "a")
        let b: ArgClassD = r.resolve(arguments: "b")
        #expect(a.environment == "a")
        #expect(b.environment == "b")
    }

    @Test func optionalArgumentMayBeOmitted() {
        let r = Resolver()
        r.register(arguments: String?.self) { ArgClassE($0) }
        let withoutArgument: ArgClassE = r.resolve()
        let withValue: ArgClassE = r.resolve(arguments: "SOME_VALUE")
        #expect(withoutArgument.value == nil)
        #expect(withValue.value == "SOME_VALUE")
    }

    @Test func capturedValuesNeedNoArguments() {
        let r = Resolver()
        let environment = "stage"
        r.register { ArgClassD(environment: environment) }
        #expect((r.resolve() as ArgClassD).environment == "stage")
    }

    @Test func argumentFactoryCanResolveOtherDependencies() {
        let r = Resolver()
        r.register(lifetime: .singleton) { ArgDependency() }
        r.register(arguments: String.self) { ArgWithDependency(name: $0, dependency: Resolver.resolve()) }
        let value: ArgWithDependency = r.resolve(arguments: "n")
        #expect(value.name == "n")
        #expect(value.dependency === (r.resolve() as ArgDependency))
    }

    @Test func argumentsWithQualifier() {
        let r = Resolver()
        r.register(ArgClassD.self, qualifiedBy: ArgStaging.self, arguments: String.self) {
            ArgClassD(environment: "staging-" + $0)
        }
        r.register(arguments: String.self) { ArgClassD(environment: $0) }
        let staging: ArgClassD = r.resolve(qualifiedBy: ArgStaging.self, arguments: "x")
        let plain: ArgClassD = r.resolve(arguments: "x")
        #expect(staging.environment == "staging-x")
        #expect(plain.environment == "x")
    }

    @Test func tryResolveWithArguments() throws {
        let r = Resolver()
        r.register(arguments: String.self, Int.self) { ArgClassD(environment: $0, timestamp: $1) }
        let d: ArgClassD = try r.tryResolve(arguments: "stage", 7)
        #expect(d.timestamp == 7)
    }

    @Test func argumentTypeMismatchThrows() {
        let r = Resolver()
        r.register(arguments: String.self) { ArgClassD(environment: $0) }
        let error = #expect(throws: ResolutionError.self) { let _: ArgClassD = try r.tryResolve(arguments: 42) }
        let text = error.map { String(describing: $0) } ?? ""
        #expect(text.contains("ArgClassD"))
        #expect(text.contains("String"))
    }

    @Test func argumentCountMismatchThrows() {
        let r = Resolver()
        r.register(arguments: String.self, Int.self) { ArgClassD(environment: $0, timestamp: $1) }
        #expect(throws: ResolutionError.self) { let _: ArgClassD = try r.tryResolve(arguments: "only one") }
        #expect(throws: ResolutionError.self) { let _: ArgClassD = try r.tryResolve() }
    }

    @Test func argumentsGivenToANoArgumentRegistrationThrow() {
        let r = Resolver()
        r.register { ArgClassD(environment: "none") }
        #expect(throws: ResolutionError.self) { let _: ArgClassD = try r.tryResolve(arguments: "unexpected") }
    }

    @Test func staticResolveWithArguments() {
        let r = Resolver()
        let d: ArgClassD = Resolver.withContainer(r) {
            Resolver.register(arguments: String.self, Int.self) { ArgClassD(environment: $0, timestamp: $1) }
            return Resolver.resolve(arguments: "static", 5)
        }
        #expect(d.environment == "static")
        #expect(d.timestamp == 5)
    }

    @Test func optionalTypeWithArguments() async {
        // Run in its own process: a failure here has been a crash, which would end the whole run.
        await #expect(processExitsWith: .success) {
            fxStartWatchdog()
            let r = Resolver()
            r.register(arguments: String.self) { ArgClassD(environment: $0) }
            let present: ArgClassD? = r.resolve(arguments: "x")
            precondition(present?.environment == "x", "expected ArgClassD(environment: \"x\")")
            let missing: ArgClassE? = r.resolve(arguments: "x")
            precondition(missing == nil, "expected nil for an unregistered type")
        }
    }
}
