import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TodoKit

// The same routes as TodoKit's `buildRouter`, wired by hand, as an app without a container would
// be: the request's values travel in a request context of its own, and each handler builds its
// use case from them. The load run measures the app against this.

/// The request's id, user and logger, set by ``HandWiredScopeMiddleware``.
struct HandWiredContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var requestID = RequestIdentifier("")
    var user = CurrentUser(name: "")

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
    }

    /// The context of a request that ``BothWirings`` received.
    init(core: CoreRequestContextStorage) {
        coreContext = core
    }
}

/// How a request is served: by the app (a container per request) or by the routes wired by hand.
enum Wiring: String, CaseIterable {
    case app, hand

    /// The header a request names its wiring in.
    static let header = HTTPField.Name("x-wiring")!
}

/// One server for both wirings, each request served as its `x-wiring` header says: the two share
/// the server, its event loops and the client's connections, so that what the load run compares
/// differs in the wiring alone.
struct BothWirings: HTTPResponder {
    typealias Respond = @Sendable (Request, BasicRequestContext) async throws -> Response
    let app: Respond
    let byHand: Respond

    /// `app` serves `x-wiring: app`, `byHand` the rest.
    init(app: @escaping Respond, byHand: @escaping Respond) {
        self.app = app
        self.byHand = byHand
    }

    init(app: RouterResponder<BasicRequestContext>, byHand: RouterResponder<HandWiredContext>) {
        self.init(app: app.respond, byHand: Self.serve(byHand))
    }

    /// Serves the requests of both wirings by hand: a control, to see how far two identical wirings
    /// differ on this machine.
    init(control: RouterResponder<HandWiredContext>, byHand: RouterResponder<HandWiredContext>) {
        self.init(app: Self.serve(control), byHand: Self.serve(byHand))
    }

    private static func serve(_ responder: RouterResponder<HandWiredContext>) -> Respond {
        { request, context in
            try await responder.respond(to: request, context: HandWiredContext(core: context.coreContext))
        }
    }

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        try await (request.headers[Wiring.header] == Wiring.app.rawValue ? app : byHand)(request, context)
    }
}

/// What `RequestScopeMiddleware` does, into the request context instead of a container.
struct HandWiredScopeMiddleware: RouterMiddleware {
    /// Processor time each request spends first, busy (`--hand-busy-nanoseconds`): with the app's
    /// in-process cost here, the two wirings differ over the network by what the network adds.
    let busy: Duration
    /// Whether each request also does Syringe's part of a request first (`--hand-syringe-work`,
    /// ``syringeWork(requestID:user:logger:)``): the hand-wired routes then differ from the app's in
    /// where that work runs alone.
    let syringeWork: Bool

    func handle(
        _ request: Request, context: HandWiredContext,
        next: (Request, HandWiredContext) async throws -> Response
    ) async throws -> Response {
        if busy > .zero {
            let end = ContinuousClock.now + busy
            while ContinuousClock.now < end {}
        }
        guard let user = request.headers[.user], !user.isEmpty else {
            throw HTTPError(.unauthorized, message: "Name the user in the x-user header.")
        }
        var context = context
        context.requestID = RequestIdentifier(request.headers[.requestID] ?? UUID().uuidString)
        context.user = CurrentUser(name: user)
        context.logger[metadataKey: "request-id"] = "\(context.requestID)"
        if syringeWork {
            let resolved = await TodoLoad.syringeWork(
                requestID: context.requestID, user: context.user, logger: context.logger)
            precondition(resolved == context.requestID.value.utf8.count)
        }
        return try await next(request, context)
    }
}

func buildHandWiredRouter(
    repository: any TodoRepository, busy: Duration = .zero, syringeWork: Bool = false
) -> Router<HandWiredContext> {
    let router = Router(context: HandWiredContext.self)
    router.get("health") { _, _ in HTTPResponse.Status.ok }

    let todos = router.group("todos").add(middleware: HandWiredScopeMiddleware(busy: busy, syringeWork: syringeWork))
    todos.post { request, context in
        let input = try await request.decode(as: NewTodo.self, context: context)
        let todos = EditTodos(repository: repository, user: context.user, logger: context.logger)
        return Reply(try await todos.create(title: input.title), status: .created, requestID: context.requestID)
    }
    todos.get { _, context in
        let find = FindTodos(repository: repository, user: context.user)
        return Reply(try await find.all(), requestID: context.requestID)
    }
    todos.get(":id") { _, context in
        let find = FindTodos(repository: repository, user: context.user)
        guard let todo = try await find.one(id: try context.parameters.require("id", as: Int.self)) else {
            throw HTTPError(.notFound)
        }
        return Reply(todo, requestID: context.requestID)
    }
    todos.post(":id/complete") { _, context in
        let todos = EditTodos(repository: repository, user: context.user, logger: context.logger)
        guard let todo = try await todos.complete(id: try context.parameters.require("id", as: Int.self)) else {
            throw HTTPError(.notFound)
        }
        return Reply(todo, requestID: context.requestID)
    }
    return router
}
