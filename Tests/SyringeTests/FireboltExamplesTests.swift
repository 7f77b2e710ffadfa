import Foundation
import Syringe
import SyringeTesting
import Testing

// The Firebolt README's examples in Syringe's spelling:
//   get()                      → resolve()            get(expect: X.self) → resolve(X.self)
//   register(.single/.factory) → register(lifetime: .singleton / .transient)
//   register(expect: P.self)   → register(P.self)      register(expects: [P, Q]) → .implements(P).implements(Q)
//   register(arg1:arg2:)       → register(arguments:) get("stage", 1200) → resolve(arguments: "stage", 1200)
//   Resolver("id")             → Resolver(id: "id")    Resolver.global → Resolver.main (static calls: current)
//   unregister(_:)             → clearRegistration(for:)
//   unregisterAllDependencies  → clearAllRegistrations  dropAllCachedDependencies → dropAllCached
// The global `get()` becomes a static `Resolver.resolve()`, bound to the test's own container.

@Suite struct FireboltExamplesTests {
    final class ClassA {
        let id = FxSerial.next()
    }
    final class ClassB {
        let classA: ClassA
        init(classA: ClassA = ClassA()) { self.classA = classA }
    }
    final class ClassC {
        let classA: ClassA
        let classB: ClassB
        init(classA: ClassA, classB: ClassB) {
            self.classA = classA
            self.classB = classB
        }
    }
    final class ClassD {
        let environment: String
        let timestamp: Int?
        let classA: ClassA?
        init(environment: String, timestamp: Int? = nil, classA: ClassA? = nil) {
            self.environment = environment
            self.timestamp = timestamp
            self.classA = classA
        }
    }
    final class ClassE {
        let value: String?
        init(_ value: String?) { self.value = value }
    }
    protocol ClassAProtocol: AnyObject {}
    final class ClassAConcrete: ClassAProtocol {}

    // Protocol conformance ("protocol ClassA { func foo() }" / "class ClassAImpl: ClassA")
    protocol ClassAInterface { func foo() -> String }
    final class ClassAImpl: ClassAInterface { func foo() -> String { "impl" } }

    protocol ClassAVariantA { func foo() -> String }
    protocol ClassAVariantB { func bar() -> String }
    final class VariantClassA: ClassAVariantA, ClassAVariantB {
        func foo() -> String { "foo" }
        func bar() -> String { "bar" }
    }
    final class VariantConsumer {
        let classAVariant: ClassAVariantA
        init(classAVariant: ClassAVariantA) { self.classAVariant = classAVariant }
    }

    // Opaque conformance
    protocol OpaqueProtocol {
        associatedtype Value
        func getValue() -> Value
    }
    final class OpaqueClassA: OpaqueProtocol {
        func getValue() -> String { "hello" }
    }
    final class OpaqueClassB: OpaqueProtocol {
        init(classA: OpaqueClassA) {}
        func getValue() -> Int { 1 }
    }

    // Subclassing resolvers
    final class MyAppResolver: Resolver, @unchecked Sendable {
        init() { super.init(id: "FireboltExamples.MyAppResolver") }
    }

    // Examples: storyboard-style static initializer and application architecture
    final class UserManager {}
    final class ViewController {
        let userManager: UserManager
        private init(userManager: UserManager) { self.userManager = userManager }
        class func initialize(userManager: UserManager) -> ViewController { ViewController(userManager: userManager) }
    }
    final class AppViewController {
        let userManager: UserManager
        init(userManager: UserManager) { self.userManager = userManager }
    }
    final class AppDelegate {
        let resolver = Resolver()
        var rootViewController: AppViewController?
        func applicationDidFinishLaunching() {
            resolver.register { UserManager() }
            resolver.register { AppViewController(userManager: $0.resolve()) }
            let viewController: AppViewController = resolver.resolve()
            rootViewController = viewController
        }
    }

    // MARK: Usage

    @Test func usage() {
        let resolver = Resolver()
        resolver
            .register { ClassA() }
            .register { ClassB(classA: $0.resolve()) }
        let classA: ClassA = resolver.resolve()
        let classB: ClassB = resolver.resolve()
        #expect(classA !== classB.classA)  // transient
    }

    @Test func staticAccessUsesTheCurrentContainer() {
        let resolver = Resolver()
        resolver.register { ClassA() }
        let classA: ClassA? = Resolver.withContainer(resolver) { Resolver.resolve() }
        #expect(classA != nil)
    }

    // MARK: Scope

    @Test func singleAndFactory() {
        let resolver = Resolver()
        resolver.register(lifetime: .singleton) { ClassA() }
        resolver.register(lifetime: .transient) { ClassB() }
        let classA1: ClassA = resolver.resolve()
        let classA2: ClassA = resolver.resolve()
        #expect(classA1 === classA2)
        let classB1: ClassB = resolver.resolve()
        let classB2: ClassB = resolver.resolve()
        #expect(classB1 !== classB2)
    }

    @Test func singleAsTheContainerDefault() {
        let resolver = Resolver()
        resolver.defaultLifetime = .singleton  // Firebolt's default
        resolver.register { ClassA() }
        #expect((resolver.resolve() as ClassA) === (resolver.resolve() as ClassA))
    }

    @Test func singletonThroughAProtocol() {
        let resolver = Resolver()
        resolver.register(ClassAProtocol.self, lifetime: .singleton) { ClassAConcrete() }
        let classA1: ClassAProtocol = resolver.resolve()
        let classA2: ClassAProtocol = resolver.resolve()
        #expect(classA1 === classA2)
    }

    // MARK: Arguments

    @Test func capturedArgument() {
        let resolver = Resolver()
        let environment = "stage"
        resolver.register { ClassA() }
        resolver.register { ClassD(environment: environment, classA: $0.resolve()) }
        let classD: ClassD = resolver.resolve()
        #expect(classD.environment == "stage")
        #expect(classD.classA != nil)
    }

    @Test func oneCallSiteArgument() {
        let resolver = Resolver()
        resolver.register(arguments: String.self) { ClassD(environment: $0) }
        let classD: ClassD = resolver.resolve(arguments: "stage")
        #expect(classD.environment == "stage")
    }

    @Test func twoCallSiteArguments() {
        let resolver = Resolver()
        resolver.register(arguments: String.self, Int.self) { ClassD(environment: $0, timestamp: $1) }
        let classD: ClassD = resolver.resolve(arguments: "stage", 1200)
        #expect(classD.environment == "stage")
        #expect(classD.timestamp == 1200)
    }

    @Test func optionalArgument() {
        let resolver = Resolver()
        resolver.register(arguments: String?.self) { ClassE($0) }
        let withNil: ClassE = resolver.resolve()  // no arguments: nil is passed
        let withValue: ClassE = resolver.resolve(arguments: "SOME_VALUE")
        #expect(withNil.value == nil)
        #expect(withValue.value == "SOME_VALUE")
    }

    @Test func sharedUnregisteredArgument() {
        let resolver = Resolver()
        // Firebolt chains these two; Registration's chained `register` has no `arguments:` form.
        resolver.register(arguments: ClassA.self) { ClassB(classA: $0) }
        resolver.register(arguments: ClassA.self) { ClassC(classA: $0, classB: Resolver.resolve(arguments: $0)) }
        let classA = ClassA()
        let classC: ClassC = Resolver.withContainer(resolver) { Resolver.resolve(arguments: classA) }
        #expect(classC.classA === classA)
        #expect(classC.classB.classA === classA)
    }

    // MARK: Protocol conformance

    @Test func protocolConformance() {
        let resolver = Resolver()
        resolver.register(ClassAInterface.self) { ClassAImpl() }
        let classA: ClassAInterface = Resolver.withContainer(resolver) { Resolver.resolve() }
        #expect(classA.foo() == "impl")
    }

    @Test func oneConcreteTypeCastToSeveralProtocols() {
        let resolver = Resolver()
        resolver.register { VariantClassA() }
        let variantA: ClassAVariantA = resolver.resolve(VariantClassA.self)
        let variantB: ClassAVariantB = resolver.resolve(VariantClassA.self)
        #expect(variantA.foo() == "foo")
        #expect(variantB.bar() == "bar")
    }

    @Test func severalExpectedProtocolsForOneRegistration() {
        let resolver = Resolver()
        resolver.register { VariantClassA() }
            .implements(ClassAVariantA.self)
            .implements(ClassAVariantB.self)
        let classA: ClassAVariantA? = resolver.resolve()
        let classB: ClassAVariantB? = resolver.resolve()
        #expect(classA?.foo() == "foo")
        #expect(classB?.bar() == "bar")
    }

    @Test func concreteRegistrationServesAProtocolDependency() {
        let resolver = Resolver()
        resolver
            .register { VariantClassA() }
            .register { VariantConsumer(classAVariant: $0.resolve(VariantClassA.self)) }
        let consumer: VariantConsumer = resolver.resolve()
        #expect(consumer.classAVariant.foo() == "foo")
    }

    // MARK: Opaque conformance

    @Test func opaqueConformance() {
        let resolver = Resolver()
        resolver
            .register(lifetime: .singleton) { OpaqueClassA() }
            .register(lifetime: .transient) { OpaqueClassB(classA: $0.resolve()) }
        let someClassA: some OpaqueProtocol = resolver.resolve(OpaqueClassA.self)
        let someClassB: some OpaqueProtocol = resolver.resolve(OpaqueClassB.self)
        let classA: OpaqueClassA = resolver.resolve()
        let classB: OpaqueClassB = resolver.resolve()
        // Computed outside #expect: `#expect(x as AnyObject === y)` crashes the Swift 6.3.1 compiler.
        let sameInstance = (someClassA as AnyObject) === classA  // the README's `someClassA == classA`
        let someBValue = String(describing: someClassB.getValue())
        #expect(sameInstance)
        #expect(classB.getValue() == 1)
        #expect(someBValue == "1")
    }

    // MARK: Mock resolver

    @Test func mockResolver() {
        let mockResolver = MockResolver { resolver in
            resolver.register { ClassA() }
            resolver.register { ClassB(classA: $0.resolve()) }
        }
        let classB: ClassB = mockResolver.resolve()
        #expect(classB.classA.id > 0)
    }

    // MARK: Multiple resolvers

    @Test func multipleResolvers() {
        let resolver1 = Resolver(id: "FireboltExamples.Resolver_1")
        resolver1.register { ClassA() }
        let resolver2 = Resolver(id: "FireboltExamples.Resolver_2")
        resolver2.register { ClassA() }
        resolver2.register { ClassB(classA: $0.resolve()) }
        let fromResolver1: ClassB? = resolver1.optional()  // Resolver_1 never registered ClassB
        let fromResolver2: ClassB = resolver2.resolve()
        #expect(fromResolver1 == nil)
        #expect(fromResolver2.classA.id > 0)
    }

    @Test func sameIdentifierSharesDependencies() {
        let resolverA = Resolver(id: "FireboltExamples.SAME_IDENTIFIER")
        resolverA.register { ClassA() }
        let resolverB = Resolver(id: "FireboltExamples.SAME_IDENTIFIER")
        let classA: ClassA? = resolverB.optional()
        #expect(classA != nil)
    }

    @Test func resolverPassedAsAnInterface() {
        final class Screen {
            let resolver: Resolver
            init(resolver: Resolver) { self.resolver = resolver }
            func viewDidLoad() -> ClassB { resolver.resolve() }
        }
        let resolver = Resolver()
        resolver.register { ClassA() }.register { ClassB(classA: $0.resolve()) }
        #expect(Screen(resolver: resolver).viewDidLoad().classA.id > 0)
    }

    // MARK: Subclassing resolvers

    @Test func subclassingResolvers() {
        let myResolver = MyAppResolver()
        myResolver.register { ClassA() }
        let classA: ClassA = myResolver.resolve()
        let byId: ClassA? = Resolver(id: "FireboltExamples.MyAppResolver").optional()
        let fromMain: ClassA? = Resolver.main.optional()  // the global container never registered it
        #expect(classA.id > 0)
        #expect(byId != nil)
        #expect(fromMain == nil)
    }

    // MARK: Unregister dependencies

    @Test func unregister() {
        let resolver = Resolver()
        resolver.register { ClassA() }
        #expect((resolver.optional() as ClassA?) != nil)
        resolver.clearRegistration(for: ClassA.self)
        #expect((resolver.optional() as ClassA?) == nil)
    }

    @Test func unregisterAllDependencies() {
        let resolver = Resolver()
        resolver
            .register { ClassA() }
            .register { ClassB() }
        #expect((resolver.optional() as ClassA?) != nil)
        #expect((resolver.optional() as ClassB?) != nil)
        resolver.clearAllRegistrations()
        #expect((resolver.optional() as ClassA?) == nil)
        #expect((resolver.optional() as ClassB?) == nil)
    }

    @Test func unregisterAllDependenciesExcept() {
        let resolver = Resolver()
        resolver
            .register { ClassA() }
            .register { ClassB() }
        resolver.clearAllRegistrations(except: [ClassB.self])
        #expect((resolver.optional() as ClassA?) == nil)
        #expect((resolver.optional() as ClassB?) != nil)
    }

    // MARK: Drop cached dependencies

    @Test func dropCached() {
        let resolver = Resolver()
        resolver.register(lifetime: .singleton) { ClassA() }
        let classA1: ClassA = resolver.resolve()
        let classA2: ClassA = resolver.resolve()
        #expect(classA1.id == classA2.id)
        resolver.dropCached([ClassA.self])
        let classA3: ClassA = resolver.resolve()
        #expect(classA1.id != classA3.id)
    }

    @Test func dropAllCachedDependencies() {
        let resolver = Resolver()
        resolver
            .register(lifetime: .singleton) { ClassA() }
            .register(lifetime: .singleton) { ClassB() }
        let classA1: ClassA = resolver.resolve()
        let classB1: ClassB = resolver.resolve()
        #expect(classA1.id == (resolver.resolve() as ClassA).id)
        #expect(classB1 === (resolver.resolve() as ClassB))
        resolver.dropAllCached()
        #expect(classA1.id != (resolver.resolve() as ClassA).id)
        #expect(classB1 !== (resolver.resolve() as ClassB))
    }

    @Test func dropAllCachedDependenciesExcept() {
        let resolver = Resolver()
        resolver
            .register(lifetime: .singleton) { ClassA() }
            .register(lifetime: .singleton) { ClassB() }
        let classA1: ClassA = resolver.resolve()
        let classB1: ClassB = resolver.resolve()
        resolver.dropAllCached(except: [ClassB.self])
        #expect(classA1.id != (resolver.resolve() as ClassA).id)
        #expect(classB1 === (resolver.resolve() as ClassB))
    }

    // MARK: Examples

    @Test func storyboardStyleStaticInitializer() {
        let resolver = Resolver()
        resolver
            .register(lifetime: .singleton) { UserManager() }
            .register { ViewController.initialize(userManager: $0.resolve()) }
        let vc: ViewController = resolver.resolve()
        #expect(vc.userManager === (resolver.resolve() as UserManager))
        let viaStatic: ViewController = Resolver.withContainer(resolver) { Resolver.resolve() }
        #expect(viaStatic !== vc)
    }

    @Test func applicationArchitecture() {
        let appDelegate = AppDelegate()
        appDelegate.applicationDidFinishLaunching()
        #expect(appDelegate.rootViewController != nil)
    }
}
