import RegistrationFlowApp
import Syringe
import SyringeTesting
import Testing

// Each claim the program narrates. Every test registers the flow in its own container, so the
// tests run in parallel: a scope handle only keeps what resolutions from its own container build.
@Suite struct RegistrationFlowTests {
    @Test(.isolatedResolver) func screensShareOneUserWhileTheFlowLives() {
        registerServices()
        let usernameScreen = UsernameRegistrationController()
        usernameScreen.submit(username: "ada")

        let passwordScreen = PasswordRegistrationController()

        #expect(passwordScreen.user === usernameScreen.user)
        #expect(passwordScreen.user.username == "ada")
    }

    @Test(.isolatedResolver) func resolvingInTheScopeGivesTheFlowsUser() {
        registerServices()
        let usernameScreen = UsernameRegistrationController()

        let user: User = Resolver.resolve(scopedTo: RegistrationFlow.self)

        #expect(user === usernameScreen.user)
    }

    @Test(.isolatedResolver) func aNewFlowGetsANewUser() {
        registerServices()
        weak var firstUser: User?
        do {
            let usernameScreen = UsernameRegistrationController()
            let passwordScreen = PasswordRegistrationController()
            firstUser = passwordScreen.user
            #expect(usernameScreen.user.number == 1)
        }
        #expect(firstUser == nil, "the flow's screens are gone, and the User with them")

        let nextFlowScreen = UsernameRegistrationController()

        #expect(nextFlowScreen.user.number == 2)
    }

    @Test(.isolatedResolver) func aGapBetweenScreensLosesTheUserWithoutAnOpenScope() {
        registerServices()
        do { UsernameRegistrationController().submit(username: "alan") }

        let passwordScreen = PasswordRegistrationController()

        #expect(passwordScreen.user.number == 2)
        #expect(passwordScreen.user.username == nil)
    }

    @Test(.isolatedResolver) func beginScopeKeepsTheUserBetweenScreens() {
        registerServices()
        let flow = Resolver.beginScope(RegistrationFlow.self)
        do { UsernameRegistrationController().submit(username: "barbara") }

        let passwordScreen = PasswordRegistrationController()

        #expect(passwordScreen.user.number == 1)
        #expect(passwordScreen.user.username == "barbara")
        flow.end()
    }

    @Test(.isolatedResolver) func endingTheScopeReleasesTheUser() {
        registerServices()
        let flow = Resolver.beginScope(RegistrationFlow.self)
        weak var user: User?
        do { user = UsernameRegistrationController().user }
        #expect(user != nil, "the open scope holds the User")

        flow.end()

        #expect(user == nil)
        #expect(UsernameRegistrationController().user.number == 2)
    }

    @Test(.isolatedResolver) func programNarratesTheFourFlows() {
        let result = run(arguments: [])

        #expect(
            result.standardOutput == """
                Flow 1: the password screen opens on top of the username screen
                  username screen: User #1, username "ada"
                  password screen: User #1, username "ada"
                  → both screens share one User while the flow lives

                Flow 2: the next sign-up
                  username screen: User #2, username "grace"
                  password screen: User #2, username "grace"
                  → a new flow gets a new User

                Flow 3: the username screen closes before the password screen opens
                  username screen: User #3, username "alan"
                  password screen: User #4, username not set
                  → nothing held the User in between, so the password screen got a new one

                Flow 4: the same, inside Resolver.beginScope(RegistrationFlow.self)
                  username screen: User #5, username "barbara"
                  password screen: User #5, username "barbara"
                  → the open scope kept the User between the screens until flow.end()

                """)
        #expect(result.standardError == "")
        #expect(result.status == 0)
    }

    @Test func helpPrintsUsage() {
        let result = run(arguments: ["--help"])

        #expect(result.standardOutput == usage)
        #expect(result.status == 0)
    }

    @Test func unexpectedArgumentsPrintUsageToStandardError() {
        let result = run(arguments: ["--fast"])

        #expect(result.standardOutput == "")
        #expect(result.standardError == "error: unexpected arguments: --fast\n\n" + usage)
        #expect(result.status == 64)
    }
}
