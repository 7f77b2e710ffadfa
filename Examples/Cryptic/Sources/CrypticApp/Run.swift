import Syringe

/// What one run of the program printed, and its exit status.
public typealias RunResult = (standardOutput: String, standardError: String, status: Int32)

public let usage = """
    Usage: Cryptic [--graph [mermaid|dot]]

    Prints the ten largest crypto assets by market cap, from a built-in snapshot.

    Options:
      --graph [mermaid|dot]  Print the dependency graph instead (Mermaid unless dot is given).
      -h, --help             Show this help.

    """

/// The formats `--graph` can print.
public enum GraphFormat: String, Sendable {
    case mermaid, dot
}

/// Runs the program with its command-line arguments (without the program name).
public func run(arguments: [String]) -> RunResult {
    if arguments.isEmpty {
        return printTopAssets()
    }
    if arguments == ["--help"] || arguments == ["-h"] {
        return (usage, "", 0)
    }
    if arguments.first == "--graph" && arguments.count <= 2 {
        let name = arguments.dropFirst().first ?? GraphFormat.mermaid.rawValue
        guard let format = GraphFormat(rawValue: name) else {
            return usageError("unknown graph format '\(name)'")
        }
        return printGraph(format: format)
    }
    return usageError("unexpected arguments: \(arguments.joined(separator: " "))")
}

func usageError(_ message: String) -> RunResult {
    ("", "error: \(message)\n\n" + usage, 64)
}

func printTopAssets() -> RunResult {
    let viewModel: AssetListViewModel = Resolver.resolve()
    do {
        let table = try viewModel.table()
        return ("Top 10 crypto assets by market cap (snapshot, not live prices)\n\n" + table + "\n", "", 0)
    } catch {
        return ("", "error: \(error)\n", 1)
    }
}

// MARK: - Dependency graph

/// Prints the dependency graph. Syringe records the edges as it resolves, so the view model
/// is resolved once first: its `@Inject` properties, and theirs, become the edges.
func printGraph(format: GraphFormat) -> RunResult {
    _ = Resolver.resolve(AssetListViewModel.self)
    let graph = Resolver.current.dependencyGraph()
    switch format {
    case .mermaid: return (graph.mermaid + "\n", "", 0)
    case .dot: return (graph.dot + "\n", "", 0)
    }
}
