/// Every message Syringe prints, in one place.
enum Messages {
    static func describe(_ error: ResolutionError) -> String {
        var lines: [String] = []
        /// The fix, written after where the failure happened, as for every other failure.
        var fixes: [String] = []
        switch error.reason {
        case .missing:
            lines.append("Syringe: no registration for \(error.requested)")
        case .cycle(let keys):
            lines.append("Syringe: dependency cycle while resolving \(error.requested)")
            lines.append("  cycle: \(keys.joined(separator: " → "))")
        case .tooDeep:
            lines.append(tooDeep(error))
        case .factoryFailed(let underlying):
            lines.append(
                "Syringe: \(error.isStepFailure ? "an initCompleted step of" : "the factory for") \(error.requested) "
                    + "threw an error: \(underlying)")
        case .notAClass(let lifetime):
            if let optional = error.key.type as? any OptionalType.Type {
                let wrapped = typeName(optional.wrappedType)
                lines.append(
                    "Syringe: \(error.requested) has a \(lifetime) lifetime but its factory built an Optional, "
                        + "which is a value even when it wraps a class instance; "
                        + "only class instances can be held weakly"
                )
                fixes.append(
                    "  register \(wrapped) itself with that lifetime (a request for \(wrapped)? resolves it), "
                        + "or register the Optional as .singleton or .transient")
            } else {
                lines.append(
                    "Syringe: \(error.requested) has a \(lifetime) lifetime but its factory built a value type;"
                        + " only class instances can be held weakly")
                fixes.append("  register it as .singleton or .transient, or make the type a class")
            }
        case .offMainActor:
            lines.append(offMainActorHeadline(error.requested))
        case .asyncFactory:
            lines.append(
                "Syringe: \(error.requested) has an async factory and no instance built yet; "
                    + "a synchronous resolve() cannot run it")
        case .producedNil:
            lines.append("Syringe: the factory for \(error.requested) produced nil")
            fixes.append(
                "  it is registered with a factory that may yield no value; ask for it with optional() or "
                    + "@OptionalInject, or let the factory always return one")
        case .stopped(let message):
            lines.append(message)
        case .notConvertible(let type):
            let names = distinctTypeNames([type, error.key.type])
            let requested = error.key.description(typeName: names[1])
            lines.append(
                "Syringe: the instance built for \(requested) is \(withArticle(names[0])), which is not "
                    + withArticle(requested))
        }
        if error.path.count > 1, !isCycle(error.reason) {
            let path =
                error.path.count > 12
                ? error.path.prefix(5) + ["… \(error.path.count - 10) more …"] + error.path.suffix(5)
                : error.path[...]
            lines.append("  while resolving \(path.joined(separator: " → "))")
        }
        lines.append("  in container \(error.container)")
        if let site = error.site {
            lines.append("  requested at \(site)")
        }
        lines += fixes
        if case .tooDeep = error.reason, error.path.count >= Resolver.maximumDepth, !repeatsKeyWithArguments(error) {
            lines.append(
                "  no registration on the path repeats: the chain of dependencies is longer than the "
                    + "\(Resolver.maximumDepth) levels Syringe follows; shorten it, or let part of it resolve later "
                    + "(@LazyInject)")
        }
        lines.append(contentsOf: error.suggestions.map { "  " + $0 })
        // A loop through a step, or through threads, has fixes of its own.
        if isCycle(error.reason),
            !error.suggestions.contains(where: { $0.hasPrefix(cycleThroughStepOpening) || $0 == cycleAcrossThreads })
        {
            lines.append(cycleFix)
        }
        return lines.joined(separator: "\n")
    }

    /// The fix for a key `.implements` wrote for a type its registration's instance is not.
    static func implementsFix(_ key: Key, instanceType: Any.Type) -> String {
        let names = distinctTypeNames([instanceType, key.type])
        return "remove .implements(\(names[1]).self) from the registration of \(names[0]), "
            + "or register \(withArticle(names[1])) under that key itself"
    }

    /// Whether a key with arguments appears more than once on a too-deep error's path (which
    /// ends before the key that failed): a registration with arguments resolving itself, which
    /// cycle detection leaves alone since its arguments may differ each time.
    private static func repeatsKeyWithArguments(_ error: ResolutionError) -> Bool {
        var seen: Set<Key> = []
        for key in error.pathKeys + [error.key] where key.arguments != nil {
            if !seen.insert(key).inserted { return true }
        }
        return false
    }

    /// `verify()`'s warning for a key registered more than once in one container.
    static func registeredTwice(_ key: Key, earlier: [SourceLocation], last: SourceLocation) -> String {
        let sites = (earlier + [last]).map(\.description).joined(separator: ", then at ")
        return "\(key) is registered more than once: at \(sites); the last registration wins, remove the others "
            + "(or give them different qualifiers or names)"
    }

    /// `verify()`'s warning for a key that more than one registration's `.implements` wrote.
    static func implementedTwice(_ key: Key, earlier: [SourceLocation], last: SourceLocation) -> String {
        let sites = (earlier + [last]).map(\.description).joined(separator: ", then at ")
        return "\(key) is implemented by more than one registration: at \(sites); resolve() gets the last and "
            + "resolveAll() each of them (give them qualifiers or names to resolve one in particular)"
    }

    /// `verify()`'s warning for a `.weak` (or weakly scoped) registration that builds a value type.
    static func weakValueType(_ key: Key, lifetime: String) -> String {
        "\(key) has a \(lifetime) lifetime but its factory builds a value type, which cannot be held weakly: "
            + "every resolution builds a new one; register it as .singleton or .transient, or make it a class"
    }

    /// `verify()`'s warning for a registration of `Optional<Wrapped>` when `Wrapped` is not registered.
    static func optionalRegistration(_ key: Key, wrapped: Any.Type, site: SourceLocation) -> String {
        let name = typeName(wrapped)
        return "\(key) is registered (at \(site)) but \(name) is not: optional(), @OptionalInject and "
            + "resolve() as \(name) ask for \(name) and do not find it; register \(name) with a factory that may "
            + "yield nil instead, `register(\(name).self) { … as \(name)? }`"
    }

    private static let cycleThroughStepOpening = "the loop passes through "

    /// What a loop through the `initCompleted` step of `name` means.
    static func cycleThroughStep(_ name: String) -> String {
        "\(cycleThroughStepOpening)\(name)'s initCompleted step: when \(name) is not shared, each new "
            + "instance's step builds another; register it with a lifetime that shares the instance (.graph, "
            + "say, for a class; .singleton for a struct), so that the step finds the one it completes"
    }

    /// What a loop of waits between threads means, and the fixes.
    static let cycleAcrossThreads =
        "each of these is being built by a thread that waits for the next: if one thread alone resolves them "
        + "(a pair closed by initCompleted), resolve one of them first (at launch), and every thread finds both; "
        + "else break the loop with @LazyInject, @WeakLazyInject or initCompleted"

    /// How to break a dependency cycle.
    static let cycleFix =
        "  break it with @LazyInject, @WeakLazyInject or initCompleted: let one side be set after it is created"

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

    static func contextWithArguments(_ key: Key, context: String) -> String {
        """
        Syringe: \(withArticle(context)) factory cannot build \(key): it takes no runtime arguments
          register the \(context) stand-in with the same arguments where the \(context) runs
          (a test container's `register(arguments:)`), or check the context in the factory
        """
    }

    static func argumentsNotTransient(_ key: Key, lifetime: String) -> String {
        """
        Syringe: \(key) takes runtime arguments and cannot have a \(lifetime) lifetime
          every resolution passes its own arguments, so each one builds a new instance;
          register it without a lifetime (transient), or register the shared part separately
        """
    }

    /// The wrapper a lazy value belongs to, for messages.
    static func lazyWrapper(weakly: Bool) -> String { weakly ? "@WeakLazyInject" : "@LazyInject" }

    static func lazyCycle(site: SourceLocation?, weakly: Bool) -> String {
        "Syringe: a \(lazyWrapper(weakly: weakly)) property\(site.map { " declared at \($0)" } ?? "") was read while its own value "
            + "was being resolved; its dependencies form a cycle through it"
    }

    static func lazyContainerGone(site: SourceLocation, weakly: Bool) -> String {
        """
        Syringe: the \(lazyWrapper(weakly: weakly)) property declared at \(site) was read for the first time after \
        the container that was current when its object was created had been deallocated
          keep that container alive as long as the object, or use \(weakly ? "@WeakInject" : "@Inject") to resolve \
        when the object is created
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
        \(key.argumentsDescription ?? "()")
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

    /// A `@LazyInject` property's value in messages: `the @LazyInject ImageCache declared at
    /// Profile.swift:12`, or in a resolution path `@LazyInject ImageCache (Profile.swift:12)`.
    static func lazyValue(type: Any.Type, site: SourceLocation?, short: Bool) -> String {
        if short { return "@LazyInject \(typeName(type))" + (site.map { " (\($0))" } ?? "") }
        return "the @LazyInject \(typeName(type))" + (site.map { " declared at \($0)" } ?? "")
    }

    static func lazyCycleAcrossThreads(
        site: SourceLocation?, weakly: Bool, trail: [String], otherTrail: [String]
    ) -> String {
        """
        Syringe: a \(lazyWrapper(weakly: weakly)) property\(site.map { " declared at \($0)" } ?? "") was read while the thread \
        resolving its value waits for this one; their dependencies form a cycle through it
          this thread: \(trail.joined(separator: " → "))
          the thread resolving it: \(otherTrail.joined(separator: " → "))
        """
    }

    static func longWait(
        waited seconds: Double, subject: String, thread: String, path: [String], buildingThread: String,
        buildingPath: [String]
    ) -> String {
        """
        Syringe: a thread has waited \(duration(seconds)) for \(subject), which another thread is building
          waiting:  \(thread), resolving \(path.joined(separator: " → "))
          building: \(buildingThread), resolving \(buildingPath.joined(separator: " → "))
          a factory waiting on this thread would be a cycle: if one on the building thread's path blocks until \
        this thread is done (DispatchQueue.sync, a semaphore, a thread join), neither can finish; resolve what that \
        factory needs before it blocks
          this thread goes on waiting, in case the build is only slow
        """
    }

    /// `5 s`, `0.2 s`.
    private static func duration(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }

    /// The first line of a too-deep error: past ``Resolver/maximumDepth``, or (shallower) where
    /// the main thread's stack ran short, since work on the main thread cannot move to another.
    static func tooDeep(_ error: ResolutionError) -> String {
        let runaway = "a registration with arguments probably resolves itself without end"
        guard error.path.count < Resolver.maximumDepth else {
            if repeatsKeyWithArguments(error) {
                return "Syringe: resolving \(error.requested) went \(Resolver.maximumDepth) levels deep; \(runaway)"
            }
            return "Syringe: the resolution path to \(error.requested) is deeper than \(Resolver.maximumDepth) levels"
        }
        return
            "Syringe: resolving \(error.requested) went \(count(error.path.count, "level")) deep and this thread's stack "
            + "is nearly used up; "
            + (repeatsKeyWithArguments(error)
                ? runaway
                : "resolve it on a thread with a larger stack, or let part of the graph resolve later (@LazyInject)")
    }

    // MARK: Main actor

    /// The fixes for a synchronous resolution that meets an async registration.
    static func asyncFactorySuggestions(for key: Key, registeredAt site: SourceLocation) -> [String] {
        let type =
            (TypeKind(key.type) == .existential && !typeName(key.type).hasPrefix("any ") ? "any " : "")
            + typeName(key.type)
        return [
            "its factory, registered at \(site), is async: resolve it with "
                + "`let value: \(type) = await resolver.resolveAsync()` (or tryResolveAsync())",
            "a singleton, .cached or scoped async registration resolved once with resolveAsync() (at launch, say) "
                + "is then returned by resolve() and the property wrappers; a transient or .graph one "
                + "is built by resolveAsync() every time",
        ]
    }

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
                + "(a ResolverModule, say), with no @MainActor on its closure or initializer",
        ]
    }

    static func mainActorBootstrapOffMainActor(calledAt site: SourceLocation?) -> String {
        """
        Syringe: registerAllServices() is isolated to the main actor (MainActorResolverRegistering) and the \
        first resolution that reaches main ran off the main actor, so it could not run
        """ + (site.map { "\n  requested at \($0)" } ?? "")
            + """

              resolve something from @MainActor code first (at launch, or in a @MainActor test), or conform to \
            ResolverRegistering with a nonisolated registerAllServices() (main-actor types are then registered with \
            register { @MainActor in … })
            """
    }
}
