/// What a registration is stored under and a resolution asks for.
///
/// Types are compared by identity; the metatypes are kept so that messages can name them.
/// Names are compared as Swift compares strings (canonical equivalence: `"café"` spelled with
/// `é` or with `e` and a combining accent is one name), and hashed consistently with that.
struct Key: Hashable, @unchecked Sendable {
    let type: Any.Type
    let qualifier: Any.Type?
    let scope: Any.Type?
    let name: String?
    /// The tuple type of the runtime arguments (`(String, Int).self`), or nil for none.
    let arguments: Any.Type?
    /// How many runtime arguments there are (0 without arguments). A single argument of tuple
    /// type `(String, Int)` has the same ``arguments`` type as two arguments `String, Int`;
    /// the count tells them apart.
    let argumentCount: Int

    /// - Parameter argumentCount: how many values `arguments` stands for; ignored without
    ///   arguments. Pass ``argumentCount(_:_:)`` of the pack when `arguments` is a pack's tuple.
    init(
        _ type: Any.Type,
        qualifier: Any.Type? = nil,
        scope: Any.Type? = nil,
        name: String? = nil,
        arguments: Any.Type? = nil,
        argumentCount: Int = 1
    ) {
        self.type = type
        self.qualifier = qualifier
        self.scope = scope
        self.name = name
        self.arguments = arguments
        self.argumentCount = arguments == nil ? 0 : argumentCount
    }

    /// The key of a registration or resolution with the runtime arguments `First, repeat each Rest`:
    /// their tuple type and their count.
    @inline(__always)
    init<First, each Rest>(
        _ type: Any.Type,
        qualifier: Any.Type? = nil,
        name: String? = nil,
        argumentTypes first: First.Type,
        _ rest: repeat (each Rest).Type
    ) {
        self.init(
            type, qualifier: qualifier, name: name, arguments: (First, repeat each Rest).self,
            argumentCount: Key.argumentCount(first, repeat each rest))
    }

    /// How many values a pack `First, repeat each Rest` holds.
    @inline(__always)
    static func argumentCount<First, each Rest>(_ first: First.Type, _ rest: repeat (each Rest).Type) -> Int {
        var count = 1
        for _ in repeat (each Rest).self { count += 1 }
        return count
    }

    static func == (lhs: Key, rhs: Key) -> Bool {
        lhs.type == rhs.type && lhs.qualifier == rhs.qualifier && lhs.scope == rhs.scope
            && lhs.arguments == rhs.arguments && lhs.argumentCount == rhs.argumentCount && lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        if let qualifier { hasher.combine(ObjectIdentifier(qualifier)) }
        if let scope { hasher.combine(ObjectIdentifier(scope)) }
        if let name { hasher.combine(name) }
        if let arguments {
            hasher.combine(ObjectIdentifier(arguments))
            hasher.combine(argumentCount)
        }
    }

    /// The same selectors for another type (used by `.implements`).
    func with(type newType: Any.Type) -> Key {
        Key(
            newType, qualifier: qualifier, scope: scope, name: name, arguments: arguments,
            argumentCount: argumentCount)
    }

    /// The same type, qualifier, scope and name without arguments.
    var withoutArguments: Key { Key(type, qualifier: qualifier, scope: scope, name: name) }

    /// The same type and arguments with no qualifier, scope or name.
    var plain: Key { Key(type, arguments: arguments, argumentCount: argumentCount) }
}

extension Key: CustomStringConvertible {
    /// `NetworkServiceProtocol`, `APIClient qualified by Staging`, `User in scope Flow`,
    /// `Bread named "🥐"`, `ClassD with arguments (String, Int)`.
    var description: String {
        description(typeName: typeName(type))
    }

    /// ``description`` with the key's own type written as `name`.
    func description(typeName name: String) -> String {
        var text = name
        if let qualifier { text += " qualified by \(typeName(qualifier))" }
        if let scope { text += " in scope \(typeName(scope))" }
        if let name = self.name { text += " named \"\(name)\"" }
        if let arguments { text += " with arguments \(argumentList(arguments, count: argumentCount))" }
        return text
    }

    /// The type and selectors in the short form used in resolution paths.
    var shortDescription: String {
        shortDescription(typeName: typeName(type))
    }

    /// ``shortDescription`` with the key's own type written as `name`.
    func shortDescription(typeName name: String) -> String {
        var text = name
        var selectors: [String] = []
        if let qualifier { selectors.append(typeName(qualifier)) }
        if let scope { selectors.append("scope: \(typeName(scope))") }
        if let name = self.name { selectors.append("\"\(name)\"") }
        if !selectors.isEmpty { text += "<\(selectors.joined(separator: ", "))>" }
        return text
    }

    /// The argument types as a parenthesised list: `(String, Int)` for two arguments,
    /// `((String, Int))` for one argument of tuple type; nil without arguments.
    var argumentsDescription: String? {
        arguments.map { argumentList($0, count: argumentCount) }
    }
}

/// `(String, Int)` for the tuple type of two arguments, `(String)` for one argument (so
/// `((String, Int))` for one argument that is a tuple).
func argumentList(_ type: Any.Type, count: Int) -> String {
    let name = typeName(type)
    return count == 1 ? "(\(name))" : name
}
