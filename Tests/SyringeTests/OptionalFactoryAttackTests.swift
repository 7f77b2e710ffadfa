import Syringe
import Testing

// Optional-returning factories written the ways Resolver and Swinject users write them, and
// ordinary factories written those ways, which must keep the type they always registered.

private final class OaBucket {
    let id: String
    init(id: String) { self.id = id }
    init?(failing: Bool) {
        guard !failing else { return nil }
        id = "failable"
    }
}
private enum OaQualifier: Qualifier {}

private func makeBucket() -> OaBucket? { OaBucket(id: "function") }
private func makeBucketFrom(_ resolver: Resolver) -> OaBucket? { OaBucket(id: "function with container") }

private final class OaOwner {
    let bucket: OaBucket? = OaBucket(id: "owned")
    func register(in resolver: Resolver) {
        resolver.register(name: "weak self") { [weak self] in self?.bucket }
    }
}

@Suite struct OptionalFactoryAttackTests {
    @Test func theSpellingsOfAnOptionalFactoryRegisterTheWrappedType() {
        let r = Resolver()
        let owner = OaOwner()
        let iuo: OaBucket! = OaBucket(id: "implicitly unwrapped")
        let table = ["key": OaBucket(id: "subscript")]
        r.register(qualifiedBy: OaQualifier.self, lifetime: .singleton) { () throws -> OaBucket? in
            OaBucket(id: "qualified")
        }
        r.register(name: "failable") { OaBucket(failing: false) }
        r.register(name: "function", factory: makeBucket)
        r.register(name: "function with container", factory: makeBucketFrom)
        r.register(name: "iuo") { iuo }
        r.register(name: "subscript") { table["key"] }
        r.register(name: "statements") { () -> OaBucket? in
            let id = "statements"
            if id.isEmpty { return nil }
            return OaBucket(id: id)
        }
        owner.register(in: r)
        for name in ["failable", "function", "function with container", "iuo", "subscript", "statements", "weak self"] {
            #expect(r.isRegistered(OaBucket.self, name: name), "\(name)")
            #expect(!r.isRegistered(OaBucket?.self, name: name), "\(name)")
        }
        #expect(r.isRegistered(OaBucket.self, qualifiedBy: OaQualifier.self))
        let qualified: OaBucket = r.resolve(qualifiedBy: OaQualifier.self)
        #expect(qualified === r.resolve(qualifiedBy: OaQualifier.self) as OaBucket)
        #expect((r.resolve(name: "statements") as OaBucket).id == "statements")
        #expect((r.resolve(name: "weak self") as OaBucket).id == "owned")
    }

    @Test func ordinaryFactoriesWithStatementsKeepTheirType() {
        let r = Resolver()
        r.register {
            let id = "statements"
            return OaBucket(id: id)
        }
        r.register(OaBucket.self, name: "swinject") { _ in OaBucket(id: "swinject") }
        r.register(name: "resolver") { r -> OaBucket in OaBucket(id: "resolver \(r.name)") }
        #expect(r.isRegistered(OaBucket.self))
        #expect(!r.isRegistered(OaBucket?.self))
        #expect(r.isRegistered(OaBucket.self, name: "swinject"))
        #expect(r.isRegistered(OaBucket.self, name: "resolver"))
    }

    @Test func aSingletonWhoseFactoryYieldsNilIsBuiltAgainUntilItYieldsAValue() {
        let r = Resolver()
        var available = false
        r.register(lifetime: .singleton) { available ? OaBucket(id: "late") : nil }
        #expect(r.optional(OaBucket.self) == nil)
        available = true
        let first = r.optional(OaBucket.self)
        #expect(first?.id == "late")
        available = false
        #expect(r.optional(OaBucket.self) === first)
    }

    @MainActor @Test func anOptionalFactoryWrittenInMainActorCodeIsMainActorBound() async {
        let r = Resolver()
        r.register { () -> OaBucket? in OaBucket(id: "main") }
        #expect(r.isRegistered(OaBucket.self))
        #expect(r.optional(OaBucket.self)?.id == "main")
        let offMain = await Task.detached { () -> String in
            do {
                _ = try r.tryResolve(OaBucket.self)
                return "built"
            } catch {
                return "\(error)"
            }
        }.value
        #expect(offMain.contains("main actor"), "\(offMain)")
    }
}
