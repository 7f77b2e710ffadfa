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
            lines.append(tooDeep(error))
        case .factoryFailed(let underlying):
            lines.append("Syringe: the factory for \(error.requested) threw an error: \(underlying)")
        case .notAClass(let lifetime):
            lines.append(
                "Syringe: \(error.requested) has a \(lifetime) lifetime but its factory built a value type;"
                    + " only class instances can be held weakly")
            lines.append("  register it as .singleton or .transient, or make the type a class")
        case .offMainActor:
            lines.append(
                "Syringe: \(error.requested) is registered with registerMainActor and was resolved off the main actor")
            lines.append("  resolve it from @MainActor code, or hop there first: await MainActor.run { … }")
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

    /// The first line of a too-deep error: past ``Resolver/maximumDepth``, or (shallower) where
    /// the main thread's stack ran short, since work on the main thread cannot move to another.
    static func tooDeep(_ error: ResolutionError) -> String {
        guard error.path.count < Resolver.maximumDepth else {
            return "Syringe: resolving \(error.requested) went \(Resolver.maximumDepth) levels deep; "
                + "a registration with arguments probably resolves itself without end"
        }
        return "Syringe: resolving \(error.requested) went \(error.path.count) levels deep and the main thread's stack "
            + "is nearly used up; a registration with arguments probably resolves itself without end, or the graph "
            + "is too deep to build on the main thread"
    }
}
