/// How a registration's lifetime is chosen and changed: the one place the ``Singleton`` marker
/// and the rules of ``Registration/lifetime(_:file:line:)`` are decided.
extension Provider {
    /// The store a new registration starts with. The ``Singleton`` marker is decided here and
    /// nowhere else: a conforming type is a singleton; a registration with runtime arguments is
    /// transient; any other registration's first instance is checked for the marker.
    static func initialStore(for lifetime: Lifetime, key: Key, id: RegistrationID) -> InstanceStore<T> {
        if T.self is any Singleton.Type { return SingletonStore() }
        if key.arguments != nil { return TransientStore() }
        let chosen = InstanceStore<T>.make(for: lifetime, id: id)
        return lifetime == .singleton ? chosen : SingletonProbeStore(chosen)
    }

    /// Why `lifetime` cannot apply to a registration of `key`, if it cannot.
    static func refusal(of lifetime: Lifetime, for key: Key) -> String? {
        if key.arguments != nil, lifetime != .transient {
            return Messages.argumentsNotTransient(key, lifetime: lifetime.description)
        }
        if T.self is any Singleton.Type {
            if key.arguments != nil { return Messages.singletonWithArguments(key) }
            if lifetime != .singleton { return Messages.singletonTypeLifetime(key, lifetime: lifetime.description) }
        }
        return nil
    }

    /// Gives the registration another lifetime, or says why it cannot have it. Write lock held.
    func changeLifetimeLocked(to lifetime: Lifetime, leftovers: inout Leftovers) -> String? {
        if store is FixedInstanceStore<T> {
            return lifetime == .singleton ? nil : Messages.instanceLifetime(key, lifetime: lifetime.description)
        }
        if key.scope != nil { return Messages.scopedLifetime(key, lifetime: lifetime.description) }
        if let refusal = Self.refusal(of: lifetime, for: key) { return refusal }
        registry.unindex(self)
        changeStoreLocked(to: Self.initialStore(for: lifetime, key: key, id: id), leftovers: &leftovers)
        if registry.binding(for: key) === self { registry.index(self) }
        return nil
    }

    /// Resolves this registration with `values` converted to its argument types, or nil when
    /// they do not convert, for a call at `site`. No lock held.
    func resolveConverting(
        _ values: [Any], in container: Resolver, site: SourceLocation
    ) throws(ResolutionError) -> Any? {
        guard case .arguments(let factory) = make else { return nil }
        return try factory.withConverted(values) { arguments throws(ResolutionError) in
            try container.resolveBinding(self, key: key, arguments: arguments, site: site)
        }
    }
}
