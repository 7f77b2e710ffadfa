import Syringe

/// The sign-up flow. Everything resolved in this scope is shared by the flow's screens while
/// any of them (or an open ``ScopeHandle``) holds it.
public enum RegistrationFlow: Scope {}

/// The account being signed up, filled in screen by screen. A scoped type must be a class.
public final class User: CustomStringConvertible {
    /// Tells the users of a run apart: 1 for the first one built, 2 for the next…
    public let number: Int
    public var username: String?
    public var password: String?

    public init(number: Int) {
        self.number = number
    }

    public var description: String { "User #\(number)" }
}

/// Registers the flow's services in the current container.
public func registerServices() {
    var usersBuilt = 0
    Resolver.register(scopedTo: RegistrationFlow.self) {
        usersBuilt += 1
        return User(number: usersBuilt)
    }
}
