import Syringe
import Testing

// A factory whose closure returns `T?` registers `T`, as in Resolver, whether or not the type is
// written; a real Optional service is registered by writing its type.

private final class PvIdBucket {
    let id: String
    init(id: String) { self.id = id }
}
private protocol OFProto: AnyObject {}
private final class OFThing: OFProto {
    init() {}
}
private struct OFHolder {
    let idfv: String?
    let id: String?
}
private struct OFOptionalHolder {
    let viaOptional: (any OFProto)?
    let viaTry: (any OFProto)?
    let viaAsync: (any OFProto)?
}
private final class OFInjected {
    @Inject(name: "idfv") var idfv: String?
}
@MainActor private final class OFModel {
    init() {}
}

@Suite struct OptionalFactoryTests {
    @Test func anOptionalFactoryInAChildOverridesTheParentsRegistration() {
        let parent = Resolver()
        parent.register(name: "bucket") { PvIdBucket(id: "parent") }
        let child = Resolver(parent: parent)
        child.register(name: "bucket") { () -> PvIdBucket? in PvIdBucket(id: "child") }
        #expect(child.isRegistered(PvIdBucket.self, name: "bucket"))
        #expect(!child.isRegistered(PvIdBucket?.self, name: "bucket"))
        #expect((child.resolve(name: "bucket") as PvIdBucket).id == "child")
        #expect((parent.resolve(name: "bucket") as PvIdBucket).id == "parent")
    }

    @Test func anOptionalFactoryReceivingTheContainerRegistersTheWrappedType() {
        let r = Resolver()
        r.register { PvIdBucket(id: "plain") }
        r.register(name: "bucket") { $0.optional() as PvIdBucket? }
        #expect(r.isRegistered(PvIdBucket.self, name: "bucket"))
        #expect((r.resolve(name: "bucket") as PvIdBucket).id == "plain")
    }

    @Test func aNilResultGivesNilToOptionalAndThrowsProducedNil() {
        let r = Resolver(id: "of-produced-nil")
        r.register(name: "bucket") { () -> PvIdBucket? in nil }
        #expect(r.optional(PvIdBucket.self, name: "bucket") == nil)
        let line = #line + 1
        let error = #expect(throws: ResolutionError.self) { try r.tryResolve(PvIdBucket.self, name: "bucket") }
        #expect(
            error?.description == """
                Syringe: the factory for PvIdBucket named "bucket" produced nil
                  in container of-produced-nil
                  requested at SyringeTests/OptionalFactoryTests.swift:\(line)
                  it is registered with a factory that may yield no value; ask for it with optional() or \
                @OptionalInject, or let the factory always return one
                """)
    }

    // Asked for as an Optional (`T?`, an `@Inject` of `T?`), a factory that yields nil gives nil,
    // as `optional()` does; a failure further down still throws.
    @Test func anOptionalRequestOfANilResultGivesNil() async throws {
        let r = Resolver()
        r.register(String.self, name: "idfv") { () -> String? in nil }
        r.register(String.self, name: "id") { () -> String? in "id" }
        r.register { (r: Resolver) -> OFHolder in OFHolder(idfv: r.resolve(name: "idfv"), id: r.resolve(name: "id")) }
        #expect(try r.tryResolve(String?.self, name: "idfv") == nil)
        #expect(try r.tryResolve(String?.self, name: "id") == "id")
        #expect(r.resolve(String?.self, name: "idfv") == nil)
        let holder: OFHolder = r.resolve()
        #expect(holder.idfv == nil && holder.id == "id")
        #expect(Resolver.withContainer(r) { OFInjected().idfv } == nil)
        #expect(try await r.tryResolveAsync(String?.self, name: "idfv") == nil)
        r.register(name: "deeper") { (r: Resolver) throws -> Int in (try r.tryResolve(String.self, name: "idfv")).count
        }
        #expect(throws: ResolutionError.self) { try r.tryResolve(Int?.self, name: "deeper") }
    }

    @Test func anOptionalRequestInsideAnAsyncFactoryGivesNil() async throws {
        let r = Resolver()
        r.register(String.self, name: "idfv") { () -> String? in nil }
        r.register { (r: Resolver) async throws -> OFHolder in
            OFHolder(idfv: try r.tryResolve(String?.self, name: "idfv"), id: r.optional(String.self, name: "idfv"))
        }
        r.register { (r: Resolver) async -> OFInjected in OFInjected() }
        let holder: OFHolder = try await r.tryResolveAsync()
        #expect(holder.idfv == nil && holder.id == nil)
        let injected: OFInjected = try await r.tryResolveAsync()
        #expect(injected.idfv == nil)
    }

    @Test func anOptionalRequestOfAKeyImplementedByANilResultGivesNil() throws {
        let r = Resolver()
        r.register { () -> OFThing? in nil }.implements((any OFProto).self)
        #expect(try r.tryResolve((any OFProto)?.self) == nil)
        #expect(r.optional((any OFProto).self) == nil)
        do {
            _ = try r.tryResolve((any OFProto).self)
            Issue.record("resolved")
        } catch {
            #expect(error.description.contains("produced nil"), "\(error)")
        }
    }

    @Test func anOptionalRequestOfAnImplementedKeyInsideAnAsyncFactoryGivesNil() async throws {
        let r = Resolver()
        r.register { () -> OFThing? in nil }.implements((any OFProto).self)
        r.register { (r: Resolver) async throws -> OFOptionalHolder in
            OFOptionalHolder(
                viaOptional: r.optional((any OFProto).self), viaTry: try r.tryResolve((any OFProto)?.self),
                viaAsync: try await r.tryResolveAsync((any OFProto)?.self))
        }
        let holder: OFOptionalHolder = try await r.tryResolveAsync()
        #expect(holder.viaOptional == nil && holder.viaTry == nil && holder.viaAsync == nil)
    }

    @Test func optionalAsyncOfANilResultGivesNil() async {
        let r = Resolver()
        r.register { () -> OFThing? in nil }
        r.register(name: "some") { () -> OFThing? in OFThing() }
        #expect(await r.optionalAsync(OFThing.self) == nil)
        #expect(await r.optionalAsync(OFThing.self, name: "some") != nil)
    }

    @Test func resolveAllLeavesOutARegistrationThatYieldsNothing() async {
        let r = Resolver()
        r.register(name: "none") { () -> OFThing? in nil }
        r.register(name: "some") { () -> OFThing? in OFThing() }
        r.register(name: "plain") { OFThing() }
        #expect(r.resolveAll(OFThing.self).count == 2)
        #expect(await r.resolveAllAsync(OFThing.self).count == 2)
    }

    @Test func verifyAcceptsAnImplementedKeyOfARegistrationThatYieldsNothing() {
        let r = Resolver()
        r.register { () -> OFThing? in nil }.implements((any OFProto).self)
        let report = r.verify()
        #expect(report.isValid, "\(report)")
    }

    @Test func theStopThroughAnImplementedKeyNamesTheRegistration() {
        let r = Resolver()
        r.register { () -> OFThing? in nil }.implements((any OFProto).self)
        do {
            _ = try r.tryResolve((any OFProto).self)
            Issue.record("resolved")
        } catch {
            #expect(error.description.hasPrefix("Syringe: the factory for OFThing produced nil"), "\(error)")
        }
    }

    // README, "Resolving": a request for `T?` is `optional()`; `as T` asks for `T` itself.
    @Test func aRequestForAnOptionalIsOptional() throws {
        let r = Resolver()
        let viaResolve: OFThing? = r.resolve()
        let viaTry: OFThing? = try r.tryResolve()
        #expect(viaResolve == nil && viaTry == nil)
        #expect(throws: ResolutionError.self) { _ = try r.tryResolve() as OFThing }
        r.register { OFThing() }
        #expect((r.resolve() as OFThing?) != nil)
    }

    @Test func anInferredOptionalRegistersTheWrappedType() {
        let r = Resolver()
        let value: String? = "x"
        r.register { value }
        #expect(r.isRegistered(String.self))
        #expect(!r.isRegistered(String?.self))
        #expect(r.resolve(String.self) == "x")
    }

    @Test func theExplicitOptionalTypeRegistersTheOptional() {
        let r = Resolver()
        r.register((PvIdBucket?).self) { PvIdBucket(id: "short") as PvIdBucket? }
        r.register(Optional<PvIdBucket>.self, name: "long") { () -> PvIdBucket? in nil }
        #expect(r.isRegistered(PvIdBucket?.self))
        #expect(!r.isRegistered(PvIdBucket.self))
        #expect(r.isRegistered(PvIdBucket?.self, name: "long"))
        #expect(!r.isRegistered(PvIdBucket.self, name: "long"))
        #expect((r.resolve(PvIdBucket?.self))?.id == "short")
        // A registered Optional's value may be nil: resolving it is no failure.
        #expect(r.resolve(PvIdBucket?.self, name: "long") == nil)
    }

    @Test func theStaticTwinsRegisterTheWrappedType() {
        let r = Resolver()
        Resolver.withContainer(r) {
            Resolver.register(name: "plain") { () -> PvIdBucket? in PvIdBucket(id: "static") }
            Resolver.register(name: "container") { _ -> PvIdBucket? in nil }
        }
        #expect((r.resolve(name: "plain") as PvIdBucket).id == "static")
        #expect(r.isRegistered(PvIdBucket.self, name: "container"))
        #expect(r.optional(PvIdBucket.self, name: "container") == nil)
    }

    @Test func chainedRegistrationsRegisterTheWrappedType() {
        let r = Resolver()
        r.register { OFThing() }
            .register(name: "plain") { () -> PvIdBucket? in PvIdBucket(id: "chained") }
            .register(name: "container") { _ -> PvIdBucket? in nil }
        #expect((r.resolve(name: "plain") as PvIdBucket).id == "chained")
        #expect(r.isRegistered(PvIdBucket.self, name: "container"))
        #expect(!r.isRegistered(PvIdBucket?.self, name: "container"))
    }

    @MainActor @Test func mainActorFactoriesRegisterTheWrappedType() {
        let r = Resolver()
        r.register(name: "instance") { @MainActor () -> OFModel? in OFModel() }
        r.register(name: "container") { @MainActor (_: Resolver) -> OFModel? in nil }
        Resolver.withContainer(r) {
            Resolver.register(name: "static") { @MainActor () -> OFModel? in OFModel() }
        }
        r.register { OFThing() }.register(name: "chained") { @MainActor () -> OFModel? in OFModel() }
        for name in ["instance", "container", "static", "chained"] {
            #expect(r.isRegistered(OFModel.self, name: name), "\(name)")
            #expect(!r.isRegistered(OFModel?.self, name: name), "\(name)")
        }
        #expect(r.optional(OFModel.self, name: "instance") != nil)
        #expect(r.optional(OFModel.self, name: "container") == nil)
        #expect(r.optional(OFModel.self, name: "chained") != nil)
    }

    /// The forms that do not return an Optional keep the type they always registered, with no
    /// ambiguity between the overloads.
    @Test func theOtherFormsRegisterWhatTheyAlwaysDid() {
        let r = Resolver()
        r.register { OFThing() }
        r.register(name: "resolved") { $0.resolve() as OFThing }
        r.register(OFProto.self) { OFThing() }
        r.register(name: "cast") { OFThing() as OFProto }
        r.register(OFThing.self, name: "explicit") { () -> OFThing? in nil }
        #expect(r.isRegistered(OFThing.self))
        #expect(r.isRegistered(OFThing.self, name: "resolved"))
        #expect(r.isRegistered(OFProto.self))
        #expect(r.isRegistered(OFProto.self, name: "cast"))
        #expect(r.isRegistered(OFThing.self, name: "explicit"))
        #expect(!r.isRegistered(OFThing?.self))
        #expect(!r.isRegistered(OFThing?.self, name: "explicit"))
    }
}
