import Syringe

/// What one run of the program printed, and its exit status.
public typealias RunResult = (standardOutput: String, standardError: String, status: Int32)

public let usage = """
    Usage: Bakery

    Opens two bakeries and shows what each property got.

    """

/// Runs the program with its command-line arguments (without the program name).
public func run(arguments: [String]) -> RunResult {
    switch arguments {
    case []:
        registerServices()
        return (report(), "", 0)
    case ["-h"], ["--help"]:
        return (usage, "", 0)
    default:
        return ("", "error: unexpected arguments: \(arguments.joined(separator: " "))\n\n" + usage, 64)
    }
}

func report() -> String {
    let bakery = Bakery()
    let nextDoor = Bakery()
    let lines = [
        "The bakery got:",
        "  bread      \(pad(bakery.bread.name))  @Inject var bread: Bread",
        "  bread2     \(pad(bakery.bread2.name))  @Inject(name: \"🥐\") var bread2: Bread",
        "  pastry     \(pad(bakery.pastry.name))  @Inject(Viennoiserie.self) var pastry: Bread",
        "  chocolate  \(pad(name(of: bakery.chocolate)))  @Inject(name: \"🥐\") var chocolate: Chocolate",
        "  worker     \(pad(bakery.worker === MySingleton.shared ? "MySingleton.shared" : "another Worker"))"
            + "  @Inject var worker: Worker",
        "  planet     \(pad(bakery.planet.name))  @Inject var planet: Planet",
        "",
        "The bakery next door got:",
        "  the same worker: \(yesOrNo(nextDoor.worker === bakery.worker))",
        "  the same planet: \(yesOrNo(nextDoor.planet === bakery.planet))",
    ]
    return lines.joined(separator: "\n") + "\n"
}

private func name(of chocolate: Chocolate) -> String {
    (chocolate as? Bread)?.name ?? "\(type(of: chocolate))"
}

private func pad(_ text: String) -> String {
    text + String(repeating: " ", count: max(0, 18 - text.count))
}

private func yesOrNo(_ condition: Bool) -> String {
    condition ? "yes" : "no"
}
