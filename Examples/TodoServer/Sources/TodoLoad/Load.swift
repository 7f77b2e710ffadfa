import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TodoKit

/// What one load round saw.
struct LoadResult {
    var requests = 0
    /// Transport failures and unexpected statuses.
    var errors = 0
    /// Responses that carried another request's id, user or todo.
    var violations = 0
    var seconds = 0.0
    /// Processor time the whole process used (server and client), in seconds.
    var cpuSeconds = 0.0

    var requestsPerSecond: Double { Double(requests) / seconds }

    static func + (lhs: Self, rhs: Self) -> Self {
        Self(
            requests: lhs.requests + rhs.requests, errors: lhs.errors + rhs.errors,
            violations: lhs.violations + rhs.violations, seconds: max(lhs.seconds, rhs.seconds))
    }
}

/// Sends requests over `connections`, served as `wiring` says, one request in flight on each, all
/// of them at once: `requests` of them in all, or, with `duration`, as many as fit until it has
/// passed. A timed round keeps every connection busy for the whole round and ends with the last
/// response (at most one request past the deadline on each), so that no round ends on a few
/// stragglers. Each pair of requests creates a todo (`POST /todos`) and reads it back
/// (`GET /todos/:id`), for a user and with a request id of its own; every response is checked to
/// carry that request's id, user and todo.
func load(
    _ connections: [TestClient], _ wiring: Wiring, requests: Int = 0, for duration: Duration? = nil, round: String
) async throws -> LoadResult {
    let start = ContinuousClock.now
    let deadline = duration.map { start + $0 }
    let cpuStart = clock()
    var result = try await withThrowingTaskGroup(of: LoadResult.self) { group in
        for (index, connection) in connections.enumerated() {
            let count =
                deadline == nil ? requests / connections.count + (index < requests % connections.count ? 1 : 0) : .max
            group.addTask {
                try await run(count, wiring, until: deadline, on: connection, worker: "\(round)-w\(index)")
            }
        }
        return try await group.reduce(LoadResult(), +)
    }
    result.seconds = (ContinuousClock.now - start) / .seconds(1)
    result.cpuSeconds = Double(clock() - cpuStart) / Double(CLOCKS_PER_SEC)
    return result
}

/// The medians of several rounds.
struct Throughput: CustomStringConvertible {
    private var rates: [Double] = []
    private var cpuPerRequest: [Double] = []

    mutating func add(_ result: LoadResult) {
        rates.append(result.requestsPerSecond)
        cpuPerRequest.append(result.cpuSeconds / Double(result.requests) * 1_000_000)
    }

    /// Requests per second.
    var rate: Double { Self.median(rates) }
    /// Microseconds of processor time a request, the client's included.
    var cpu: Double { Self.median(cpuPerRequest) }

    var description: String {
        "\(Int(rate)) requests/s, \(String(format: "%.1f", cpu)) µs of CPU a request (server and client)"
    }

    private static func median(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.sorted()[values.count / 2]
    }
}

/// How long a request may take. The client waits for each response beside a `Task.sleep` of this
/// length, cancelled when the response comes; on Linux a cancelled sleep's timer stays pending (a
/// few hundred bytes) until its deadline. ``settledResidentMemory()`` waits that long.
let requestTimeout = Duration.seconds(3)

/// `count` keep-alive connections to the server on `port`, open while `body` runs.
@MainActor
func withConnections<R>(
    _ count: Int, to port: Int, _ body: ([TestClient]) async throws -> R
) async throws -> R {
    let connections = (0..<count).map { _ in
        TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: requestTimeout))
    }
    for connection in connections { connection.connect() }
    do {
        let result = try await body(connections)
        for connection in connections { try await connection.shutdown() }
        return result
    } catch {
        for connection in connections { try? await connection.shutdown() }
        throw error
    }
}

private func run(
    _ count: Int, _ wiring: Wiring, until deadline: ContinuousClock.Instant?, on client: TestClient, worker: String
) async throws -> LoadResult {
    var result = LoadResult()
    var created: Todo?
    for n in 0..<count {
        if let deadline, ContinuousClock.now >= deadline { break }
        let user = "\(worker)-u\(n / 2 % 4)"
        let requestID = "\(worker)-r\(n)"
        let headers: HTTPFields = [.user: user, .requestID: requestID, Wiring.header: wiring.rawValue]
        result.requests += 1
        let response: TestClient.Response
        let expected: (title: String?, status: HTTPResponse.Status)
        do {
            if n % 2 == 0 {
                let body = ByteBuffer(string: #"{"title":"\#(requestID)"}"#)
                response = try await client.post("/todos", headers: headers, body: body)
                expected = (requestID, .created)
            } else {
                response = try await client.get("/todos/\(created?.id ?? 0)", headers: headers)
                expected = (created?.title, .ok)
            }
        } catch {
            result.errors += 1
            continue
        }
        guard response.status == expected.status, let body = response.body,
            let todo = try? JSONDecoder().decode(Todo.self, from: Data(buffer: body))
        else {
            result.errors += 1
            created = nil
            continue
        }
        if response.headers[.requestID] != requestID || todo.owner != user || todo.title != expected.title {
            result.violations += 1
        }
        created = todo
    }
    return result
}

/// The process's resident memory once the client's pending timers have expired.
func settledResidentMemory() async throws -> Int {
    try await Task.sleep(for: requestTimeout + .seconds(1))
    return residentMemory()
}

/// The process's resident memory, in bytes (Linux; 0 elsewhere).
func residentMemory() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return kilobytes * 1024
}
