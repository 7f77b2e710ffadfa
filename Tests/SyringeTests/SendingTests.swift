import Syringe
import SyringeTesting
import Testing

// A resolved value goes into an actor's initializer as users write it (SPEC.md §9): the resolve
// forms without runtime arguments return `sending` values. Every one of them takes a metatype
// (`T.self` by default); for a non-`Sendable` existential such as `any SendAPI` that metatype is
// not `Sendable` (the type is not `SendableMetatype`), so without `sending` Swift assumed the result
// shared the argument's region and refused to send it ("sending a task-isolated value").
// These tests are mostly the compiler's: they would not build otherwise.

protocol SendAPI: AnyObject {
    func fetch() -> String
}

final class SendLiveAPI: SendAPI {
    func fetch() -> String { "live" }
}

actor SendStore {
    private let api: any SendAPI
    init(api: any SendAPI) { self.api = api }
    func fetch() -> String { api.fetch() }
}

actor SendPool {
    private let apis: [any SendAPI]
    init(apis: [any SendAPI]) { self.apis = apis }
    var count: Int { apis.count }
}

/// An actor whose initializer can be autoregistered: Swift forms a reference to an actor's
/// initializer only when its non-`Sendable` parameters are `sending`.
actor SendAutowiredStore {
    private let api: any SendAPI
    init(api: sending any SendAPI) { self.api = api }
    func fetch() -> String { api.fetch() }
}

@Suite struct SendingTests {
    @Test(.isolatedResolver) func aResolvedValueGoesIntoAnActorsInitializer() async throws {
        Resolver.register(SendAPI.self) { SendLiveAPI() }
        let resolver = Resolver.current
        let stores = [
            SendStore(api: Resolver.resolve()),
            SendStore(api: Resolver.resolve(SendAPI.self)),
            SendStore(api: try Resolver.tryResolve()),
            SendStore(api: Resolver.optional()!),
            SendStore(api: resolver.resolve()),
            SendStore(api: try resolver.tryResolve(SendAPI.self)),
        ]
        for store in stores {
            #expect(await store.fetch() == "live")
        }
        let pool = SendPool(apis: Resolver.resolveAll())
        #expect(await pool.count == 1)
    }

    @Test(.isolatedResolver) @MainActor func fromMainActorCodeToo() async {
        Resolver.register(SendAPI.self) { SendLiveAPI() }
        let store = SendStore(api: Resolver.resolve())
        #expect(await store.fetch() == "live")
    }

    @Test(.isolatedResolver) func anActorWithSendingParametersIsAutoregistered() async throws {
        Resolver.register(SendAPI.self) { SendLiveAPI() }
        Resolver.autoregister(SendAutowiredStore.init)
        let store: SendAutowiredStore = try Resolver.tryResolve()
        #expect(await store.fetch() == "live")
    }

    @Test(.isolatedResolver) func aFactoryPassesResolvedValuesToAnActor() async throws {
        Resolver.register(SendAPI.self) { SendLiveAPI() }
        Resolver.register { SendStore(api: $0.resolve()) }
        let store: SendStore = try Resolver.tryResolve()
        #expect(await store.fetch() == "live")
    }
}
