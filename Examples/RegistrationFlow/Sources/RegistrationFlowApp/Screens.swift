import Syringe

/// The first screen of the flow: asks for a username.
public final class UsernameRegistrationController {
    @Inject(RegistrationFlow.self) public private(set) var user: User

    public init() {}

    public func submit(username: String) {
        user.username = username
    }
}

/// The second screen: asks for a password. It gets the same `User` as the username screen.
public final class PasswordRegistrationController {
    @Inject(RegistrationFlow.self) public private(set) var user: User

    public init() {}

    public func submit(password: String) {
        user.password = password
    }
}
