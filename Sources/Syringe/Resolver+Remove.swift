// MARK: - Removing registrations and dropping cached instances

extension Resolver {
    /// Removes the registration of `type` under `qualifier` (and `name`), if any, and the keys
    /// `.implements` wrote for it.
    ///
    /// ```swift
    /// resolver.clearRegistration(for: ClassA.self)
    /// resolver.clearRegistration(for: APIClient.self, qualifiedBy: Staging.self)
    /// ```
    public func clearRegistration<T>(
        for type: T.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil, name: String? = nil
    ) {
        removeBinding(Key(T.self, qualifier: qualifier, name: name))
    }

    /// Removes the scoped registration of `type` in `scope` under `qualifier`, if any.
    public func clearRegistration<T>(
        for type: T.Type, scopedTo scope: any Scope.Type, qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil
    ) {
        removeBinding(Key(T.self, qualifier: qualifier, scope: scope, name: name))
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

    /// Removes every registration except those of the given types, which keep the keys
    /// `.implements` wrote for them. A key `.implements` wrote goes with its registration, even
    /// when its own type is listed.
    ///
    /// ```swift
    /// resolver.clearAllRegistrations(except: [ClassB.self])
    /// ```
    public func clearAllRegistrations(except types: [Any.Type]) {
        let kept = Set(types.map(ObjectIdentifier.init))
        removeBindings {
            !kept.contains(ObjectIdentifier($0.key.type)) && !kept.contains(ObjectIdentifier($0.provider.key.type))
        }
    }

    /// Forgets the cached instances of the given types (every qualifier, scope and name);
    /// the next resolution builds new ones. Like the other `drop` calls, it forgets what this
    /// container keeps (a test container, its own copies too): a parent's instances stay the
    /// parent's, as its registrations do for ``clearAllRegistrations()-method``; drop them on the parent.
    /// Called inside a factory, what it lets go is released when the outermost resolution
    /// returns, or the outermost async build ends (a deinitializer may resolve what is being
    /// built), as with a registration made there.
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

    /// Forgets the instances of `scope`: those of registrations made with `register(scopedTo:)`
    /// (for a strong scope, a log-out say) and everything kept with `.lifetime(.cached(in: scope))`.
    ///
    /// ```swift
    /// resolver.dropCached(scopedTo: Session.self)
    /// ```
    public func dropCached(scopedTo scope: any Scope.Type) {
        let id = ObjectIdentifier(scope)
        registryLock.withWriteLock { leftovers in
            for binding in registry.bindings(in: id) where binding.provider.scope == id {
                binding.provider.dropCache(keptBy: nil, leftovers: &leftovers)
            }
            for copy in storeCopies.values where copy.provider.scope == id {
                copy.provider.dropCache(keptBy: self, leftovers: &leftovers)
            }
        }
    }

    private func removeBinding(_ key: Key) {
        registryLock.withWriteLock { leftovers in
            registry.unbind(key, leftovers: &leftovers)
        }
    }

    private func removeBindings(where matches: (AnyBinding) -> Bool) {
        registryLock.withWriteLock { leftovers in
            for binding in registry.bindings.values where matches(binding) {
                registry.unbind(binding.key, leftovers: &leftovers)
            }
        }
    }

    /// Drops what the matching registrations keep: this container's own, and for a test container
    /// its copies of its ancestors' registrations.
    private func dropCaches(where matches: (AnyBinding) -> Bool) {
        registryLock.withWriteLock { leftovers in
            for binding in registry.bindings.values where matches(binding) {
                binding.provider.dropCache(keptBy: nil, leftovers: &leftovers)
            }
            for (id, copy) in storeCopies where matches(copy.provider) {
                copy.provider.dropCache(keptBy: self, leftovers: &leftovers)
                // A copy of a registration replaced or removed since goes, and with it that registration.
                if copy.isStale { leftovers.append(storeCopies.removeValue(forKey: id)) }
            }
        }
    }
}

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

    /// Starts the process-wide containers over, as Resolver's `reset()`: every registration of
    /// ``main`` goes (with what it keeps), ``root`` is ``main`` again, and `registerAllServices()`
    /// runs again before the next resolution that reaches ``main`` (the modules given to
    /// ``registerOnBootstrap(_:)`` before do not).
    ///
    /// ```swift
    /// override func setUp() {
    ///     super.setUp()
    ///     Resolver.reset()   // a serial XCTest suite that registers into main
    /// }
    /// ```
    ///
    /// It acts on what every test of the process shares: tests that run in parallel each use a
    /// container of their own instead (`@Test(.isolatedResolver)`, `SyringeTestCase`).
    ///
    /// `main`'s settings go back to their defaults too (``defaultLifetime-property``,
    /// ``allowsOverrides-property``, ``context-swift.property``). Made while a bootstrap runs, it leaves
    /// the bootstrap pending: the next resolution that finds nothing in `main` runs
    /// `registerAllServices()` again, whole.
    public static func reset() {
        resetMain()
    }

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
