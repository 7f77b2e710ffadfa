import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle
import Syringe
import TodoKit

// The load run: the app (a container per request) and the same routes wired by hand, each on a
// loopback port with its own SQLite file, under the same load.
//
//   swift run -c release --package-path Examples/TodoServer TodoLoad [--requests 10000] [--concurrency 32]
//
// It fails (exit 1) on any error, on any response that carries another request's values, or when
// resident memory grows by 10 MB or more between a warm-up and a run of the same size.

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    return arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? value
}

let megabyte = 1_048_576.0
let requests = option("--requests", default: 10_000)
let concurrency = option("--concurrency", default: 32)
let rounds = option("--rounds", default: 31)
/// `--control`: serve the routes wired by hand in Syringe's place too (over a database of its own), to
/// see how far two identical servers differ on this machine.
let isControl = CommandLine.arguments.contains("--control")
/// `--profile hand` or `--profile syringe`: load that server alone, `--rounds` times, under a profiler.
let profiled = CommandLine.arguments.firstIndex(of: "--profile").flatMap {
    $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
}
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TodoLoad-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

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

/// Runs the rounds; false when one of them failed.
@MainActor
func runRounds(syringe: [TestClient], byHand: [TestClient], ports: (syringe: Int, byHand: Int)) async throws -> Bool {
    var passed = true
    func round(_ name: String, on connections: [TestClient], requests: Int, quiet: Bool = false) async throws
        -> LoadResult
    {
        let result = try await load(connections, requests: requests, round: name)
        if !quiet || result.errors > 0 || result.violations > 0 {
            print(
                "  \(name): \(result.requests) requests, \(result.errors) errors, "
                    + "\(result.violations) isolation violations, \(Int(result.requestsPerSecond)) requests/s")
        }
        if result.errors > 0 || result.violations > 0 { passed = false }
        return result
    }

    if let only = profiled {  // one server alone, for a profiler
        for index in 0..<rounds {
            _ = try await round("\(only) \(index)", on: only == "hand" ? byHand : syringe, requests: requests)
        }
        return passed
    }

    _ = try await round("warm-up, by hand", on: byHand, requests: requests)
    _ = try await round("warm-up, Syringe", on: syringe, requests: requests)
    let before = try await settledResidentMemory()
    _ = try await round("run, Syringe", on: syringe, requests: requests)
    let after = try await settledResidentMemory()
    let growth = Double(after - before) / megabyte
    print(
        "  resident memory: \(String(format: "%.1f", Double(before) / megabyte)) MB after the warm-up, "
            + "\(String(format: "%.1f", Double(after) / megabyte)) MB after the run "
            + "(\(String(format: "%+.1f", growth)) MB; the limit is +10 MB)")
    if growth >= 10 { passed = false }
    // The same history for the server wired by hand: both databases hold as many todos when the
    // throughput rounds start.
    _ = try await round("run, by hand", on: byHand, requests: requests)

    // Throughput: many short rounds, alternating which server goes first, so that the machine's
    // drift falls on both; the medians are compared.
    var hand = Throughput()
    var wired = Throughput()
    var costs: [Double] = []  // each pair of rounds' cost of the container, in % of the rate by hand
    let size = max(requests / 10, 1)
    for index in 0..<rounds {
        let byHandFirst = index % 2 == 0
        var pair: [LoadResult] = []
        // Connections of their own each round: which event loop a connection and its server side
        // land on differs between connections, and would otherwise favour one server for the run.
        func fresh(_ name: String, _ port: Int) async throws -> LoadResult {
            try await withConnections(concurrency, to: port) {
                try await round("\(name) \(index)", on: $0, requests: size, quiet: true)
            }
        }
        if byHandFirst { pair.append(try await fresh("by hand", ports.byHand)) }
        let withSyringe = try await fresh("Syringe", ports.syringe)
        if !byHandFirst { pair.append(try await fresh("by hand", ports.byHand)) }
        hand.add(pair[0])
        wired.add(withSyringe)
        costs.append((1 - withSyringe.requestsPerSecond / pair[0].requestsPerSecond) * 100)
    }
    costs.sort()
    print("  \(rounds) rounds of \(size) requests each, medians:")
    print("    by hand: \(hand)")
    print("    Syringe: \(wired)")
    print(
        "    a container per request costs \(String(format: "%.1f", (1 - wired.rate / hand.rate) * 100))% of the "
            + "requests per second, \(String(format: "%.1f", wired.cpu - hand.cpu)) µs of CPU a request")
    print(
        "    pair by pair: \(String(format: "%.1f", costs[costs.count / 2]))% (median), from "
            + "\(String(format: "%.1f", costs[costs.count / 4]))% to \(String(format: "%.1f", costs[costs.count * 3 / 4]))% "
            + "(middle half)")
    // Syringe's own part of a request, measured alone (it is too small for the rounds above to
    // resolve: two identical servers differ by several percent between rounds), against a
    // request's processor time by hand.
    guard !isControl else { return passed }
    let work = await syringeWorkPerRequest(requests * 2)
    let share = work / hand.cpu * 100
    print(
        "    Syringe's part of a request, alone: \(String(format: "%.1f", work)) µs of CPU, "
            + "\(String(format: "%.1f", share))% of a request by hand (the limit is 5%)")
    if share >= 5 { passed = false }
    return passed
}

print("TodoLoad: \(requests) requests a round, \(concurrency) in flight, on loopback")
Resolver.install(TodoServices(databasePath: directory.appendingPathComponent("syringe.sqlite").path))
let handDatabase = try await TodoDatabase.open(path: directory.appendingPathComponent("hand.sqlite").path)
var passed = false
let controlDatabase = try await TodoDatabase.open(path: directory.appendingPathComponent("control.sqlite").path)
try await serving({ onServerRunning -> any ApplicationProtocol in
    guard isControl else {
        return try await buildApplication(
            services: .main, configuration: configuration, onServerRunning: onServerRunning, logger: logger)
    }
    return Application(
        router: buildHandWiredRouter(repository: SQLiteTodoRepository(database: controlDatabase)),
        configuration: configuration, onServerRunning: onServerRunning, logger: logger)
}) { syringePort in
    try await serving({
        Application(
            router: buildHandWiredRouter(repository: SQLiteTodoRepository(database: handDatabase)),
            configuration: configuration, onServerRunning: $0, logger: logger)
    }) { handPort in
        passed = try await withConnections(concurrency, to: syringePort) { syringe in
            try await withConnections(concurrency, to: handPort) { byHand in
                try await runRounds(syringe: syringe, byHand: byHand, ports: (syringePort, handPort))
            }
        }
    }
}
try await handDatabase.close()
try await controlDatabase.close()
print(passed ? "TodoLoad: passed" : "TodoLoad: FAILED")
exit(passed ? 0 : 1)
