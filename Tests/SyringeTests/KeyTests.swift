import Syringe
import Testing

// What makes two registrations the same key: names equal as Swift strings are one name, and one
// argument of tuple type is not two arguments.

final class KeyBread {
    let name: String
    init(_ name: String) { self.name = name }
}

final class KeyPoint {
    let label: String
    init(_ label: String) { self.label = label }
}

@Suite struct KeyTests {
    /// Canonically equivalent spellings of one name, each pair equal as Swift strings.
    static let equivalentNames: [(registered: String, requested: String)] = [
        ("caf\u{E9}", "cafe\u{301}"),  // é precomposed and decomposed
        ("cafe\u{301}", "caf\u{E9}"),
        ("\u{212A}elvin", "Kelvin"),  // KELVIN SIGN is K
        ("Kelvin", "\u{212A}elvin"),
        ("\u{C5}ngstr\u{F6}m", "A\u{30A}ngstro\u{308}m"),
        ("\u{1E69}", "s\u{323}\u{307}"),  // ṩ, its marks in either order
        ("\u{1E69}", "s\u{307}\u{323}"),
        ("\u{D55C}", "\u{1112}\u{1161}\u{11AB}"),  // Hangul syllable and its jamo
    ]

    @Test(arguments: equivalentNames)
    func namesEqualAsStringsAreOneKey(registered: String, requested: String) {
        #expect(registered == requested)
        let r = Resolver()
        r.register(name: registered) { KeyBread(registered) }
        #expect(r.isRegistered(KeyBread.self, name: requested))
        #expect(r.optional(KeyBread.self, name: requested)?.name == registered)
    }

    /// Among many registered names, each resolves under its other spelling, and registering the
    /// other spelling replaces the first.
    @Test func equivalentNamesAmongManyOthers() {
        let r = Resolver()
        for index in 0..<200 { r.register(name: "bread \(index)") { KeyBread("bread \(index)") } }
        for (registered, requested) in Self.equivalentNames {
            r.register(name: registered) { KeyBread(registered) }
            #expect(r.optional(KeyBread.self, name: requested)?.name == registered)
            r.register(name: requested) { KeyBread(requested) }
            #expect(r.optional(KeyBread.self, name: registered)?.name == requested)
        }
        r.clearRegistration(for: KeyBread.self, name: "cafe\u{301}")
        #expect(!r.isRegistered(KeyBread.self, name: "caf\u{E9}"))
    }

    /// A container's table grows and closes the gaps that removals leave: after many names are
    /// registered and every third one removed, each remaining name still resolves to its own
    /// registration, each removed one is gone, and registering a removed one again finds it.
    @Test func tableKeepsEveryNameThroughGrowthAndRemovals() {
        let r = Resolver()
        let names = (0..<500).map { "bread \($0)" }
        for name in names { r.register(name: name) { KeyBread(name) } }
        for (index, name) in names.enumerated() where index % 3 == 0 {
            r.clearRegistration(for: KeyBread.self, name: name)
        }
        for (index, name) in names.enumerated() {
            #expect(r.optional(KeyBread.self, name: name)?.name == (index % 3 == 0 ? nil : name))
        }
        for (index, name) in names.enumerated() where index % 3 == 0 {
            r.register(name: name) { KeyBread("again \(name)") }
        }
        for (index, name) in names.enumerated() {
            #expect(r.resolve(KeyBread.self, name: name).name == (index % 3 == 0 ? "again \(name)" : name))
        }
    }

    @Test func namesThatDifferStayApart() {
        let r = Resolver()
        r.register(name: "caf\u{E9}") { KeyBread("accented") }
        r.register(name: "cafe") { KeyBread("plain") }
        #expect(r.resolve(KeyBread.self, name: "cafe\u{301}").name == "accented")
        #expect(r.resolve(KeyBread.self, name: "cafe").name == "plain")
    }

    /// `(String, Int)` as one argument and `String, Int` as two are two registrations.
    @Test func singleTupleArgumentAndTwoArgumentsAreTwoKeys() {
        let r = Resolver()
        r.register(arguments: (String, Int).self) { pair in KeyPoint("tuple \(pair.0) \(pair.1)") }
        r.register(arguments: String.self, Int.self) { text, number in KeyPoint("pair \(text) \(number)") }
        #expect(r.resolve(KeyPoint.self, arguments: ("a", 1)).label == "tuple a 1")
        #expect(r.resolve(KeyPoint.self, arguments: "b", 2).label == "pair b 2")
        // Registered in the other order, each still keeps its own key.
        let other = Resolver()
        other.register(arguments: String.self, Int.self) { text, number in KeyPoint("pair \(text) \(number)") }
        other.register(arguments: (String, Int).self) { pair in KeyPoint("tuple \(pair.0) \(pair.1)") }
        #expect(other.resolve(KeyPoint.self, arguments: "c", 3).label == "pair c 3")
        #expect(other.resolve(KeyPoint.self, arguments: ("d", 4)).label == "tuple d 4")
    }

    @Test func singleTupleArgumentDoesNotReachATwoArgumentRegistration() {
        let r = Resolver()
        r.register(arguments: String.self, Int.self) { text, number in KeyPoint("pair \(text) \(number)") }
        #expect(r.optional(KeyPoint.self, arguments: ("a", 1)) == nil)
        #expect(r.optional(KeyPoint.self, arguments: "a", 1)?.label == "pair a 1")
    }
}
