import Syringe
import Testing

// Twins of README's Quick start notes and Getting Started's "Register them": where a
// registration is made decides where it may be resolved; a `Sendable` type takes its
// dependencies as initializer arguments.

protocol NcGreeter: Sendable {
    func greet(_ name: String) -> String
}
final class NcEnglishGreeter: NcGreeter {
    func greet(_ name: String) -> String { "Hello, \(name)!" }
}

struct NcAppModule: ResolverModule {
    func register(in resolver: Resolver) {
        resolver.register(lifetime: .singleton) { NcEnglishGreeter() }.implements(NcGreeter.self)
    }
}

final class NcWelcome: Sendable {
    let greeter: NcGreeter
    init(greeter: NcGreeter = Resolver.resolve()) { self.greeter = greeter }
}

/// Resolves `NcGreeter` from `resolver` on a detached task: off the main actor.
private func greetingOffTheMainActor(from resolver: Resolver) async -> String {
    await Task.detached {
        do {
            let greeter: NcGreeter = try resolver.tryResolve()
            return greeter.greet("Syringe")
        } catch {
            return "\(error)"
        }
    }.value
}

@Suite struct NewcomerDocumentationTests {
    @MainActor @Test func aRegistrationWrittenInMainActorCodeStopsOffTheMainActor() async {
        let resolver = Resolver()
        resolver.register(lifetime: .singleton) { NcEnglishGreeter() }.implements(NcGreeter.self)
        let text = await greetingOffTheMainActor(from: resolver)
        #expect(text.contains("bound to the main actor and was resolved off it"))
    }

    @MainActor @Test func aModuleInstalledFromMainActorCodeResolvesAnywhere() async {
        let resolver = Resolver()
        resolver.install(NcAppModule())
        #expect(await greetingOffTheMainActor(from: resolver) == "Hello, Syringe!")
    }

    @Test func aSendableTypeTakesItsDependencyAsADefaultArgument() async {
        let resolver = Resolver()
        resolver.install(NcAppModule())
        let welcome = Resolver.withContainer(resolver) { NcWelcome() }
        let greeting = await Task.detached { welcome.greeter.greet("Syringe") }.value
        #expect(greeting == "Hello, Syringe!")
    }
}
