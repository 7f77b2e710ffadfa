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
    /// The runtime arguments, or nil for none: the argument's type when there is one
    /// (`String.self`, or `(String, Int).self` for one argument that is a tuple), and
    /// `ArgumentPack<(String, Int)>.self` for two or more, so that the two differ.
    let arguments: Any.Type?

    /// A key with at most one runtime argument, of type `arguments`.
    init(
        _ type: Any.Type,
        qualifier: Any.Type? = nil,
        scope: Any.Type? = nil,
        name: String? = nil,
        arguments: Any.Type? = nil
    ) {
        self.type = type
        self.qualifier = qualifier
        self.scope = scope
        self.name = name
        self.arguments = arguments
    }

    /// The key of a registration or resolution with the runtime arguments `First, repeat each Rest`.
    @inline(__always)
    init<First, each Rest>(
        _ type: Any.Type,
        qualifier: Any.Type? = nil,
        name: String? = nil,
        argumentTypes first: First.Type,
        _ rest: repeat (each Rest).Type
    ) {
        var isSingle = true
        for _ in repeat (each Rest).self { isSingle = false }
        self.init(
            type, qualifier: qualifier, name: name,
            arguments: isSingle ? First.self : ArgumentPack<(First, repeat each Rest)>.self)
    }

    // `==` and the hash are inlined into the lookup, which uses them on every resolution, and the
    // optional parts are compared by identity, with the name's comparison called only when it has
    // one (callgrind, a static resolution: chain3 4,121 → 4,050 instructions, a server's request
    // 18,867 → 18,481).
    @inline(__always)
    static func == (lhs: Key, rhs: Key) -> Bool {
        lhs.type == rhs.type && same(lhs.qualifier, rhs.qualifier) && same(lhs.scope, rhs.scope)
            && same(lhs.arguments, rhs.arguments) && (lhs.name == nil ? rhs.name == nil : lhs.name == rhs.name)
    }

    @inline(__always)
    private static func same(_ lhs: Any.Type?, _ rhs: Any.Type?) -> Bool {
        lhs.map(ObjectIdentifier.init) == rhs.map(ObjectIdentifier.init)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(_rawHashValue(seed: 0))
    }

    /// The hash the registries' tables use: the type identities mixed by multiplication, and the
    /// name's standard hash (which agrees with `String`'s `==` under canonical equivalence). The
    /// standard hasher over the four type words costs several times as much, and a lookup is a
    /// large part of a resolution.
    @inline(__always)
    func _rawHashValue(seed: Int) -> Int {
        var hash = UInt(bitPattern: seed) ^ UInt(bitPattern: ObjectIdentifier(type))
        if let qualifier { hash = (hash &* 31) ^ UInt(bitPattern: ObjectIdentifier(qualifier)) }
        if let scope { hash = (hash &* 37) ^ UInt(bitPattern: ObjectIdentifier(scope)) }
        if let arguments { hash = (hash &* 41) ^ UInt(bitPattern: ObjectIdentifier(arguments)) }
        if let name { hash = (hash &* 43) ^ UInt(bitPattern: name.hashValue) }
        hash = (hash ^ (hash >> 29)) &* 0xBF58_476D_1CE4_E5B9
        return Int(bitPattern: hash ^ (hash >> 32))
    }

    /// The same selectors for another type (used by `.implements`).
    func with(type newType: Any.Type) -> Key {
        Key(newType, qualifier: qualifier, scope: scope, name: name, arguments: arguments)
    }

    /// The same type, qualifier, scope and name without arguments.
    var withoutArguments: Key { Key(type, qualifier: qualifier, scope: scope, name: name) }

    /// The same type and arguments with no qualifier, scope or name.
    var plain: Key { Key(type, arguments: arguments) }
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
        if let argumentsDescription { text += " with arguments \(argumentsDescription)" }
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
        guard let arguments else { return nil }
        if let pack = arguments as? any ArgumentPackType.Type { return typeName(pack.valuesType) }
        return "(\(typeName(arguments)))"
    }

    /// The names of the argument types, one per argument; empty without arguments.
    var argumentTypeNames: [String] {
        guard let arguments else { return [] }
        if let pack = arguments as? any ArgumentPackType.Type { return tupleElementNames(typeName(pack.valuesType)) }
        return [typeName(arguments)]
    }
}

/// Stands for two or more runtime arguments in a ``Key``: `ArgumentPack<(String, Int)>` for
/// `String, Int`, unlike `(String, Int)` alone, which is one argument that is a tuple.
enum ArgumentPack<Values> {}

/// Lets a message find the argument types an ``ArgumentPack`` stands for.
protocol ArgumentPackType {
    static var valuesType: Any.Type { get }
}

extension ArgumentPack: ArgumentPackType {
    static var valuesType: Any.Type { Values.self }
}
