import Foundation

/// Prints the results as one Markdown table and writes them as JSON.
enum Report {
    typealias Results = [(Scenario, [Contender: Result])]

    static func table(_ results: Results) -> String {
        var rows = [["scenario", "contender", "ns/op", "allocs/op", "syringe ÷ this"]]
        for (scenario, byContender) in results {
            let syringe = byContender[.syringe]?.nanosecondsPerOperation
            var first = true
            for contender in Contender.allCases {
                guard let result = byContender[contender] else { continue }
                let ratio: String
                if contender == .syringe {
                    ratio = "—"
                } else if let syringe {
                    ratio = String(format: "%.2f", syringe / result.nanosecondsPerOperation)
                } else {
                    ratio = "n/a"
                }
                rows.append([
                    first ? scenario.rawValue : "", contender.rawValue,
                    formatNanoseconds(result.nanosecondsPerOperation),
                    result.allocationsPerOperation.map(formatAllocations) ?? "n/a", ratio,
                ])
                first = false
            }
        }
        let widths = (0..<rows[0].count).map { column in
            rows.map { $0[column].count }.max()!
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 ? cell + padding : padding + cell
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule =
            "|"
            + widths.enumerated().map { column, width in
                column < 2
                    ? String(repeating: "-", count: width + 2)
                    : String(repeating: "-", count: width + 1) + ":"
            }.joined(separator: "|") + "|"
        return ([line(rows[0]), rule] + rows.dropFirst().map(line)).joined(separator: "\n")
    }

    /// The stack a level takes, one row a contender.
    static func stackTable(_ stack: [(Contender, Int)]) -> String {
        let syringe = stack.first { $0.0 == .syringe }?.1
        var lines = ["| contender | bytes/level | syringe ÷ this |", "|-----------|------------:|---------------:|"]
        for (contender, bytes) in stack {
            let ratio =
                contender == .syringe
                ? "—" : syringe.map { String(format: "%.2f", Double($0) / Double(bytes)) } ?? "n/a"
            lines.append("| \(contender.rawValue) | \(bytes) | \(ratio) |")
        }
        return lines.joined(separator: "\n")
    }

    /// `{"scenarios": {"<scenario>": {"<contender>": {"ns": 12.3, "allocs": 0}}}, "stack-per-level":
    /// {"build": "release", "bytes": {"<contender>": 579}}}`; `allocs` is null where allocations
    /// cannot be counted (not Linux/glibc).
    static func json(_ results: Results, stack: [(Contender, Int)]) -> String {
        let scenarios = results.map { scenario, byContender in
            let contenders = Contender.allCases.compactMap { contender -> String? in
                guard let result = byContender[contender] else { return nil }
                let ns = String(format: "%.2f", result.nanosecondsPerOperation)
                let allocs = result.allocationsPerOperation.map(formatAllocations) ?? "null"
                return "      \"\(contender.rawValue)\": {\"ns\": \(ns), \"allocs\": \(allocs)}"
            }
            return "    \"\(scenario.rawValue)\": {\n" + contenders.joined(separator: ",\n") + "\n    }"
        }
        let bytes = stack.map { "\"\($0.0.rawValue)\": \($0.1)" }.joined(separator: ", ")
        return "{\n  \"scenarios\": {\n" + scenarios.joined(separator: ",\n") + "\n  },\n"
            + "  \"stack-per-level\": {\"build\": \"\(StackPerLevel.buildMode)\", \"bytes\": {\(bytes)}}\n}\n"
    }

    private static func formatNanoseconds(_ value: Double) -> String {
        switch value {
        case ..<10: String(format: "%.2f", value)
        case ..<1_000: String(format: "%.1f", value)
        default: String(format: "%.0f", value)
        }
    }

    /// Whole numbers without decimals (most scenarios allocate a fixed number per operation).
    private static func formatAllocations(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.2f", rounded)
    }
}
