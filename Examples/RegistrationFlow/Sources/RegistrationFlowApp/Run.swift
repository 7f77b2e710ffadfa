import Syringe

/// What one run of the program printed, and its exit status.
public typealias RunResult = (standardOutput: String, standardError: String, status: Int32)

public let usage = """
    Usage: RegistrationFlow

    Walks through four sign-up flows and shows which User each screen got.

    """

/// Runs the program with its command-line arguments (without the program name).
public func run(arguments: [String]) -> RunResult {
    switch arguments {
    case []:
        registerServices()
        return (story(), "", 0)
    case ["-h"], ["--help"]:
        return (usage, "", 0)
    default:
        return ("", "error: unexpected arguments: \(arguments.joined(separator: " "))\n\n" + usage, 64)
    }
}

func story() -> String {
    var lines = ["Flow 1: the password screen opens on top of the username screen"]
    lines += signUpWithBothScreensOpen(username: "ada", password: "lovelace")
    lines += ["  → both screens share one User while the flow lives", ""]

    lines += ["Flow 2: the next sign-up"]
    lines += signUpWithBothScreensOpen(username: "grace", password: "hopper")
    lines += ["  → a new flow gets a new User", ""]

    lines += ["Flow 3: the username screen closes before the password screen opens"]
    lines += [askForUsername("alan"), askForPassword("turing")]
    lines += ["  → nothing held the User in between, so the password screen got a new one", ""]

    lines += ["Flow 4: the same, inside Resolver.beginScope(RegistrationFlow.self)"]
    let flow = Resolver.beginScope(RegistrationFlow.self)
    lines += [askForUsername("barbara"), askForPassword("liskov")]
    flow.end()
    lines += ["  → the open scope kept the User between the screens until flow.end()"]
    return lines.joined(separator: "\n") + "\n"
}

/// Shows the username screen, then the password screen on top of it.
func signUpWithBothScreensOpen(username: String, password: String) -> [String] {
    let usernameScreen = UsernameRegistrationController()
    usernameScreen.submit(username: username)
    let passwordScreen = PasswordRegistrationController()
    passwordScreen.submit(password: password)
    return [describe("username", usernameScreen.user), describe("password", passwordScreen.user)]
}

/// Shows the username screen alone; it is closed when this returns.
func askForUsername(_ username: String) -> String {
    let screen = UsernameRegistrationController()
    screen.submit(username: username)
    return describe("username", screen.user)
}

/// Shows the password screen alone; it is closed when this returns.
func askForPassword(_ password: String) -> String {
    let screen = PasswordRegistrationController()
    screen.submit(password: password)
    return describe("password", screen.user)
}

func describe(_ screen: String, _ user: User) -> String {
    "  \(screen) screen: \(user), username \(user.username.map { "\"\($0)\"" } ?? "not set")"
}
