/// What a registration is stored under and a resolution asks for.
///
/// Types are compared by identity; the metatypes are kept so that messages can name them.
struct Key: Hashable, @unchecked Sendable {
    let type: Any.Type
    let qualifier: Any.Type?
    let scope: Any.Type?
    let name: String?
    /// The tuple type of the runtime arguments (`(String, Int).self`), or nil for none.
    let arguments: Any.Type?

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

    static func == (lhs: Key, rhs: Key) -> Bool {
        lhs.type == rhs.type && lhs.qualifier == rhs.qualifier && lhs.scope == rhs.scope
            && lhs.arguments == rhs.arguments && lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
        if let qualifier { hasher.combine(ObjectIdentifier(qualifier)) }
        if let scope { hasher.combine(ObjectIdentifier(scope)) }
        if let name { hasher.combine(name) }
        if let arguments { hasher.combine(ObjectIdentifier(arguments)) }
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
        var text = typeName(type)
        if let qualifier { text += " qualified by \(typeName(qualifier))" }
        if let scope { text += " in scope \(typeName(scope))" }
        if let name { text += " named \"\(name)\"" }
        if let arguments { text += " with arguments \(argumentList(arguments))" }
        return text
    }

    /// The type and selectors in the short form used in resolution paths.
    var shortDescription: String {
        var text = typeName(type)
        var selectors: [String] = []
        if let qualifier { selectors.append(typeName(qualifier)) }
        if let scope { selectors.append("scope: \(typeName(scope))") }
        if let name { selectors.append("\"\(name)\"") }
        if !selectors.isEmpty { text += "<\(selectors.joined(separator: ", "))>" }
        return text
    }
}

/// A type's name as users write it, without the module prefix.
func typeName(_ type: Any.Type) -> String {
    String(describing: type)
}

/// `(String, Int)` for a tuple type, `(String)` for a single type.
func argumentList(_ type: Any.Type) -> String {
    let name = typeName(type)
    return name.hasPrefix("(") && name.hasSuffix(")") ? name : "(\(name))"
}
