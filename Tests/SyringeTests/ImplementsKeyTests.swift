import Syringe
import Testing

private protocol ImpNetworking: AnyObject { var name: String { get } }
private class ImpNetwork: ImpNetworking { var name: String { "live" } }
private final class ImpMockNetwork: ImpNetwork { override var name: String { "mock" } }
private final class ImpOtherNetwork: ImpNetworking { var name: String { "other" } }
private protocol ImpLogging: AnyObject {}
private final class ImpLogger: ImpLogging {}
private final class ImpDog {}
private final class ImpCat {}

/// The keys `.implements` writes follow the registration they were written for: replaced, they
/// serve the replacement; removed, they go with it.
private enum ImpEdge: Qualifier {}

@Suite struct ImplementsKeyTests {
    /// Resolver's `implements(_:name:)`: the protocol under a name of its own, one instance.
    @Test func implementsWithANameServesTheProtocolUnderThatName() {
        let r = Resolver()
        r.register(lifetime: .singleton) { ImpNetwork() }.implements(ImpNetworking.self, name: "main")
        let abstract: ImpNetworking = r.resolve(name: "main")
        #expect(abstract === r.resolve(ImpNetwork.self))
        #expect(r.optional(ImpNetworking.self) == nil)
        r.register(ImpNetwork.self, lifetime: .singleton) { ImpMockNetwork() }
        #expect(r.resolve(ImpNetworking.self, name: "main").name == "mock")
        let named = r.register(name: "edge") { ImpLogger() }.implements(ImpLogging.self, name: nil)
        #expect(r.optional(ImpLogging.self) != nil)
        #expect(r.optional(ImpLogging.self, name: "edge") == nil)
        _ = named
    }

    @Test func implementsWithAQualifierServesTheProtocolUnderThatQualifier() {
        let r = Resolver()
        r.register(lifetime: .singleton) { ImpNetwork() }.implements(ImpNetworking.self, qualifiedBy: ImpEdge.self)
        let abstract: ImpNetworking = r.resolve(qualifiedBy: ImpEdge.self)
        #expect(abstract === r.resolve(ImpNetwork.self))
        #expect(r.optional(ImpNetworking.self) == nil)
        r.register { ImpLogger() }.implements(ImpLogging.self, qualifiedBy: ImpEdge.self, name: "n")
        #expect(r.optional(ImpLogging.self, qualifiedBy: ImpEdge.self, name: "n") != nil)
    }
    @Test func reRegisteringTheTypeMovesItsImplementsKeysToTheNewRegistration() {
        let r = Resolver()
        r.register(lifetime: .singleton) { ImpNetwork() }.implements(ImpNetworking.self)
        let before: ImpNetworking = r.resolve()
        r.register(ImpNetwork.self, lifetime: .singleton) { ImpMockNetwork() }
        let concrete: ImpNetwork = r.resolve()
        let abstract: ImpNetworking = r.resolve()
        #expect(concrete.name == "mock")
        #expect(abstract === concrete)
        #expect(abstract !== before)
    }

    @Test func theKeysOfANamedRegistrationFollowItToo() {
        let r = Resolver()
        r.register(name: "edge") { ImpNetwork() }.implements(ImpNetworking.self)
        r.register(ImpNetwork.self, name: "edge") { ImpMockNetwork() }
        let abstract: ImpNetworking = r.resolve(name: "edge")
        #expect(abstract.name == "mock")
        #expect(r.optional(ImpNetworking.self) == nil)
    }

    @Test func clearingARegistrationRemovesItsImplementsKeys() {
        let r = Resolver()
        r.register { ImpNetwork() }.implements(ImpNetworking.self)
        r.clearRegistration(for: ImpNetwork.self)
        #expect(!r.isRegistered(ImpNetwork.self))
        #expect(!r.isRegistered(ImpNetworking.self))
        #expect(r.optional(ImpNetworking.self) == nil)
    }

    @Test func clearingEveryRegistrationOfTheTypeRemovesItsImplementsKeys() {
        let r = Resolver()
        r.register(lifetime: .singleton) { ImpNetwork() }.implements(ImpNetworking.self)
        r.register(name: "edge") { ImpNetwork() }.implements(ImpNetworking.self)
        r.clearAllRegistrations(for: ImpNetwork.self)
        #expect(!r.isRegistered(ImpNetworking.self))
        #expect(!r.isRegistered(ImpNetworking.self, name: "edge"))
    }

    @Test func clearingAllButATypeKeepsItsImplementsKeys() {
        let r = Resolver()
        r.register(lifetime: .singleton) { ImpNetwork() }.implements(ImpNetworking.self)
        r.register { ImpLogger() }.implements(ImpLogging.self)
        r.clearAllRegistrations(except: [ImpNetwork.self])
        let concrete: ImpNetwork = r.resolve()
        let abstract: ImpNetworking = r.resolve()
        #expect(abstract === concrete)
        #expect(!r.isRegistered(ImpLogger.self))
        #expect(!r.isRegistered(ImpLogging.self))
    }

    @Test func anExplicitRegistrationOfTheKeyStaysWhenTheTypeIsReplacedOrRemoved() {
        let r = Resolver()
        r.register { ImpNetwork() }.implements(ImpNetworking.self)
        r.register(ImpNetworking.self) { ImpOtherNetwork() }
        r.register(ImpNetwork.self) { ImpMockNetwork() }
        #expect((r.resolve() as ImpNetworking).name == "other")
        r.clearRegistration(for: ImpNetwork.self)
        #expect((r.resolve() as ImpNetworking).name == "other")
    }

    @Test func aKeyTakenByAnotherRegistrationsImplementsStaysWithIt() {
        let r = Resolver()
        r.register { ImpNetwork() }.implements(ImpNetworking.self)
        r.register { ImpOtherNetwork() }.implements(ImpNetworking.self)
        r.clearRegistration(for: ImpNetwork.self)
        #expect((r.resolve() as ImpNetworking).name == "other")
    }

    @Test func implementsOnARegistrationSinceReplacedServesTheNewOne() {
        let r = Resolver()
        let replaced = r.register { ImpNetwork() }
        r.register(ImpNetwork.self) { ImpMockNetwork() }
        replaced.implements(ImpNetworking.self)
        #expect((r.resolve() as ImpNetworking).name == "mock")
        r.clearRegistration(for: ImpNetwork.self)
        #expect(r.optional(ImpNetworking.self) == nil)
    }

    @Test func implementsOnARegistrationSinceRemovedWritesNothing() {
        let r = Resolver()
        let removed = r.register { ImpNetwork() }
        r.clearRegistration(for: ImpNetwork.self)
        removed.implements(ImpNetworking.self)
        #expect(!r.isRegistered(ImpNetworking.self))
    }

    @Test func clearingAllButTheImplementedTypeStillClearsItsKeyWithItsRegistration() {
        let r = Resolver()
        r.register { ImpNetwork() }.implements(ImpNetworking.self)
        r.clearAllRegistrations(except: [ImpNetworking.self])
        #expect(!r.isRegistered(ImpNetworking.self))
    }

    @Test func theKeysFollowARegistrationThatAlsoImplementsItsOwnType() {
        let r = Resolver()
        r.register { ImpNetwork() }.implements(ImpNetworking.self).implements(ImpNetwork.self)
        r.register(ImpNetwork.self) { ImpMockNetwork() }
        #expect((r.resolve() as ImpNetworking).name == "mock")
        r.clearRegistration(for: ImpNetwork.self)
        #expect(r.optional(ImpNetworking.self) == nil)
    }

    @Test func aChildsRegistrationOfTheTypeLeavesTheParentsKeysWithTheParent() {
        let parent = Resolver()
        parent.register(lifetime: .singleton) { ImpNetwork() }.implements(ImpNetworking.self)
        let child = Resolver(parent: parent)
        child.register(ImpNetwork.self) { ImpMockNetwork() }
        #expect((child.resolve() as ImpNetwork).name == "mock")
        #expect((child.resolve() as ImpNetworking).name == "live")
        child.register(ImpNetwork.self) { ImpMockNetwork() }.implements(ImpNetworking.self)
        #expect((child.resolve() as ImpNetworking).name == "mock")
        #expect((parent.resolve() as ImpNetworking).name == "live")
    }

    @Test func verifyReportsAnImplementsKeyWhoseInstanceIsNotOfItsType() {
        let r = Resolver()
        r.register { ImpDog() }.implements(ImpCat.self)
        r.register { ImpLogger() }.implements(ImpLogging.self)
        let report = r.verify()
        #expect(!report.isValid)
        #expect(report.failures.count == 1)
        let text = "\(report)"
        #expect(text.contains("ImpCat"))
        #expect(text.contains("ImpDog"))
    }

    @Test func verifyAsyncReportsAnAsyncImplementsKeyWhoseInstanceIsNotOfItsType() async {
        let r = Resolver()
        r.register { () async -> ImpDog in ImpDog() }.implements(ImpCat.self)
        let report = await r.verifyAsync()
        #expect(!report.isValid)
        #expect(report.failures.count == 1)
        #expect("\(report)".contains("ImpCat"))
    }
}
