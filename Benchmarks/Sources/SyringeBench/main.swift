import Foundation

// syringe-bench [--quick] [--json PATH] [--only SCENARIO,...] [--contenders NAME,...]
//
// Prints one Markdown table: median ns per operation and heap allocations per operation for
// every contender in every scenario, with Syringe's time divided by each contender's; then the
// stack one level of a resolution takes, in the build mode of the run.
// Progress goes to standard error. Timings are reported, never judged.

let usage = """
    usage: syringe-bench [--quick] [--json PATH] [--only SCENARIO,...] [--contenders NAME,...]
      --quick             few rounds of small batches (a smoke run; the numbers are rough)
      --json PATH         also write the results as JSON to PATH
      --only LIST         run only these scenarios (comma-separated names)
      --contenders LIST   run only these contenders (comma-separated names; for profiling)
    scenarios: \(Scenario.allCases.map(\.rawValue).joined(separator: ", "))
    contenders: \(Contender.allCases.map(\.rawValue).joined(separator: ", "))
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

var plan = Plan.full
var jsonPath: String?
var scenarios = Scenario.allCases
var contenders = Contender.allCases
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick":
        plan = .quick
    case "--json":
        guard let path = arguments.popFirst() else { fail("--json needs a path\n" + usage) }
        jsonPath = path
    case "--only":
        guard let list = arguments.popFirst() else { fail("--only needs scenario names\n" + usage) }
        scenarios = list.split(separator: ",").map { name in
            guard let scenario = Scenario(rawValue: String(name)) else {
                fail("unknown scenario \(name)\n" + usage)
            }
            return scenario
        }
    case "--contenders":
        guard let list = arguments.popFirst() else { fail("--contenders needs names\n" + usage) }
        contenders = list.split(separator: ",").map { name in
            guard let contender = Contender(rawValue: String(name)) else {
                fail("unknown contender \(name)\n" + usage)
            }
            return contender
        }
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        fail("unknown argument \(argument)\n" + usage)
    }
}

func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

let started = now()
_ = Fillers.types  // build the filler types' metadata before anything is timed
var results: Report.Results = []
for scenario in scenarios {
    let scenarioStart = now()
    let jobs = contenders.compactMap { contender in
        contender.job(for: scenario).map { (contender, $0) }
    }
    results.append((scenario, Runner.measure(jobs, plan: plan)))
    progress(
        "\(scenario.rawValue): \(jobs.count) contenders, "
            + String(format: "%.1f s", Double(now() - scenarioStart) / 1e9))
}

print(
    "syringe-bench: median of \(plan.rounds) rounds, contenders in turn each round; "
        + "ns and heap allocations per operation; syringe ÷ this < 1 means Syringe is faster.")
print()
print(Report.table(results))
let stack = StackPerLevel.measure(contenders)
print()
print(
    "stack-per-level: bytes of stack one level of a resolution takes, \(StackPerLevel.buildMode) build "
        + "(a chain of \(StackPerLevel.levels) transients; the address of a local in each factory).")
print()
print(Report.stackTable(stack))
progress(String(format: "total %.1f s", Double(now() - started) / 1e9))

if let jsonPath {
    do {
        try Report.json(results, stack: stack).write(toFile: jsonPath, atomically: true, encoding: .utf8)
    } catch {
        fail("cannot write \(jsonPath): \(error)")
    }
}
