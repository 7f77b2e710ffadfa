/// Finds what was registered near a missing key, and says how to reach it.
extension Resolver {
    /// How many near matches a message lists before it says how many more there are.
    static let nearMatchLimit = 10

    /// The missing-registration error for `key`, when the requested Swift type is not at hand.
    func missingError(for key: Key, site: SourceLocation?, path: [Key]? = nil) -> ResolutionError {
        missingError(for: key, site: site, path: path, as: Void.self)
    }

    /// The missing-registration error for `key` asked of `container` (nil: ``current``).
    @inline(never)
    static func missingError<T>(
        for key: Key, from container: Resolver?, site: SourceLocation?, as type: T.Type
    ) -> ResolutionError {
        (container ?? current).missingError(for: key, site: site, as: T.self)
    }

    /// The missing-registration error for `key`, with near matches; cached instances that
    /// are `T`s are suggested as implementations (pass `Void` when `T` is unknown).
    @inline(never)
    func missingError<T>(
        for key: Key, site: SourceLocation?, path: [Key]? = nil, as type: T.Type
    ) -> ResolutionError {
        let resolution = Resolution.current
        // Cached instances looked at are kept until after the lock: a weakly held one may have
        // lost its last other holder meanwhile, and must not be deinitialized under the lock.
        var looked: [Any] = []
        let nearMatches = withChainReadLock(resolution) {
            nearMatchesLocked(for: key, as: T.self, keepingAlive: &looked)
        }
        withExtendedLifetime(looked) {}
        return ResolutionError(
            .missing, key: key, path: path ?? resolution.path.nonEmpty ?? Resolver.asyncPath, container: self,
            site: site,
            suggestions: nearMatches.hints, requestedTypeName: nearMatches.requestedTypeName)
    }

    /// Every binding along the chain, the nearest container's first.
    /// What `resolveAll()` builds for `type`, the nearest container's first, each in registration
    /// order: every registration of it (each qualifier, name and scope; no runtime arguments) that
    /// no nearer one of the same key hides, and every registration that `.implements(type)`, also
    /// one whose key a later `.implements` took over, unless a registration of the type itself has
    /// taken the key over. Lock held.
    func bindingsServingLocked(_ type: Any.Type) -> [(key: Key, provider: AnyProvider)] {
        var served: [(key: Key, provider: AnyProvider)] = []
        var registered: Set<Key> = []  // keys a registration of the type itself serves, nearest first
        var container: Resolver? = self
        while let current = container {
            let registry = current.registry
            for binding in registry.bindings.values.sorted(by: { $0.order < $1.order }) {
                if binding.key.type == type && binding.key.arguments == nil {
                    if binding.aliasTarget == nil {
                        if registered.insert(binding.key).inserted { served.append((binding.key, binding.provider)) }
                    } else if !registered.contains(binding.key) {
                        served.append((binding.key, binding.provider))
                    }
                } else if binding.aliasTarget == nil, let keys = binding.provider.aliasKeys {
                    for key in keys where key.type == type && key.arguments == nil && !registered.contains(key) {
                        // Taken over by another `.implements` of the type (not by a registration of it).
                        guard let now = registry.bindings[key], now.aliasTarget != nil,
                            now.provider !== binding.provider
                        else { continue }
                        served.append((key, binding.provider))
                    }
                }
            }
            container = current.parent
        }
        return served
    }

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

    /// The first `limit` bindings along the chain that `matches` accepts (the nearest
    /// container's first, each container's in registration order), leaving out keys a nearer
    /// container shadows, and how many it accepts in all. Looks at each binding once and sorts
    /// only what it keeps, so a miss among many registrations stays cheap.
    private func firstBindingsLocked(
        limit: Int, where matches: (AnyBinding) -> Bool
    ) -> (first: [AnyBinding], total: Int) {
        var first: [AnyBinding] = []
        var total = 0
        var nearer: [Registry] = []
        var container: Resolver? = self
        while let current = container {
            var kept: [AnyBinding] = []
            let room = limit - first.count
            for binding in current.registry.bindings.values where matches(binding) {
                if nearer.contains(where: { $0.bindings[binding.key] != nil }) { continue }
                total += 1
                guard room > 0, kept.count < room || binding.order < kept[kept.count - 1].order else { continue }
                let position = kept.firstIndex { $0.order > binding.order } ?? kept.count
                kept.insert(binding, at: position)
                if kept.count > room { kept.removeLast() }
            }
            first += kept
            nearer.append(current.registry)
            container = current.parent
        }
        return (first, total)
    }

    private func nearMatchesLocked<T>(
        for key: Key, as type: T.Type, keepingAlive looked: inout [Any]
    ) -> (hints: [String], requestedTypeName: String?) {
        let limit = Self.nearMatchLimit
        let requestedName = typeName(key.type)
        var hints: [String] = []
        var requestedTypeName: String?
        func addMore(_ found: (first: [AnyBinding], total: Int)) {
            if found.total > found.first.count {
                hints.append("and \(found.total - found.first.count) more near matches")
            }
        }

        // The same type under other selectors or arguments.
        let sameType = firstBindingsLocked(limit: limit) {
            ObjectIdentifier($0.key.type) == ObjectIdentifier(key.type)
        }
        for binding in sameType.first {
            hints.append(sameTypeHint(binding.key, requested: key, requestedName: requestedName))
        }
        addMore(sameType)
        if !hints.isEmpty { return (hints, nil) }

        // Another type that could serve the request (an implementation of the requested
        // protocol), or one that merely shares its name.
        let requestedBase = baseTypeName(key.type)
        func isOptionalOfRequested(_ type: Any.Type) -> Bool {
            (type as? any OptionalType.Type).map { ObjectIdentifier($0.wrappedType) == ObjectIdentifier(key.type) }
                ?? false
        }
        func servesRequest(_ binding: AnyBinding) -> Bool {
            guard T.self != Void.self, let instance = binding.provider.keptInstance(keptBy: nil) else {
                return false
            }
            looked.append(instance)
            return instance is T
        }
        func sharesName(_ binding: AnyBinding) -> Bool {
            baseTypeName(binding.key.type) == requestedBase
        }
        func isImplementation(_ binding: AnyBinding) -> Bool {
            binding.key.plain == binding.key && !isOptionalOfRequested(binding.key.type)
                && (servesRequest(binding)
                    || namesSuggestImplementation(baseTypeName(binding.key.type), of: requestedBase))
        }
        let related = firstBindingsLocked(limit: limit) { binding in
            ObjectIdentifier(binding.key.type) != ObjectIdentifier(key.type)
                && (isImplementation(binding) || sharesName(binding))
        }
        for binding in related.first {
            let names = distinctTypeNames([binding.key.type, key.type])
            if names[1] != requestedName { requestedTypeName = names[1] }
            if isImplementation(binding) && (servesRequest(binding) || !sharesName(binding)) {
                hints.append(
                    "\(names[0]) is registered; to serve \(names[1]) "
                        + "add .implements(\(names[1]).self) to its registration"
                )
            } else {
                hints.append("\(names[0]) is registered, a different type from the \(names[1]) asked for")
            }
        }
        addMore(related)
        if !hints.isEmpty { return (hints, requestedTypeName) }

        // The Optional of the requested type.
        let optional = firstBindingsLocked(limit: limit) { isOptionalOfRequested($0.key.type) }
        for _ in optional.first {
            hints.append(
                "Optional<\(requestedName)> is registered; "
                    + "resolve it as \(requestedName)? or register \(requestedName) itself"
            )
        }
        addMore(optional)
        if !hints.isEmpty { return (hints, nil) }

        hints.append(registrationHint(for: key, requestedName: requestedName))
        return (hints, nil)
    }

    /// The hint for a registration of the requested type under other selectors or arguments.
    private func sameTypeHint(_ other: Key, requested key: Key, requestedName: String) -> String {
        if other.arguments != nil || key.arguments != nil,
            other.qualifier.map(ObjectIdentifier.init) == key.qualifier.map(ObjectIdentifier.init),
            other.name == key.name
        {
            let registered = other.argumentsDescription.map { "with arguments \($0)" } ?? "without arguments"
            let called = key.argumentsDescription.map { "with \($0)" } ?? "without arguments"
            let hint = "\(requestedName) is registered \(registered), called \(called)"
            return argumentsFix(registered: other, called: key).map { "\(hint): \($0)" } ?? hint
        }
        return "\(requestedName) is registered \(selectorsDescription(other)); \(fix(for: other))"
    }

    /// What to pass instead: as many arguments as registered, or none, or a value that is an
    /// instance of its registered type (one that is would have matched).
    private func argumentsFix(registered: Key, called: Key) -> String? {
        let registeredNames = registered.argumentTypeNames
        let calledNames = called.argumentTypeNames
        guard let registeredType = registered.arguments, let calledType = called.arguments else {
            return registered.arguments == nil ? "resolve it without arguments" : "pass them: resolve(arguments: …)"
        }
        guard registeredNames.count == calledNames.count else {
            let oneTuple = calledNames.count == 1 && TypeKind(calledType) == .tuple
            return "pass \(count(registeredNames.count, "argument"))" + (oneTuple ? ", not one tuple" : "")
        }
        if registeredNames.count == 1 {
            let names = distinctTypeNames([registeredType, calledType])
            switch TypeKind(registeredType) {
            case .existential,
                .nominal where registeredType is AnyClass:
                return "\(withArticle(names[1])) is not \(withArticle(names[0])); pass a value of the registered type"
            default:
                // A value of one value type is plainly not another.
                return nil
            }
        }
        let differing = zip(registeredNames, calledNames).enumerated().filter { $0.element.0 != $0.element.1 }
        guard !differing.isEmpty else { return nil }
        let positions = differing.map {
            "argument \($0.offset + 1) (\(withArticle($0.element.1))) is not \(withArticle($0.element.0))"
        }
        return positions.joined(separator: ", ") + "; pass values of the registered types"
    }

    /// The fix when nothing near the key is registered: how to register it.
    private func registrationHint(for key: Key, requestedName: String) -> String {
        var selectors: [String] = []
        if let scope = key.scope { selectors.append("scopedTo: \(typeName(scope)).self") }
        if let qualifier = key.qualifier { selectors.append("qualifiedBy: \(typeName(qualifier)).self") }
        if let name = key.name { selectors.append("name: \"\(name)\"") }
        if key.arguments != nil {
            selectors.append("arguments: " + key.argumentTypeNames.map(metatypeExpression).joined(separator: ", "))
        }
        let typed =
            "Resolver.register(" + ([metatypeExpression(requestedName)] + selectors).joined(separator: ", ") + ")"
        switch TypeKind(key.type) {
        case .existential:
            return "register a type that conforms to \(requestedName) and add .implements(\(requestedName).self) "
                + "to its registration, or register one for it: \(typed) { … }"
        case .function:
            return "register it first, e.g. \(typed) { { … } }"
        case .tuple:
            return "register it first, e.g. \(typed) { (…) }"
        case .nominal:
            if requestedName.hasSuffix(".Type") { return "register it first, e.g. \(typed) { … }" }
            let registration =
                "Resolver.register" + (selectors.isEmpty ? "" : "(\(selectors.joined(separator: ", ")))")
            return "register it first, e.g. \(registration) { \(requestedName)(…) }"
        }
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

/// Lets a message find the type an `Optional` type wraps.
protocol OptionalType {
    static var wrappedType: Any.Type { get }
    var wrappedAny: Any? { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
    var wrappedAny: Any? { self.map { $0 as Any } }
}
