import Syringe
import Testing

// Runtime arguments are matched by the registered parameter types: a value that is an
// instance of the registered type matches, whatever its static type at the call site.

private protocol AMRoutes: AnyObject {
    var name: String { get }
}
private final class AMOtherRouter: AMRoutes {
    let name = "other"
}
private final class AMRouter: AMRoutes {
    let name = "router"
}
private final class AMScreen {
    let routes: AMRoutes
    let id: Int
    init(routes: AMRoutes, id: Int = 0) {
        self.routes = routes
        self.id = id
    }
}
private class AMBase {}
private final class AMDerived: AMBase {}
private final class AMHolder {
    let base: AMBase
    init(base: AMBase) { self.base = base }
}

@Suite struct ArgumentMatchingTests {
    @Test func anExistentialArgumentMatchesItsRegisteredProtocol() {
        let r = Resolver()
        r.register(arguments: AMRoutes.self) { AMScreen(routes: $0) }
        let router: AMRoutes = AMRouter()
        let screen: AMScreen = r.resolve(arguments: router)
        #expect(screen.routes === router)
        let concrete = AMRouter()
        #expect((r.resolve(arguments: concrete) as AMScreen).routes === concrete)
    }

    // Asked for as `T?`, the same matching applies.
    @Test func anOptionalRequestMatchesArgumentsTheSameWay() throws {
        let r = Resolver()
        r.register(arguments: AMRoutes.self) { AMScreen(routes: $0) }
        r.register(arguments: AMBase.self) { AMHolder(base: $0) }
        let router: AMRoutes = AMRouter()
        let viaProtocol: AMScreen? = try r.tryResolve(arguments: router)
        let viaConcrete: AMScreen? = try? r.tryResolve(arguments: AMRouter())
        let viaSubclass: AMHolder? = try r.tryResolve(arguments: AMDerived())
        #expect(viaProtocol?.routes === router)
        #expect(viaConcrete != nil && viaSubclass != nil)
        let missing: AMHolder? = try r.tryResolve(arguments: "no such argument type")
        #expect(missing == nil)
    }

    /// A registration of `T?` with other argument types does not hide `T`'s.
    @Test func anOptionalRequestReachesTheWrappedTypesRegistrationsToo() throws {
        let r = Resolver()
        r.register(AMScreen?.self, arguments: Int.self) { _ in nil }
        r.register(arguments: AMRoutes.self) { AMScreen(routes: $0) }
        let router = AMRouter()
        let screen: AMScreen? = try r.tryResolve(arguments: router)
        #expect(screen?.routes === router)
        let none: AMScreen? = try r.tryResolve(arguments: 3)
        #expect(none == nil)
    }

    /// A registration for the very argument types answers a request for `T?`, nil included: its
    /// factory runs once, and no registration whose argument types the values convert to replaces
    /// its nil.
    @Test func anExactRegistrationsNilIsTheAnswer() throws {
        let r = Resolver()
        let calls = FxCounter()
        r.register(AMScreen?.self, arguments: AMRoutes.self) { AMScreen(routes: $0) }
        r.register(AMScreen?.self, arguments: AMRouter.self) { _ -> AMScreen? in
            calls.increment()
            return nil
        }
        let screen: AMScreen? = try r.tryResolve(arguments: AMRouter())
        #expect(screen == nil)
        #expect(calls.value == 1)
        #expect((try r.tryResolve(arguments: AMOtherRouter()) as AMScreen?) != nil)
    }

    @Test func severalArgumentsAreEachConverted() {
        let r = Resolver()
        r.register(arguments: AMRoutes.self, Int.self) { AMScreen(routes: $0, id: $1) }
        let screen: AMScreen = r.resolve(arguments: AMRouter(), 7)
        #expect(screen.id == 7)
    }

    @Test func aSubclassMatchesItsRegisteredSuperclass() {
        let r = Resolver()
        r.register(arguments: AMBase.self) { AMHolder(base: $0) }
        let derived = AMDerived()
        #expect((r.resolve(arguments: derived) as AMHolder).base === derived)
        #expect((r.optional(arguments: derived) as AMHolder?)?.base === derived)
    }

    @Test func aParentsRegistrationIsReachedFromAChild() {
        let parent = Resolver()
        parent.register(arguments: AMRoutes.self) { AMScreen(routes: $0) }
        let child = Resolver(parent: parent)
        #expect((child.resolve(arguments: AMRouter()) as AMScreen).routes.name == "router")
    }

    @Test func aRealMismatchStillFailsWithTheArgumentsMessage() {
        let r = Resolver(id: "am-mismatch")
        r.register(arguments: AMRoutes.self) { AMScreen(routes: $0) }
        #expect(throws: ResolutionError.self) { try r.tryResolve(AMScreen.self, arguments: "not a router") }
        #expect((r.optional(arguments: 42) as AMScreen?) == nil)
        #expect((r.optional(arguments: AMRouter(), 1) as AMScreen?) == nil)
    }
}

@MainActor private final class AMMainScreen {
    let routes: AMRoutes
    init(routes: AMRoutes) { self.routes = routes }
}

@Suite struct MainActorArgumentMatchingTests {
    /// A main-actor registration with arguments converts a value of a conforming type as the
    /// others do.
    @MainActor @Test func aMainActorRegistrationConvertsItsArguments() {
        let r = Resolver()
        r.register(arguments: AMRoutes.self) { @MainActor routes in AMMainScreen(routes: routes) }
        let concrete = AMRouter()
        #expect((r.resolve(arguments: concrete) as AMMainScreen).routes === concrete)
    }
}

/// AsyncFactories: the async twins have the same `arguments:` forms, which match values by their
/// dynamic types as the synchronous ones do.
@Suite struct AsyncArgumentMatchingTests {
    @Test func aSubclassOrAConformingValueReachesASynchronousRegistration() async throws {
        let r = Resolver()
        r.register(arguments: AMBase.self) { AMHolder(base: $0) }
        let derived = AMDerived()
        #expect(try await r.tryResolveAsync(AMHolder.self, arguments: derived).base === derived)
        #expect(await r.optionalAsync(AMHolder.self, arguments: derived)?.base === derived)
        #expect(await r.resolveAsync(AMHolder.self, arguments: derived).base === derived)
    }

    @Test func anOptionalRequestMatchesTheSameWay() async throws {
        let r = Resolver()
        r.register(arguments: AMBase.self) { AMHolder(base: $0) }
        let derived = AMDerived()
        #expect(try r.tryResolve(AMHolder?.self, arguments: derived)?.base === derived)
        #expect(try await r.tryResolveAsync(AMHolder?.self, arguments: derived)?.base === derived)
        #expect(await r.optionalAsync(AMHolder?.self, arguments: derived)??.base === derived)
        #expect(await r.resolveAsync(AMHolder?.self, arguments: "no such argument type") == nil)
    }

    @Test func aConformingValueReachesAnAsyncRegistration() async throws {
        let r = Resolver()
        r.register(arguments: AMAsyncRoutes.self, Int.self) { (routes: AMAsyncRoutes, id: Int) async in
            AMAsyncScreen(routes: routes, id: id)
        }
        let router = AMAsyncRouter()
        let screen: AMAsyncScreen = try await r.tryResolveAsync(arguments: router, 4)
        #expect(screen.routes === router && screen.id == 4)
        #expect(await r.optionalAsync(AMAsyncScreen.self, arguments: router, 5)?.id == 5)
        #expect(await r.optionalAsync(AMAsyncScreen.self, arguments: "not a router", 5) == nil)
        await #expect(throws: ResolutionError.self) { try await r.tryResolveAsync(AMAsyncScreen.self, arguments: 3, 5) }
    }
}

private protocol AMAsyncRoutes: AnyObject, Sendable {}
private final class AMAsyncRouter: AMAsyncRoutes {}
private final class AMAsyncScreen: Sendable {
    let routes: AMAsyncRoutes
    let id: Int
    init(routes: AMAsyncRoutes, id: Int) {
        self.routes = routes
        self.id = id
    }
}
