/// Every message Syringe prints, in one place.
enum Messages {
    static func describe(_ error: ResolutionError) -> String {
        var lines: [String] = []
        switch error.reason {
        case .missing:
            lines.append("Syringe: no registration for \(error.requested)")
        case .cycle(let keys):
            lines.append("Syringe: dependency cycle while resolving \(error.requested)")
            lines.append("  cycle: \(keys.joined(separator: " → "))")
        case .tooDeep:
            lines.append(
                "Syringe: resolving \(error.requested) went \(Resolver.maximumDepth) levels deep; "
                    + "a registration with arguments probably resolves itself without end")
        case .factoryFailed(let underlying):
            lines.append("Syringe: the factory for \(error.requested) threw an error: \(underlying)")
        case .notAClass(let lifetime):
            lines.append(
                "Syringe: \(error.requested) has a \(lifetime) lifetime but its factory built a value type;"
                    + " only class instances can be held weakly")
            lines.append("  register it as .singleton or .transient, or make the type a class")
        case .offMainActor:
            lines.append(offMainActorHeadline(error.requested))
        case .notConvertible(let type):
            lines.append(
                "Syringe: the instance built for \(error.requested) is a \(typeName(type)), which is not a \(error.requested)"
            )
        }
        if error.path.count > 1, !isCycle(error.reason) {
            let path =
                error.path.count > 12
                ? error.path.prefix(5) + ["… \(error.path.count - 10) more …"] + error.path.suffix(5) : error.path[...]
            lines.append("  while resolving \(path.joined(separator: " → "))")
        }
        lines.append("  in container \(error.container)")
        if let site = error.site {
            lines.append("  requested at \(site)")
        }
        lines.append(contentsOf: error.suggestions.map { "  " + $0 })
        return lines.joined(separator: "\n")
    }

    private static func isCycle(_ reason: ResolutionError.Reason) -> Bool {
        if case .cycle = reason { return true }
        return false
    }

    static func duplicate(_ key: Key, container: String, first: SourceLocation, second: SourceLocation) -> String {
        """
        Syringe: \(key) is already registered in container \(container)
          first registered at \(first)
          registered again at \(second)
          overrides are off (allowsOverrides = false); remove one registration, give them different \
        qualifiers or names, or set allowsOverrides = true
        """
    }

    static func argumentsNotTransient(_ key: Key, lifetime: String) -> String {
        """
        Syringe: \(key) takes runtime arguments and cannot have a \(lifetime) lifetime
          every resolution passes its own arguments, so each one builds a new instance;
          register it without a lifetime (transient), or register the shared part separately
        """
    }

    static func lazyCycle(site: SourceLocation?) -> String {
        "Syringe: a @LazyInject property\(site.map { " declared at \($0)" } ?? "") was read while its own value "
            + "was being resolved; its dependencies form a cycle through it"
    }

    static func lazyContainerGone(site: SourceLocation) -> String {
        """
        Syringe: the @LazyInject property declared at \(site) was read for the first time after the container \
        that was current when its object was created had been deallocated
          keep that container alive as long as the object, or use @Inject to resolve when the object is created
        """
    }

    static func singletonTypeLifetime(_ key: Key, lifetime: String) -> String {
        """
        Syringe: \(typeName(key.type)) conforms to Singleton, so it is always a singleton; it cannot have a \
        \(lifetime) lifetime
          remove the lifetime (or write .singleton), or remove the Singleton conformance
        """
    }

    static func singletonWithArguments(_ key: Key) -> String {
        """
        Syringe: \(typeName(key.type)) conforms to Singleton but is registered with runtime arguments \
        \(key.arguments.map(argumentList) ?? "()")
          every resolution passes its own arguments and builds a new instance, which a Singleton cannot do;
          register it without arguments, or remove the Singleton conformance
        """
    }

    static func scopedLifetime(_ key: Key, lifetime: String) -> String {
        let scope = key.scope.map(typeName) ?? "its scope"
        return """
            Syringe: \(key) is registered with register(scopedTo:), so the scope \(scope) decides how long its \
            instances live; it cannot have a \(lifetime) lifetime
              remove .lifetime(…), or register it without scopedTo: and give it the lifetime \
            (.lifetime(.cached(in: \(scope).self)) keeps one instance until dropCached(scopedTo: \(scope).self))
            """
    }

    static func instanceLifetime(_ key: Key, lifetime: String) -> String {
        """
        Syringe: \(key) is registered with registerSingleton, which keeps the instance it was given; it cannot \
        have a \(lifetime) lifetime
          remove .lifetime(…), or register a factory instead: register(lifetime: …) { \(typeName(key.type))(…) }
        """
    }

    static func notHeldWeakly(_ type: Any.Type, valueType: Any.Type, site: SourceLocation?) -> String {
        """
        Syringe: a weakly held \(typeName(type))\(site.map { " (declared at \($0))" } ?? "") got a \
        \(typeName(valueType)), which is not a class instance and cannot be held weakly
          register a class for \(typeName(type)), make its protocol class-bound (: AnyObject), or use @Inject
        """
    }

    // MARK: Main actor

    static func offMainActorHeadline(_ requested: String) -> String {
        "Syringe: \(requested) is bound to the main actor and was resolved off it"
    }

    /// Why a registration is main-actor-bound, and the fixes.
    static func offMainActorSuggestions(registeredAt site: SourceLocation) -> [String] {
        [
            "its factory, registered at \(site), is isolated to the main actor (written in @MainActor code, "
                + "or a @MainActor function)",
            "resolve it from @MainActor code, or hop there first: await MainActor.run { … }",
            "a factory that need not run on the main actor can be registered from nonisolated code "
                + "(a ResolverModule, say)",
        ]
    }

    static func mainActorBootstrapOffMainActor() -> String {
        """
        Syringe: registerAllServices() is isolated to the main actor (MainActorResolverRegistering) and the \
        first resolution that reaches main ran off the main actor, so it could not run
          resolve something from @MainActor code first (at launch, or in a @MainActor test), or conform to \
        ResolverRegistering with a nonisolated registerAllServices() (main-actor types are then registered with \
        register { @MainActor in … })
        """
    }
}
