/// How messages name types: as users write them, with their enclosing types and generic
/// arguments, without module names unless two types in one message would read the same.

/// A type's name with its enclosing types and without module names: `Outer.Widget`,
/// `Box<Int>`, `(String, Int) -> Widget`.
func typeName(_ type: Any.Type) -> String {
    TypeNameCache.names(of: type).name
}

/// The last component of a type's ``typeName(_:)``: `Widget` for `Outer.Widget`.
func baseTypeName(_ type: Any.Type) -> String {
    TypeNameCache.names(of: type).base
}

/// Type names, worked out once per type: a miss among many registrations compares the
/// requested name with every registered type's, and `verify()` may meet many misses.
///
/// Keyed by the type's identity, which is never reused: type metadata, generic instantiations
/// included, lives as long as the process. So the cache grows with the types that appear in
/// messages, never with resolutions.
private enum TypeNameCache {
    private static let lock = Lock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: (name: String, base: String)] = [:]

    static func names(of type: Any.Type) -> (name: String, base: String) {
        let id = ObjectIdentifier(type)
        if let names = lock.withLock({ cache[id] }) { return names }
        let name = withoutModuleNames(String(reflecting: type))
        // A function type's attributes do not make another name: `() -> A` is a near match of
        // `@Sendable () -> A`.
        var bare = Substring(name)
        while bare.hasPrefix("@"), let space = bare.firstIndex(of: " ") { bare = bare[bare.index(after: space)...] }
        let names = (name, baseName(String(bare)))
        lock.withLock { cache[id] = names }
        return names
    }
}

/// `number` with the noun in the number it takes: `1 key`, `2 keys`, `2 aliases`.
func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
}

/// `name` after the indefinite article it is read with: `an Int`, `an Optional<Leaf>`, `a UUID`,
/// `an Unsafe…`, `a User`.
func withArticle(_ name: String) -> String {
    let letters = Array(name.prefix(3))
    guard let first = letters.first else { return name }
    var isVowelSound = "AEIOaeio".contains(first)
    if first == "U" || first == "u", letters.count > 1 {
        // `Un…` (but `Uni…`), `Up…`, `Ug…`, `Ul…`, `Um…` begin with a vowel sound; `User`, `UInt`, `URL` do not.
        isVowelSound = "nplgm".contains(letters[1]) && !(letters[1] == "n" && letters.count > 2 && letters[2] == "i")
    }
    return (isVowelSound ? "an " : "a ") + name
}

/// A type's name with its module: `Payments.Widget`, `Swift.Optional<Payments.Widget>`.
func qualifiedTypeName(_ type: Any.Type) -> String {
    String(reflecting: type)
}

/// The names of `types` for one message: ``typeName(_:)``, or ``qualifiedTypeName(_:)`` for each
/// type whose short name another, different type in the list shares.
func distinctTypeNames(_ types: [Any.Type]) -> [String] {
    let names = types.map(typeName)
    var typesByName: [String: Set<ObjectIdentifier>] = [:]
    for (type, name) in zip(types, names) { typesByName[name, default: []].insert(ObjectIdentifier(type)) }
    return zip(types, names).map { type, name in
        typesByName[name]!.count > 1 ? qualifiedTypeName(type) : name
    }
}

/// What kind of type a name stands for, as far as a message needs to know.
enum TypeKind {
    /// A protocol existential (`any P`, `P & Q`, `Any`, `AnyObject`).
    case existential
    case function
    case tuple
    /// A struct, enum, class or anything else written with a plain name.
    case nominal

    init(_ type: Any.Type) {
        // The runtime names the metatype of an existential `P.Protocol` and every other `X.Type`.
        if String(describing: Swift.type(of: type)).hasSuffix(".Protocol") {
            self = .existential
            return
        }
        let name = String(reflecting: type)
        if hasTopLevelArrow(name) {
            self = .function
        } else if isParenthesizedList(name) {
            self = .tuple
        } else {
            self = .nominal
        }
    }
}

/// Calls `body` with each character of a type's name and how deep in brackets it is
/// (`(`, `<`, `[`; the `>` of an arrow `->` closes nothing); stops when `body` returns false.
private func scanBrackets(_ name: String, _ body: (String.Index, Character, _ depth: Int) -> Bool) {
    var depth = 0
    var previous: Character = " "
    for index in name.indices {
        let character = name[index]
        switch character {
        case "(", "<", "[": depth += 1
        case ")", "]": depth -= 1
        case ">" where previous != "-": depth -= 1
        default: break
        }
        let outer = character == "(" || character == "<" || character == "[" ? depth - 1 : depth
        if !body(index, character, outer) { return }
        previous = character
    }
}

/// Whether `name` is a function type's: an arrow outside any brackets.
private func hasTopLevelArrow(_ name: String) -> Bool {
    var found = false
    var previous: Character = " "
    scanBrackets(name) { _, character, depth in
        if character == ">", previous == "-", depth == 0 { found = true }
        previous = character
        return !found
    }
    return found
}

/// Whether the parenthesis opening `name` closes at its end: a tuple's name, not a function's.
func isParenthesizedList(_ name: String) -> Bool {
    guard name.hasPrefix("(") else { return false }
    var closesAtEnd = false
    scanBrackets(name) { index, character, depth in
        guard character == ")", depth == 0 else { return true }
        closesAtEnd = name.index(after: index) == name.endIndex
        return false
    }
    return closesAtEnd
}

/// The element names of a tuple type's name: `["String", "Int"]` for `(String, Int)`.
func tupleElementNames(_ name: String) -> [String] {
    guard isParenthesizedList(name) else { return [name] }
    let inner = String(name.dropFirst().dropLast())
    var elements: [String] = []
    var start = inner.startIndex
    scanBrackets(inner) { index, character, depth in
        if character == ",", depth == 0 {
            elements.append(String(inner[start..<index]))
            start = inner.index(after: index)
        }
        return true
    }
    elements.append(String(inner[start...]))
    return elements.map { String($0.drop { $0 == " " }) }
}

/// The last component of a type's name: `Widget` for `Outer.Widget`, `Inner<Int>` for
/// `Outer<String>.Inner<Int>`.
func baseName(_ name: String) -> String {
    var start = name.startIndex
    scanBrackets(name) { index, character, depth in
        if character == ".", depth == 0 { start = name.index(after: index) }
        return true
    }
    return String(name[start...])
}

/// `String.self`; `((Int) -> String).self` for a name that needs parentheses to take `.self`.
func metatypeExpression(_ name: String) -> String {
    var needsParentheses = name.hasPrefix("@")
    scanBrackets(name) { _, character, depth in
        if character == " ", depth == 0 { needsParentheses = true }
        return !needsParentheses
    }
    return needsParentheses ? "(\(name)).self" : "\(name).self"
}

/// `Outer.Widget` for `Payments.Outer.Widget`, `Optional<Widget>` for
/// `Swift.Optional<Payments.Widget>`: drops the module that starts every qualified name in a
/// reflected type name, and the anonymous contexts of private and local types.
func withoutModuleNames(_ reflected: String) -> String {
    let characters = Array(reflected)
    var result = ""
    result.reserveCapacity(characters.count)
    var index = 0
    var atPathStart = true

    func isIdentifierCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "$"
    }
    func hasPrefix(_ prefix: String, at position: Int) -> Bool {
        let prefix = Array(prefix)
        return position + prefix.count <= characters.count
            && Array(characters[position..<position + prefix.count]) == prefix
    }
    /// The index after the parenthesis closing the one at `position`.
    func afterClosingParenthesis(from position: Int) -> Int {
        var depth = 0
        var index = position
        while index < characters.count {
            if characters[index] == "(" { depth += 1 }
            if characters[index] == ")" {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return characters.count
    }

    while index < characters.count {
        let character = characters[index]
        // `(unknown context at $…).` of private and local types: dropped with its dot.
        if character == "(", hasPrefix("(unknown context at ", at: index) {
            index = afterClosingParenthesis(from: index)
            if index < characters.count, characters[index] == "." { index += 1 }
            continue
        }
        // `(extension in Module):` before a type nested in another module's type: dropped, and
        // the extended type's own path starts after it.
        if character == "(", hasPrefix("(extension in ", at: index) {
            index = afterClosingParenthesis(from: index)
            if index < characters.count, characters[index] == ":" { index += 1 }
            atPathStart = true
            continue
        }
        if isIdentifierCharacter(character) {
            var end = index
            while end < characters.count, isIdentifierCharacter(characters[end]) { end += 1 }
            let isModule =
                atPathStart && end + 1 < characters.count && characters[end] == "."
                && (isIdentifierCharacter(characters[end + 1]) || characters[end + 1] == "(")
            if isModule {
                index = end + 1
            } else {
                result.append(contentsOf: characters[index..<end])
                index = end
            }
            atPathStart = false
            continue
        }
        result.append(character)
        // A dot continues the path; anything else (`<`, `(`, `,`, ` `, `&`, `:`…) may start another.
        atPathStart = character != "."
        index += 1
    }
    return result
}
