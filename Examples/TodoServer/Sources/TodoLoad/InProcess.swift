import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Syringe
import TodoKit

/// Processor time, in microseconds a request, that the server's own code takes for each wiring:
/// `responder` driven directly with requests made in memory, without the network, the event
/// loops or the client, which the load rounds also measure and which dilute the wiring's share.
/// Rounds of `requests` requests alternate between the wirings; the medians are returned.
/// Returns nil when a response is not what the request asked for.
func inProcessCost(
    _ responder: BothWirings, requests: Int, rounds: Int, only: Wiring? = nil
) async throws -> [Wiring: Double]? {
    var costs: [Wiring: [Double]] = [:]
    for index in 0..<rounds {
        for wiring in only.map({ [$0] }) ?? (index % 2 == 0 ? [Wiring.hand, .app] : [.app, .hand]) {
            let start = clock()
            guard try await send(requests, wiring, to: responder, worker: "\(wiring)-\(index)") else { return nil }
            costs[wiring, default: []].append(Double(clock() - start) / Double(CLOCKS_PER_SEC) / Double(requests) * 1e6)
        }
    }
    return costs.mapValues { $0.sorted()[$0.count / 2] }
}

/// Sends `count` requests to `responder` one after another, each pair creating a todo and reading
/// it back; false when a response is not what its request asked for.
private func send(_ count: Int, _ wiring: Wiring, to responder: BothWirings, worker: String) async throws -> Bool {
    let channel = EmbeddedChannel()
    var logger = Logger(label: "TodoLoad")
    logger.logLevel = .warning
    var id = 0
    for n in 0..<count {
        let requestID = "\(worker)-\(n)"
        var head = HTTPRequest(method: n % 2 == 0 ? .post : .get, scheme: nil, authority: nil, path: "/todos")
        head.headerFields = [.user: "user \(n / 2 % 4)", .requestID: requestID, Wiring.header: wiring.rawValue]
        let body: ByteBuffer
        if n % 2 == 0 {
            body = ByteBuffer(string: #"{"title":"\#(requestID)"}"#)
        } else {
            head.path = "/todos/\(id)"
            body = ByteBuffer()
        }
        let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
        let response = try await responder.respond(
            to: Request(head: head, body: RequestBody(buffer: body)), context: context)
        guard response.status == (n % 2 == 0 ? .created : .ok), response.headers[.requestID] == requestID
        else { return false }
        if n % 2 == 0 { id = try await createdID(response) }
    }
    return true
}

/// The id of the todo a `POST /todos` response carries.
private func createdID(_ response: Response) async throws -> Int {
    let writer = CollectingWriter()
    try await response.body.write(writer)
    return try JSONDecoder().decode(Todo.self, from: Data(buffer: writer.collected.buffer)).id
}

/// Keeps what a response body writes.
private struct CollectingWriter: ResponseBodyWriter {
    final class Collected { var buffer = ByteBuffer() }
    let collected = Collected()

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        collected.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// The app's services with the repository in memory. A module, so that its factories are not bound
/// to the main actor, where `main.swift` installs it.
struct InMemoryServices: ResolverModule {
    func register(in resolver: Resolver) {
        resolver.install(TodoServices(databasePath: nil))
        resolver.register(lifetime: .singleton) { InMemoryTodoRepository() as any TodoRepository }
    }
}
