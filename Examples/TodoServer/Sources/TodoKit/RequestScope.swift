import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Syringe

/// The id of the request being served: the client's `x-request-id`, or a new one.
public struct RequestIdentifier: Hashable, Sendable, CustomStringConvertible {
    public let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { value }
}

/// The user the request is for, named by its `x-user` header.
public struct CurrentUser: Hashable, Sendable {
    public let name: String

    public init(name: String) { self.name = name }
}

extension HTTPField.Name {
    /// Names the user a request acts for.
    public static let user = Self("x-user")!
    /// The request's id, sent back with its response.
    public static let requestID = Self("x-request-id")!
}

/// Gives every request a container of its own: a child of the app's container holding the request
/// id, the current user and a `Logger` tagged with the request id, bound to the request's task for
/// as long as the request is handled.
///
/// Whatever a handler resolves inside (`Resolver.resolve()`, `@Inject`, default arguments) comes
/// from that child: its own registrations, then the app's. When the response is sent the child is
/// released, with everything the request registered or built in it.
public struct RequestScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The app's container, the parent of every request's.
    public let services: Resolver

    public init(services: Resolver) {
        self.services = services
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let user = request.headers[.user], !user.isEmpty else {
            throw HTTPError(.unauthorized, message: "Name the user in the x-user header.")
        }
        let requestID = RequestIdentifier(request.headers[.requestID] ?? UUID().uuidString)
        var logger = context.logger
        logger[metadataKey: "request-id"] = "\(requestID)"

        let scope = Resolver(parent: services)
        scope.register { requestID }
        scope.register { CurrentUser(name: user) }
        scope.register { logger }
        return try await Resolver.withContainer(scope) {
            try await next(request, context)
        }
    }
}

/// A JSON response that carries the request's id in `x-request-id`.
public struct Reply<Value: Encodable & Sendable>: ResponseGenerator {
    public let value: Value
    public let status: HTTPResponse.Status
    public let requestID: RequestIdentifier

    /// `requestID` defaults to the one in the request's container.
    public init(_ value: Value, status: HTTPResponse.Status = .ok, requestID: RequestIdentifier = Resolver.resolve()) {
        self.value = value
        self.status = status
        self.requestID = requestID
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try context.responseEncoder.encode(value, from: request, context: context)
        response.status = status
        response.headers[.requestID] = requestID.value
        return response
    }
}
