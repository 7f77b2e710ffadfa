// MARK: - Removing registrations and dropping cached instances

extension Resolver {
    /// Removes the registration of `type` under `qualifier` (and `name`), if any.
    ///
    /// ```swift
    /// resolver.clearRegistration(for: ClassA.self)
    /// resolver.clearRegistration(for: APIClient.self, qualifiedBy: Staging.self)
    /// ```
    public func clearRegistration<T>(
        for type: T.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil, name: String? = nil
    ) {
        let key = Key(T.self, qualifier: qualifier, name: name)
        removeBindings { $0.key == key }
    }

    /// Removes the scoped registration of `type` in `scope` under `qualifier`, if any.
    public func clearRegistration<T>(
        for type: T.Type, scopedTo scope: any Scope.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil
    ) {
        let key = Key(T.self, qualifier: qualifier, scope: scope, name: name)
        removeBindings { $0.key == key }
    }

    /// Removes every registration of this container (its parent's stay).
    public func clearAllRegistrations() {
        removeBindings { _ in true }
    }

    /// Removes every registration of `type`, whatever its qualifier, scope, name or arguments.
    public func clearAllRegistrations<T>(for type: T.Type) {
        removeBindings { $0.key.type == T.self }
    }

    /// Removes every registration in `scope`.
    public func clearAllRegistrations(scopedTo scope: any Scope.Type) {
        removeBindings { sameType($0.key.scope, scope) }
    }

    /// Removes every registration under `qualifier`.
    public func clearAllRegistrations(qualifiedBy qualifier: any Qualifier.Type) {
        removeBindings { sameType($0.key.qualifier, qualifier) }
    }

    /// Removes every registration in `scope` under `qualifier`.
    public func clearAllRegistrations(scopedTo scope: any Scope.Type, qualifiedBy qualifier: any Qualifier.Type) {
        removeBindings { sameType($0.key.scope, scope) && sameType($0.key.qualifier, qualifier) }
    }

    /// Removes every registration except those of the given types.
    ///
    /// ```swift
    /// resolver.clearAllRegistrations(except: [ClassB.self])
    /// ```
    public func clearAllRegistrations(except types: [Any.Type]) {
        let kept = Set(types.map(ObjectIdentifier.init))
        removeBindings { !kept.contains(ObjectIdentifier($0.key.type)) }
    }

    /// Forgets the cached instances of the given types (every qualifier, scope and name);
    /// the next resolution builds new ones.
    ///
    /// ```swift
    /// resolver.dropCached([ClassA.self])
    /// ```
    public func dropCached(_ types: [Any.Type]) {
        let dropped = Set(types.map(ObjectIdentifier.init))
        dropCaches { dropped.contains(ObjectIdentifier($0.key.type)) }
    }

    /// Forgets every cached instance except those of the given types.
    public func dropAllCached(except types: [Any.Type] = []) {
        let kept = Set(types.map(ObjectIdentifier.init))
        dropCaches { !kept.contains(ObjectIdentifier($0.key.type)) }
    }

    /// Forgets the instances of `scope` (for a strong scope, a log-out say).
    ///
    /// ```swift
    /// resolver.dropCached(scopedTo: Session.self)
    /// ```
    public func dropCached(scopedTo scope: any Scope.Type) {
        dropCaches { sameType($0.key.scope, scope) }
    }

    /// Removes the matching bindings of this container; what they held is released after the lock.
    private func removeBindings(where matches: (AnyBinding) -> Bool) {
        let removed: [AnyBinding] = registryLock.withWriteLock {
            let doomed = registry.bindings.values.filter(matches)
            for binding in doomed {
                _ = registry.unbind(binding.key)
            }
            registry.optionalArgumentBindings = registry.optionalArgumentBindings.filter { !matches($0.value) }
            return doomed
        }
        _ = removed
    }

    /// Drops the cached instances of the matching registrations reachable from this container:
    /// its own registrations' caches, and, in an isolating container, its own copies.
    private func dropCaches(where matches: (AnyBinding) -> Bool) {
        let released: [Any] = registryLock.withWriteLock {
            var released: [Any] = []
            for binding in registry.bindings.values where matches(binding) {
                if let value = binding.provider.dropCacheLocked(in: .registration) { released.append(value) }
            }
            if isolatesCache {
                // Every copy this container keeps, also of registrations its own ones now shadow.
                for slot in isolatedCache.values {
                    guard let binding = slot.provider as? AnyBinding, matches(binding) else { continue }
                    if let value = binding.provider.dropCacheLocked(in: .container(self)) { released.append(value) }
                }
            }
            return released
        }
        _ = released
    }
}

// MARK: - Isolated caches (test containers)

extension Resolver {
    /// This container's own copy of a registration's instance. Read lock held.
    func isolatedValueLocked<T>(for provider: Provider<T>) -> T? {
        guard let slot = isolatedCache[ObjectIdentifier(provider)], let value = slot.value else { return nil }
        return (value as! T)
    }

    /// Keeps this container's own copy. Write lock held.
    func setIsolatedValueLocked(_ value: Any, weakly: Bool, for provider: AnyObject) {
        let slot = IsolatedSlot(provider: provider)
        if weakly {
            slot.weak = value as AnyObject
        } else {
            slot.strong = value
        }
        isolatedCache[ObjectIdentifier(provider)] = slot
        if weakly && isolatedCache.count > 32 && isolatedCache.count.isMultiple(of: 32) {
            isolatedCache = isolatedCache.filter { $0.value.value != nil }
        }
    }

    /// Forgets this container's own copy, returning it for release after the lock. Write lock held.
    func removeIsolatedValueLocked(for provider: AnyObject) -> Any? {
        isolatedCache.removeValue(forKey: ObjectIdentifier(provider))?.value
    }
}

/// Whether an optional key component is the given type.
private func sameType(_ component: Any.Type?, _ type: Any.Type) -> Bool {
    component.map { ObjectIdentifier($0) == ObjectIdentifier(type) } ?? false
}

// MARK: - The same, on `Resolver.current`

extension Resolver {
    /// Removes the registration of `type` under `qualifier` (and `name`) from ``current``.
    ///
    /// ```swift
    /// Resolver.clearRegistration(for: ClassA.self)
    /// ```
    public static func clearRegistration<T>(
        for type: T.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil, name: String? = nil
    ) {
        current.clearRegistration(for: type, qualifiedBy: qualifier, name: name)
    }

    /// Removes the scoped registration of `type` from ``current``.
    public static func clearRegistration<T>(
        for type: T.Type, scopedTo scope: any Scope.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil
    ) {
        current.clearRegistration(for: type, scopedTo: scope, qualifiedBy: qualifier, name: name)
    }

    /// Removes every registration of ``current``.
    public static func clearAllRegistrations() { current.clearAllRegistrations() }

    /// Removes every registration of `type` from ``current``.
    public static func clearAllRegistrations<T>(for type: T.Type) { current.clearAllRegistrations(for: type) }

    /// Removes every registration in `scope` from ``current``.
    public static func clearAllRegistrations(scopedTo scope: any Scope.Type) {
        current.clearAllRegistrations(scopedTo: scope)
    }

    /// Removes every registration under `qualifier` from ``current``.
    public static func clearAllRegistrations(qualifiedBy qualifier: any Qualifier.Type) {
        current.clearAllRegistrations(qualifiedBy: qualifier)
    }

    /// Removes every registration in `scope` under `qualifier` from ``current``.
    public static func clearAllRegistrations(scopedTo scope: any Scope.Type, qualifiedBy qualifier: any Qualifier.Type)
    {
        current.clearAllRegistrations(scopedTo: scope, qualifiedBy: qualifier)
    }

    /// Removes every registration of ``current`` except those of the given types.
    public static func clearAllRegistrations(except types: [Any.Type]) {
        current.clearAllRegistrations(except: types)
    }

    /// Forgets the cached instances of the given types in ``current``.
    ///
    /// ```swift
    /// Resolver.dropCached([ClassA.self])
    /// ```
    public static func dropCached(_ types: [Any.Type]) { current.dropCached(types) }

    /// Forgets every cached instance of ``current`` except those of the given types.
    public static func dropAllCached(except types: [Any.Type] = []) { current.dropAllCached(except: types) }

    /// Forgets the instances of `scope` in ``current``.
    public static func dropCached(scopedTo scope: any Scope.Type) { current.dropCached(scopedTo: scope) }
}
