import Foundation
import Logging
import Syringe
import TodoKit

/// Processor time, in microseconds a request, that Syringe's part of a request takes on its own,
/// without the server: `RequestScopeMiddleware`'s child container with its three registrations,
/// bound for the request's task with `withContainer`, and what a handler resolves in it (a use case
/// whose initializer resolves the repository, the user and the logger, and the reply's request id),
/// then the container's release. `EditTodos`, the use case with the most dependencies, stands for
/// every request. Measured `count` times in a row, while the servers are idle.
func syringeWorkPerRequest(_ count: Int) async -> Double {
    let logger = Logger(label: "TodoLoad")
    var kept = 0
    let cpuStart = clock()
    for index in 0..<count {
        kept &+= await syringeWork(
            requestID: RequestIdentifier("request \(index)"), user: CurrentUser(name: "user"), logger: logger)
    }
    let seconds = Double(clock() - cpuStart) / Double(CLOCKS_PER_SEC)
    precondition(kept > 0)
    return seconds / Double(count) * 1_000_000
}

/// Syringe's part of one request: a child of `main` holding the request's values, bound with
/// `withContainer` (the async form, as the middleware binds the request's task) while a use case
/// and the request id are resolved in it. Returns the length of the id resolved, so that the
/// optimizer keeps the work.
func syringeWork(requestID: RequestIdentifier, user: CurrentUser, logger: Logger) async -> Int {
    let scope = Resolver(parent: .main)
    scope.register { requestID }
    scope.register { user }
    scope.register { logger }
    return await Resolver.withContainer(scope) { () async -> Int in
        let todos: EditTodos = Resolver.resolve()
        let id: RequestIdentifier = Resolver.resolve()
        return withExtendedLifetime(todos) { id.value.utf8.count }
    }
}
