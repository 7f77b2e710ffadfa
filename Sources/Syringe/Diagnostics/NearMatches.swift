/// Finds what was registered near a missing key, and says how to reach it.
extension Resolver {
    /// The missing-registration error for `key`, when the requested Swift type is not at hand.
    func missingError(for key: Key, site: SourceLocation? = nil, path: [Key]? = nil) -> ResolutionError {
        missingError(for: key, site: site, path: path, as: Void.self)
    }

    /// The missing-registration error for `key`, with near matches; cached instances that
    /// are `T`s are suggested as implementations (pass `Void` when `T` is unknown).
    func missingError<T>(
        for key: Key, site: SourceLocation? = nil, path: [Key]? = nil, as type: T.Type
    ) -> ResolutionError {
        let state = ThreadState.current
        let suggestions = registryLock.withReadLock(state.stripe) { nearMatchesLocked(for: key, as: T.self) }
        return ResolutionError(
            .missing, key: key, path: path ?? state.path, container: self, site: site, suggestions: suggestions)
    }

    /// Every binding along the chain, the nearest container's first.
    func allBindingsLocked() -> [AnyBinding] {
        var result: [AnyBinding] = []
        var seen: Set<Key> = []
        var container: Resolver? = self
        while let current = container {
            for binding in current.registry.bindings.values.sorted(by: { $0.order < $1.order })
            where seen.insert(binding.key).inserted {
                result.append(binding)
            }
            container = current.parent
        }
        return result
    }

    private func nearMatchesLocked<T>(for key: Key, as type: T.Type) -> [String] {
        let bindings = allBindingsLocked()
        var hints: [String] = []
        let requestedName = typeName(key.type)

        for binding in bindings where ObjectIdentifier(binding.key.type) == ObjectIdentifier(key.type) {
            let other = binding.key
            if other.arguments != nil || key.arguments != nil {
                if other.qualifier == nil && key.qualifier == nil
                    || other.qualifier.map(ObjectIdentifier.init) == key.qualifier.map(ObjectIdentifier.init),
                    other.name == key.name
                {
                    let registered = other.argumentsDescription ?? "()"
                    let called = key.argumentsDescription ?? "()"
                    hints.append("\(requestedName) is registered with arguments \(registered), called with \(called)")
                    continue
                }
            }
            hints.append("\(requestedName) is registered \(selectorsDescription(other)); \(fix(for: other))")
        }

        if hints.isEmpty {
            // The concrete type is registered but the protocol (or supertype) requested.
            let optionalName = "Optional<\(requestedName)>"
            for binding in bindings where binding.key.plain == binding.key && typeName(binding.key.type) != optionalName
            {
                let registered = binding.key.type
                let servesRequest =
                    T.self != Void.self && (binding.provider.cachedInstanceLocked().map { $0 is T } ?? false)
                if servesRequest || namesSuggestImplementation(typeName(registered), of: requestedName) {
                    hints.append(
                        "\(typeName(registered)) is registered; to serve \(requestedName) add "
                            + ".implements(\(requestedName).self) to its registration")
                }
            }
        }

        if hints.isEmpty {
            let optionalName = "Optional<\(requestedName)>"
            for binding in bindings where typeName(binding.key.type) == optionalName {
                hints.append(
                    "\(optionalName) is registered; resolve it as \(requestedName)? or register \(requestedName) itself"
                )
            }
        }

        if hints.isEmpty {
            var selectors: [String] = []
            if let scope = key.scope { selectors.append("scopedTo: \(typeName(scope)).self") }
            if let qualifier = key.qualifier { selectors.append("qualifiedBy: \(typeName(qualifier)).self") }
            if let name = key.name { selectors.append("name: \"\(name)\"") }
            if let arguments = key.arguments {
                selectors.append("arguments: \(argumentTypesList(arguments, count: key.argumentCount))")
            }
            let registration = "Resolver.register" + (selectors.isEmpty ? "" : "(\(selectors.joined(separator: ", ")))")
            hints.append("register it first, e.g. \(registration) { \(requestedName)(…) }")
        }
        return hints
    }

    /// `String.self, Int.self` for the tuple type `(String, Int)` of two arguments.
    private func argumentTypesList(_ arguments: Any.Type, count: Int) -> String {
        if count == 1 { return "\(typeName(arguments)).self" }
        let list = argumentList(arguments, count: count).dropFirst().dropLast()
        return list.split(separator: ",").map { "\($0.trimmingSpaces).self" }.joined(separator: ", ")
    }

    private func selectorsDescription(_ key: Key) -> String {
        var parts: [String] = []
        if let qualifier = key.qualifier { parts.append("under qualifier \(typeName(qualifier))") }
        if let scope = key.scope { parts.append("in scope \(typeName(scope))") }
        if let name = key.name { parts.append("with name \"\(name)\"") }
        return parts.isEmpty ? "without qualifier, scope or name" : parts.joined(separator: ", ")
    }

    private func fix(for other: Key) -> String {
        var selectors: [String] = []
        if let scope = other.scope { selectors.append("scopedTo: \(typeName(scope)).self") }
        if let qualifier = other.qualifier { selectors.append("qualifiedBy: \(typeName(qualifier)).self") }
        if let name = other.name { selectors.append("name: \"\(name)\"") }
        if selectors.isEmpty { return "resolve it without selectors, or register it with the ones asked for" }
        return "resolve it with (\(selectors.joined(separator: ", ")))"
    }

    /// `NetworkService` for `NetworkServiceProtocol`, `LiveClock` or `ClockImpl` for `Clock`.
    private func namesSuggestImplementation(_ concrete: String, of requested: String) -> Bool {
        guard concrete != requested else { return false }
        var stem = requested
        for suffix in ["Protocol", "Type", "Interface", "Providing"]
        where stem.hasSuffix(suffix) && stem.count > suffix.count {
            stem.removeLast(suffix.count)
            break
        }
        if stem.count > 1, stem.first == "I", stem.dropFirst().first?.isUppercase == true { stem.removeFirst() }
        guard stem.count >= 3 else { return false }
        return concrete.hasPrefix(stem) || concrete.hasSuffix(stem)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
