import Syringe
import Testing

// The Blade README's examples, in Syringe's spelling (Blade's names are kept; UIKit base classes
// are dropped). Each test registers into its own container and creates objects inside
// `Resolver.withContainer`, which is what a bare `Resolver.register` / `@Inject` uses.

@Suite struct BladeExamplesTests {
    final class MyInjectedType {
        let serial = FxSerial.next()
        let source: String
        init(source: String = "default") { self.source = source }
    }
    enum MyQualifier: Qualifier {}
    enum MyScope: Scope {}
    enum RegistrationFlow: Scope {}
    final class User {
        let serial = FxSerial.next()
    }

    // Quick start: "2: Declaring injected properties"
    final class MyViewController {
        @Inject var injectedProperty: MyInjectedType  // resolved when MyViewController is created
        @LazyInject var lazilyInjectedProperty: MyInjectedType  // resolved on first access
    }

    final class MyViewModel {
        let injected: MyInjectedType
        init(injectedArgument: MyInjectedType = Resolver.resolve()) { injected = injectedArgument }
    }

    // Scopes
    final class UsernameRegistrationController {
        @Inject(RegistrationFlow.self) var user: User
    }
    final class PasswordRegistrationController {
        @Inject(RegistrationFlow.self) var user: User  // the same User as UsernameRegistrationController's
    }
    final class RegistrationManager {
        let user: User
        init(user: User = Resolver.resolve(scopedTo: RegistrationFlow.self)) { self.user = user }
    }

    // Qualifiers
    final class QualifiedViewController {
        @Inject var injectedProperty: MyInjectedType
        @Inject(MyQualifier.self) var injectedQualifiedProperty: MyInjectedType
    }
    final class QualifiedViewModel {
        let injected: MyInjectedType
        init(injectedArgument: MyInjectedType = Resolver.resolve(qualifiedBy: MyQualifier.self)) {
            injected = injectedArgument
        }
    }

    // "@Inject also has some other ways of creating it"
    final class InjectForms {
        @Inject(MyScope.self) var scoped: MyInjectedType
        @Inject(MyQualifier.self) var qualified: MyInjectedType
        @Inject(MyScope.self, MyQualifier.self) var scopedAndQualified: MyInjectedType
        @Inject({ MyInjectedType(source: "closure") }) var fromClosure: MyInjectedType
        @Inject(MyInjectedType(source: "value")) var fromValue: MyInjectedType
    }
    // "@LazyInject has the same interface as @Inject"
    final class LazyInjectForms {
        @LazyInject var plain: MyInjectedType
        @LazyInject(MyScope.self) var scoped: MyInjectedType
        @LazyInject(MyQualifier.self) var qualified: MyInjectedType
        @LazyInject(MyScope.self, MyQualifier.self) var scopedAndQualified: MyInjectedType
        @LazyInject({ MyInjectedType(source: "closure") }) var fromClosure: MyInjectedType
        @LazyInject(MyInjectedType(source: "value")) var fromValue: MyInjectedType
    }
    // "@WeakInject has the same interface as @LazyInject and @Inject"
    final class WeakInjectForms {
        @WeakInject var plain: MyInjectedType?
        @WeakInject(MyScope.self) var scoped: MyInjectedType?
        @WeakInject(MyQualifier.self) var qualified: MyInjectedType?
        @WeakInject(MyScope.self, MyQualifier.self) var scopedAndQualified: MyInjectedType?
        @WeakInject({ MyInjectedType(source: "closure") }) var fromClosure: MyInjectedType?
        @WeakInject(MyInjectedType(source: "value")) var fromValue: MyInjectedType?
    }

    private static func registerForms(in r: Resolver) {
        Resolver.withContainer(r) {
            Resolver.register { MyInjectedType() }
            Resolver.register(scopedTo: MyScope.self) { MyInjectedType(source: "scope") }
            Resolver.register(qualifiedBy: MyQualifier.self) { MyInjectedType(source: "qualifier") }
            Resolver.register(MyInjectedType.self, scopedTo: MyScope.self, qualifiedBy: MyQualifier.self) {
                MyInjectedType(source: "scope+qualifier")
            }
        }
    }

    @Test func quickStart() {
        let r = Resolver()
        let built = FxCounter()
        _ = Resolver.withContainer(r) {
            Resolver.register { () -> MyInjectedType in
                built.increment()
                return MyInjectedType()
            }
        }
        let controller = Resolver.withContainer(r) { MyViewController() }
        #expect(built.value == 1)  // @Inject resolved during creation, @LazyInject not yet
        #expect(controller.injectedProperty.source == "default")
        _ = controller.lazilyInjectedProperty
        #expect(built.value == 2)
        _ = controller.lazilyInjectedProperty
        #expect(built.value == 2)  // like `lazy var`: once
    }

    @Test func initializerInjection() {
        let r = Resolver()
        _ = Resolver.withContainer(r) { Resolver.register { MyInjectedType(source: "registered") } }
        let model = Resolver.withContainer(r) { MyViewModel() }
        #expect(model.injected.source == "registered")
    }

    @Test func registrationFlowSharesOneUser() {
        let r = Resolver()
        _ = Resolver.withContainer(r) { Resolver.register(scopedTo: RegistrationFlow.self) { User() } }
        let firstFlowUser: Int = Resolver.withContainer(r) {
            let username = UsernameRegistrationController()
            let password = PasswordRegistrationController()  // created before `username` is destroyed
            let manager = RegistrationManager()
            #expect(username.user === password.user)
            #expect(manager.user === username.user)
            return username.user.serial
        }
        // Every holder is gone: the next flow gets a new User.
        let nextFlowUser = Resolver.withContainer(r) { UsernameRegistrationController().user.serial }
        #expect(nextFlowUser != firstFlowUser)
    }

    @Test func aUserHeldElsewhereKeepsBeingReturned() {
        let r = Resolver()
        _ = Resolver.withContainer(r) { Resolver.register(scopedTo: RegistrationFlow.self) { User() } }
        let keptElsewhere: User = Resolver.withContainer(r) { UsernameRegistrationController().user }
        let later = Resolver.withContainer(r) { PasswordRegistrationController() }
        #expect(later.user === keptElsewhere)
    }

    @Test func qualifiers() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register { MyInjectedType() }  // used when no qualifier is given
            Resolver.register(qualifiedBy: MyQualifier.self) { MyInjectedType(source: "qualifier") }
        }
        let controller = Resolver.withContainer(r) { QualifiedViewController() }
        #expect(controller.injectedProperty.source == "default")
        #expect(controller.injectedQualifiedProperty.source == "qualifier")
        let model = Resolver.withContainer(r) { QualifiedViewModel() }
        #expect(model.injected.source == "qualifier")
    }

    @Test func injectForms() {
        let r = Resolver()
        Self.registerForms(in: r)
        let forms = Resolver.withContainer(r) { InjectForms() }
        #expect(forms.scoped.source == "scope")
        #expect(forms.qualified.source == "qualifier")
        #expect(forms.scopedAndQualified.source == "scope+qualifier")
        #expect(forms.fromClosure.source == "closure")
        #expect(forms.fromValue.source == "value")
    }

    @Test func lazyInjectForms() {
        let r = Resolver()
        Self.registerForms(in: r)
        let forms = Resolver.withContainer(r) { LazyInjectForms() }
        #expect(forms.plain.source == "default")
        #expect(forms.scoped.source == "scope")
        #expect(forms.qualified.source == "qualifier")
        #expect(forms.scopedAndQualified.source == "scope+qualifier")
        #expect(forms.fromClosure.source == "closure")
        #expect(forms.fromValue.source == "value")
        #expect(forms.plain === forms.plain)
    }

    @Test func weakInjectFormsDoNotKeepObjectsAlive() {
        let r = Resolver()
        Self.registerForms(in: r)
        let keptScoped: MyInjectedType = r.resolve(scopedTo: MyScope.self)
        let forms = Resolver.withContainer(r) { WeakInjectForms() }
        // Like `weak var`: what nothing else holds is gone.
        #expect(forms.plain == nil)
        #expect(forms.qualified == nil)
        #expect(forms.fromClosure == nil)
        #expect(forms.fromValue == nil)
        #expect(forms.scopedAndQualified == nil)
        // The scoped instance is held here, so the weak property still sees it.
        #expect(forms.scoped === keptScoped)
    }
}
