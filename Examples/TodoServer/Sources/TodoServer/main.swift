import Hummingbird
import Syringe
import TodoKit

// `swift run TodoServer [--port 8080] [--database todos.sqlite]`, then:
//   curl -X POST localhost:8080/todos -H 'x-user: alice' -d '{"title": "Buy milk"}'
//   curl localhost:8080/todos -H 'x-user: alice'
func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    return arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

Resolver.install(TodoServices(databasePath: option("--database") ?? "todos.sqlite"))
let app = try await buildApplication(
    services: .main,
    configuration: ApplicationConfiguration(
        address: .hostname("127.0.0.1", port: option("--port").flatMap(Int.init) ?? 8080), serverName: "TodoServer"))
try await app.runService()
