import Syringe
import Testing

// The property wrappers take the same labels as `register` and `resolve`: `qualifiedBy:`,
// `scopedTo:` and `name:` in any combination, besides their unlabelled forms.

private enum WLStaging: Qualifier {}
private enum WLFlow: Scope {}
private final class WLClient {
    let label: String
    init(_ label: String) { self.label = label }
}
private final class WLUser {}

private final class WLHolder {
    @Inject(qualifiedBy: WLStaging.self) var staging: WLClient
    @Inject(qualifiedBy: WLStaging.self, name: "eu") var stagingEU: WLClient
    @Inject(scopedTo: WLFlow.self) var user: WLUser
    @Inject(scopedTo: WLFlow.self, qualifiedBy: WLStaging.self, name: "eu") var scopedEU: WLClient
    @OptionalInject(qualifiedBy: WLStaging.self, name: "eu") var optionalEU: WLClient?
    @OptionalInject(scopedTo: WLFlow.self, name: "missing") var missing: WLUser?
    @WeakInject(scopedTo: WLFlow.self) var weakUser: WLUser?
    @WeakInject(qualifiedBy: WLStaging.self, name: "eu") var weakEU: WLClient?
}

@Suite struct WrapperLabelTests {
    @Test func labelledSelectorsMatchTheRegistrations() {
        let r = Resolver()
        r.register(qualifiedBy: WLStaging.self) { WLClient("staging") }
        r.register(qualifiedBy: WLStaging.self, name: "eu", lifetime: .singleton) { WLClient("staging eu") }
        r.register(scopedTo: WLFlow.self) { WLUser() }
        r.register(scopedTo: WLFlow.self, qualifiedBy: WLStaging.self, name: "eu") { WLClient("scoped eu") }
        let holder = Resolver.withContainer(r) { WLHolder() }
        #expect(holder.staging.label == "staging")
        #expect(holder.stagingEU.label == "staging eu")
        #expect(holder.scopedEU.label == "scoped eu")
        #expect(holder.optionalEU === holder.stagingEU)
        #expect(holder.missing == nil)
        #expect(holder.weakUser === holder.user)
        #expect(holder.weakEU === holder.stagingEU)
    }

    @Test func chainedScopedRegistrationWithoutTheContainerParameter() {
        let r = Resolver()
        r.register { WLClient("plain") }
            .register(scopedTo: WLFlow.self) { WLUser() }
        let user: WLUser = r.resolve(scopedTo: WLFlow.self)
        #expect((r.resolve(scopedTo: WLFlow.self) as WLUser) === user)
    }
}
