import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle
import Syringe
import TodoKit

// The load run: the app (a container per request) and the same routes wired by hand over the same
// repository, served by one server on a loopback port under the same load.
//
//   swift run -c release --package-path Examples/TodoServer TodoLoad [--requests 10000] [--concurrency 32]
//
// It fails (exit 1) on any error, on any response that carries another request's values, when
// resident memory grows by 10 MB or more between a warm-up and a run of the same size, or when a
// container per request costs 5% or more of a request's processor time in the server.

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    return arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? value
}

let megabyte = 1_048_576.0
let requests = option("--requests", default: 10_000)
let concurrency = option("--concurrency", default: 32)
let rounds = option("--rounds", default: 61)
/// How long each throughput round loads one wiring.
let roundLength = Duration.milliseconds(option("--round-milliseconds", default: 300))
/// `--control`: serve the routes wired by hand in the app's place too, to see how far two identical
/// wirings differ on this machine.
let isControl = CommandLine.arguments.contains("--control")
/// `--hand-busy-nanoseconds N`: processor time each hand-wired request spends busy first, to see
/// whether the difference over the network follows the in-process cost.
let handBusy = Duration.nanoseconds(option("--hand-busy-nanoseconds", default: 0))
/// `--hand-syringe-work`: each hand-wired request also does Syringe's part of a request first (a
/// child with the request's values, bound while a use case and the request id are resolved in it),
/// to see what that work costs over the network when it is all the two wirings differ by.
let handSyringeWork = CommandLine.arguments.contains("--hand-syringe-work")
/// What the output calls the app's slot: the hand-wired routes serve it with `--control`.
let appLabel = isControl ? "control" : "Syringe"
/// What the output calls the difference between the two slots.
let costLabel = isControl ? "the control" : "a container per request"
/// `--profile hand` or `--profile app`: load that wiring alone, `--rounds` times, under a profiler.
let profiled = CommandLine.arguments.firstIndex(of: "--profile").flatMap {
    $0 + 1 < CommandLine.arguments.count ? Wiring(rawValue: CommandLine.arguments[$0 + 1]) : nil
}
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TodoLoad-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
/// Ends the run, removing the database directory (`exit` skips any `defer`).
func finish(passing: Bool) -> Never {
    try? FileManager.default.removeItem(at: directory)
    exit(passing ? 0 : 1)
}

var logger = Logger(label: "TodoLoad")
logger.logLevel = .warning
let configuration = ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0))

/// Runs `app` until `body` returns, giving `body` its port, then shuts it down gracefully.
@MainActor
func serving(
    _ app: (@escaping @Sendable (any Channel) async -> Void) async throws -> any ApplicationProtocol,
    _ body: (Int) async throws -> Void
) async throws {
    let (ports, port) = AsyncStream.makeStream(of: Int.self)
    let server = try await app { channel in port.yield(channel.localAddress?.port ?? 0) }
    let services = ServiceGroup(services: [server], gracefulShutdownSignals: [], logger: logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        try await body(await iterator.next() ?? 0)
        await services.triggerGracefulShutdown()
        try await group.waitForAll()
    }
}

/// The same requests without the network, handed to the server's responder, before the load
/// (whose client leaves timers pending for seconds): the server's own code. Over a repository in
/// memory, whose cost does not vary from round to round, the two wirings differ by what a container
/// per request costs in the server, where it shares the caches with everything else a request
/// does; over the database, by hand, a request's processor time in the server. False when a
/// response is not what its request asked for, or the container costs 5% of a request or more.
@MainActor
func measureInProcess(responder: BothWirings, inMemoryResponder: BothWirings) async throws -> Bool {
    print("  in process, without the network:")
    guard let inMemory = try await inProcessCost(inMemoryResponder, requests: 5_000, rounds: 21),
        let onDatabase = try await inProcessCost(responder, requests: 1_000, rounds: 11, only: .hand),
        let handInMemory = inMemory[.hand], let appInMemory = inMemory[.app], let request = onDatabase[.hand]
    else {
        print("    a response was not what its request asked for")
        return false
    }
    let cost = appInMemory - handInMemory
    print(
        "    over a repository in memory: by hand \(String(format: "%.1f", handInMemory)) µs of CPU a request, "
            + "\(appLabel) \(String(format: "%.1f", appInMemory)) µs (medians of 21 rounds)")
    print(
        "    \(costLabel) costs \(String(format: "%.1f", cost)) µs of the "
            + "\(String(format: "%.1f", request)) µs a request takes in the server by hand over the database: "
            + "\(String(format: "%.1f", cost / request * 100))% (the limit is 5%)")
    // Syringe's own part of a request, measured alone, for comparison: in the server it costs more.
    let work = await syringeWorkPerRequest(requests * 2)
    print("    Syringe's part of a request, alone: \(String(format: "%.1f", work)) µs of CPU")
    return isControl || cost / request < 0.05
}

/// The app over `services` and the routes wired by hand over `repository` (the same one), or, with
/// `--control`, the hand-wired routes in both places.
func bothWirings(services: Resolver, repository: any TodoRepository) -> BothWirings {
    let byHand = buildHandWiredRouter(repository: repository, busy: handBusy, syringeWork: handSyringeWork)
        .buildResponder()
    guard !isControl else {
        return BothWirings(control: buildHandWiredRouter(repository: repository).buildResponder(), byHand: byHand)
    }
    return BothWirings(app: buildRouter(services: services).buildResponder(), byHand: byHand)
}

/// Runs the rounds over `connections`; false when one of them failed.
@MainActor
func runRounds(
    on connections: [TestClient], port: Int, responder: BothWirings, inMemoryResponder: BothWirings
) async throws -> Bool {
    var passed = true
    func round(
        _ name: String, _ wiring: Wiring, on connections: [TestClient], requests: Int, for duration: Duration? = nil,
        quiet: Bool = false
    ) async throws -> LoadResult {
        let result = try await load(connections, wiring, requests: requests, for: duration, round: name)
        if !quiet || result.errors > 0 || result.violations > 0 {
            print(
                "  \(name): \(result.requests) requests, \(result.errors) errors, "
                    + "\(result.violations) isolation violations, \(Int(result.requestsPerSecond)) requests/s")
        }
        if result.errors > 0 || result.violations > 0 { passed = false }
        return result
    }

    if let only = profiled {  // one wiring alone, for a profiler
        for index in 0..<rounds {
            _ = try await round("\(only) \(index)", only, on: connections, requests: requests)
        }
        return passed
    }

    passed = try await measureInProcess(responder: responder, inMemoryResponder: inMemoryResponder)
    _ = try await round("warm-up, by hand", .hand, on: connections, requests: requests)
    _ = try await round("warm-up, \(appLabel)", .app, on: connections, requests: requests)
    let before = try await settledResidentMemory()
    _ = try await round("run, \(appLabel)", .app, on: connections, requests: requests)
    let after = try await settledResidentMemory()
    let growth = Double(after - before) / megabyte
    print(
        "  resident memory: \(String(format: "%.1f", Double(before) / megabyte)) MB after the warm-up, "
            + "\(String(format: "%.1f", Double(after) / megabyte)) MB after the run "
            + "(\(String(format: "%+.1f", growth)) MB; the limit is +10 MB)")
    if growth >= 10 { passed = false }
    _ = try await round("run, by hand", .hand, on: connections, requests: requests)

    // Throughput: many short rounds, alternating which wiring goes first, so that the machine's
    // drift falls on both; the medians are compared. Each round keeps every connection busy until
    // its time is up, so that it measures the server in its steady state.
    var hand = Throughput()
    var wired = Throughput()
    var costs: [Double] = []  // each pair of rounds' cost of the container, in % of the rate by hand
    for index in 0..<rounds {
        // Connections of their own for each pair of rounds, which both wirings use: which event
        // loop a connection and its server side land on differs between connections. One request
        // on each opens it before the first round's clock starts.
        let pair = try await withConnections(concurrency, to: port) { connections in
            _ = try await round("opening \(index)", .hand, on: connections, requests: concurrency, quiet: true)
            var pair: [Wiring: LoadResult] = [:]
            for wiring in index % 2 == 0 ? [Wiring.hand, .app] : [.app, .hand] {
                pair[wiring] = try await round(
                    "\(wiring) \(index)", wiring, on: connections, requests: 0, for: roundLength, quiet: true)
            }
            return pair
        }
        guard let byHand = pair[.hand], let withSyringe = pair[.app] else { continue }
        hand.add(byHand)
        wired.add(withSyringe)
        costs.append((1 - withSyringe.requestsPerSecond / byHand.requestsPerSecond) * 100)
    }
    costs.sort()
    print("  \(rounds) rounds of \(roundLength) each, medians:")
    print("    by hand: \(hand)")
    print("    \(appLabel): \(wired)")
    print(
        "    \(costLabel) costs \(String(format: "%.1f", (1 - wired.rate / hand.rate) * 100))% of the "
            + "requests per second, \(String(format: "%.1f", wired.cpu - hand.cpu)) µs of CPU a request")
    print(
        "    pair by pair: \(String(format: "%.1f", costs[costs.count / 2]))% (median), from "
            + "\(String(format: "%.1f", costs[costs.count / 4]))% to "
            + "\(String(format: "%.1f", costs[costs.count * 3 / 4]))% (middle half)")
    return passed
}

print("TodoLoad: \(requests) requests a round, \(concurrency) in flight, on loopback")
Resolver.install(TodoServices(databasePath: directory.appendingPathComponent("todos.sqlite").path))
// What `buildApplication` does: the async singleton's one build, before the first request. Both
// wirings use this repository: they differ in the wiring alone.
let repository = try await Resolver.main.tryResolveAsync((any TodoRepository).self)
let responder = bothWirings(services: .main, repository: repository)
// For the requests in process: both wirings over one repository in memory, so that the database's
// disk work (which varies from round to round) does not hide the wirings' difference.
let inMemory = Resolver()
inMemory.install(InMemoryServices())
let inMemoryResponder = bothWirings(services: inMemory, repository: inMemory.resolve())
if CommandLine.arguments.contains("--in-process") {  // the requests without the network only, for a profiler
    guard
        let cost = try await inProcessCost(inMemoryResponder, requests: 5_000, rounds: rounds, only: profiled)
    else {
        print("TodoLoad: FAILED (a response was not what its request asked for)")
        finish(passing: false)
    }
    let figures = cost.map { "\($0.key) \(String(format: "%.1f", $0.value))" }
    print("TodoLoad: in process, µs of CPU a request: \(figures.joined(separator: ", "))")
    finish(passing: true)
}
var passed = false
try await serving({
    Application(responder: responder, configuration: configuration, onServerRunning: $0, logger: logger)
}) { port in
    passed = try await withConnections(concurrency, to: port) {
        try await runRounds(on: $0, port: port, responder: responder, inMemoryResponder: inMemoryResponder)
    }
}
print(passed ? "TodoLoad: passed" : "TodoLoad: FAILED")
finish(passing: passed)
