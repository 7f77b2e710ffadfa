import Testing

@testable import Syringe

// Messages read as written English: the article a name takes, and the number a noun takes.

private protocol OrderSourceGr: AnyObject {}
private final class GrKeyboard: OrderSourceGr {}
private final class GrUser {}
private protocol GrRepository: Sendable {}
private struct GrSQLRepository: GrRepository {}
private final class GrReader {
    init(source: any OrderSourceGr) {}
}

@Suite struct MessageGrammarTests {
    @Test(arguments: [
        ("Int", "an Int"), ("Optional<Leaf>", "an Optional<Leaf>"), ("any Engine", "an any Engine"),
        ("UUID", "a UUID"), ("UInt", "a UInt"), ("URL", "a URL"), ("User", "a User"), ("Unit", "a Unit"),
        ("UnsafePointer<Int>", "an UnsafePointer<Int>"), ("Upload", "an Upload"), ("String", "a String"),
        ("(String, Int)", "a (String, Int)"),
    ])
    func aNameTakesTheArticleItIsReadWith(name: String, expected: String) {
        #expect(withArticle(name) == expected)
    }

    @Test func anArgumentOfTheWrongTypeTakesItsArticle() {
        let r = Resolver(id: "grammar")
        r.register(arguments: (any OrderSourceGr).self) { GrReader(source: $0) }
        var caught: ResolutionError?
        do { _ = try r.tryResolve(GrReader.self, arguments: GrUser()) } catch { caught = error }
        #expect(caught?.description.contains("a GrUser is not an OrderSourceGr; pass a value") == true)
        _ = GrKeyboard()
    }

    @Test func oneVerifiedKeyIsSingular() {
        let r = Resolver(id: "grammar-one")
        r.register { GrUser() }
        #expect(r.verify().description == "Syringe: the 1 key resolves (1 registration, 0 aliases)")
        r.register { GrKeyboard() }
        #expect(r.verify().description == "Syringe: all 2 keys resolve (2 registrations, 0 aliases)")
    }

    /// The fix for a synchronous resolution of an async registration of a protocol writes the
    /// existential as Swift 6 wants it spelled.
    @Test func anExistentialInTheAsyncFixIsWrittenWithAny() {
        let r = Resolver()
        r.register((any GrRepository).self) { () async -> any GrRepository in GrSQLRepository() }
        var caught: ResolutionError?
        do { _ = try r.tryResolve((any GrRepository).self) } catch { caught = error }
        #expect(caught?.description.contains("`let value: any GrRepository = await resolver.resolveAsync()`") == true)
    }
}
