// MARK: - Resolving (instance API)

extension Resolver {
    /// Resolves a `T`, stopping the program with a message that names the key, the
    /// resolution path, the container and the fix when it cannot.
    ///
    /// ```swift
    /// let service: AssetService = resolver.resolve()
    /// let api: APIClient = resolver.resolve(qualifiedBy: Staging.self)
    /// let user: User = resolver.resolve(scopedTo: RegistrationFlow.self)
    /// let bread: Bread = resolver.resolve(name: "🥐")
    /// ```
    ///
    /// Asking for `A?` resolves `A`, and yields nil when `A` is not registered.
    ///
    /// The value is `sending`, so it goes straight into an actor's initializer:
    /// `Store(api: resolver.resolve())`. (Values built with runtime arguments may hold those
    /// arguments, so the argument forms return plain values.)
    ///
    /// A stop is reported at the line of the call, which the message names (`requested at
    /// MyApp/AssetService.swift:12`); `file` and `line` say where that is, and callers never
    /// write them. Every resolving call takes them: `optional`, `tryResolve` (whose error holds
    /// the line in ``ResolutionError/site``) and `resolveAll` too.
    /// - SeeAlso: ``tryResolve(_:scopedTo:qualifiedBy:name:isolation:file:line:)-method``,
    ///   ``optional(_:scopedTo:qualifiedBy:name:isolation:file:line:)-method``
    public func resolve<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> sending T {
        let resolution = Resolution.current
        let mark = MainActorMark(isolation, resolution)
        defer { mark.end(resolution) }
        let key = Key(T.self, qualifier: qualifier, scope: scope, name: name)
        let site = SourceLocation(file: file, line: line)
        do throws(ResolutionError) {
            return try Resolver.resolve(key, from: self, site: site, in: resolution)
        } catch {
            trap(error.isNotRegistered ? missingError(for: key, site: site, as: T.self) : error, calledAt: site)
        }
    }

    /// Resolves a `T` and casts it to the type the caller expects.
    ///
    /// ```swift
    /// let variant: VariantA = resolver.resolve(ClassA.self)
    /// ```
    @_disfavoredOverload
    public func resolve<T, U>(
        _ type: T.Type,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> sending U {
        let value: T = resolve(
            T.self, scopedTo: scope, qualifiedBy: qualifier, name: name, isolation: isolation, file: file, line: line)
        guard let converted = value as? U else {
            let key = Key(T.self, qualifier: qualifier, scope: scope, name: name)
            trap(
                ResolutionError(
                    .notConvertible(from: Swift.type(of: value as Any)), key: key.with(type: U.self),
                    path: Resolution.current.path, container: self, site: SourceLocation(file: file, line: line)),
                calledAt: SourceLocation(file: file, line: line))
        }
        return converted
    }

    /// Resolves a `T` built with runtime arguments.
    ///
    /// ```swift
    /// let d: ClassD = resolver.resolve(arguments: "stage", 1200)
    /// ```
    public func resolve<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        let site = SourceLocation(file: file, line: line)
        do throws(ResolutionError) {
            if let resolved = try resolveWithArguments(
                T.self, qualifier: qualifier, name: name, site: site, isolation: isolation, first, repeat each rest)
            {
                return resolved
            }
            throw missingError(
                T.self, qualifier: qualifier, name: name, site: site, First.self, repeat (each Rest).self)
        } catch {
            trap(error, calledAt: site)
        }
    }

    /// Resolves a `T`, or returns nil when nothing is registered for it. Other failures
    /// (a cycle, a missing dependency further down) still stop the program.
    ///
    /// ```swift
    /// let analytics: Analytics? = resolver.optional()
    /// ```
    public func optional<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> sending T? {
        do {
            return try resolveIfRegistered(
                Key(T.self, qualifier: qualifier, scope: scope, name: name),
                site: SourceLocation(file: file, line: line), isolation: isolation)
        } catch {
            trap(error, calledAt: SourceLocation(file: file, line: line))
        }
    }

    /// Resolves a `T` built with runtime arguments, or returns nil when nothing is registered
    /// for it with these argument types.
    ///
    /// ```swift
    /// let d: ClassD? = resolver.optional(arguments: "stage", 1200)
    /// ```
    public func optional<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> T? {
        do {
            return try resolveWithArguments(
                T.self, qualifier: qualifier, name: name, site: SourceLocation(file: file, line: line),
                isolation: isolation, first, repeat each rest)
        } catch {
            trap(error, calledAt: SourceLocation(file: file, line: line))
        }
    }

    /// Resolves a `T`, throwing a ``ResolutionError`` for every failure it can see: its own,
    /// and nested ones from `autoregister`ed types and from factories that use `try $0.tryResolve()`.
    ///
    /// ```swift
    /// let service: AssetService = try resolver.tryResolve()
    /// ```
    public func tryResolve<T>(
        _ type: T.Type = T.self,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(ResolutionError) -> sending T {
        let resolution = Resolution.current
        let mark = MainActorMark(isolation, resolution)
        defer { mark.end(resolution) }
        let key = Key(T.self, qualifier: qualifier, scope: scope, name: name)
        let site = SourceLocation(file: file, line: line)
        do throws(ResolutionError) {
            return try Resolver.resolve(key, from: self, site: site, in: resolution)
        } catch {
            throw error.isNotRegistered ? missingError(for: key, site: site, as: T.self) : error
        }
    }

    /// Resolves a `T` built with runtime arguments, throwing a ``ResolutionError`` on failure
    /// (for instance when it is registered with other argument types).
    public func tryResolve<T, First, each Rest>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        arguments first: First,
        _ rest: repeat each Rest,
        isolation: (any Actor)? = #isolation,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(ResolutionError) -> T {
        let site = SourceLocation(file: file, line: line)
        if let resolved = try resolveWithArguments(
            T.self, qualifier: qualifier, name: name, site: site, isolation: isolation, first, repeat each rest)
        {
            return resolved
        }
        throw missingError(T.self, qualifier: qualifier, name: name, site: site, First.self, repeat (each Rest).self)
    }

    /// The error of a call with runtime arguments that nothing serves. A function of its own, so that
    /// the callers' frames, which stay on the stack while the factory runs, do not hold its key.
    @inline(never)
    private func missingError<T, First, each Rest>(
        _: T.Type, qualifier: (any Qualifier.Type)?, name: String?, site: SourceLocation, _: First.Type,
        _: repeat (each Rest).Type
    ) -> ResolutionError {
        let key = Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self)
        return missingError(for: key, site: site, as: T.self)
    }

    /// Resolves a `T` built with runtime arguments, or nil when nothing is registered for it with
    /// these argument types (decided in the lookup that builds, as `optional()` does).
    private func resolveWithArguments<T, First, each Rest>(
        _ type: T.Type, qualifier: (any Qualifier.Type)?, name: String?, site: SourceLocation,
        isolation: (any Actor)?, _ first: First, _ rest: repeat each Rest
    ) throws(ResolutionError) -> T? {
        let key = Key(T.self, qualifier: qualifier, name: name, argumentTypes: First.self, repeat (each Rest).self)
        let resolved: T? = try Arguments.with((first, repeat each rest)) { arguments throws(ResolutionError) in
            try resolveIfRegistered(key, arguments: arguments, site: site, isolation: isolation)
        }
        // A `T?` that nothing serves with these static argument types is nil: `T`'s registrations
        // whose argument types the values convert to may still serve it.
        if let resolved, !(T.self is any OptionalType.Type) || (resolved as? any OptionalType)?.wrappedAny != nil {
            return resolved
        }
        return try resolveConverting(key, site: site, isolation: isolation, first, repeat each rest) ?? resolved
    }

    /// Resolves with a registration whose argument types the values convert to: a protocol or
    /// superclass of a value's type, or `A?` for a value of type `A`; nil if none does. A function
    /// of its own, so that the frame of the direct match, which stays on the stack while its
    /// factory runs, does not hold what this needs.
    @inline(never)
    private func resolveConverting<T, First, each Rest>(
        _ key: Key, site: SourceLocation, isolation: (any Actor)?, _ first: First, _ rest: repeat each Rest
    ) throws(ResolutionError) -> T? {
        let candidates = conversionCandidates(for: key, as: T.self)
        var all: [Any] = [first]
        for value in repeat each rest { all.append(value) }
        let resolution = Resolution.current
        let mark = MainActorMark(isolation, resolution)
        defer { mark.end(resolution) }
        guard !candidates.isEmpty else { return nil }
        return try resolveConverting(candidates, values: all, as: T.self, site: site)
    }

    /// The registrations a request for `key` with runtime arguments that nothing serves as given may
    /// reach by converting its values: `key`'s type and selectors, and for a `T?` also `T`'s. None
    /// when a registration for the very argument types was asked first: its nil is the answer.
    func conversionCandidates<T>(for key: Key, as _: T.Type) -> [AnyBinding] {
        var candidates = argumentCandidates(for: key)
        var exact = [key]
        if let optional = T.self as? any OptionalType.Type {
            exact.append(key.with(type: optional.wrappedType))
            candidates += argumentCandidates(for: exact[1])
        }
        return candidates.contains { exact.contains($0.key) } ? [] : candidates
    }

    /// The registrations with runtime arguments of `key`'s type and selectors along the chain,
    /// the nearest container's first, then in registration order.
    ///
    /// A call whose values have other static types than the registered arguments (Swift opens
    /// an existential to its dynamic type) still reaches one whose argument types the values
    /// are instances of; a call for which there is none costs this lookup only.
    private func argumentCandidates(for key: Key) -> [AnyBinding] {
        withChainReadLock { () -> [AnyBinding] in
            var found: [AnyBinding] = []
            var container: Resolver? = self
            while let current = container {
                found += current.registry.argumentBindings(for: key)
                container = current.parent
            }
            return found
        }
    }

    /// Resolves the first of `candidates` that accepts `values` converted to its argument types.
    private func resolveConverting<T>(
        _ candidates: [AnyBinding], values: [Any], as type: T.Type, site: SourceLocation
    ) throws(ResolutionError) -> T? {
        for binding in candidates {
            if let value = try binding.provider.resolveConverting(values, from: self, site: site) {
                guard let converted = value as? T else { continue }
                return converted
            }
        }
        return nil
    }

    /// Resolves one instance from every registration serving `T`: every qualifier and name,
    /// and every registration that `.implements(T.self)`, in registration order. Registrations
    /// that need runtime arguments are left out, and so is one whose factory may yield no value
    /// and yields none.
    ///
    /// ```swift
    /// let plugins: [Plugin] = resolver.resolveAll()
    /// ```
    public func resolveAll<T>(
        _ type: T.Type = T.self, isolation: (any Actor)? = #isolation, file: StaticString = #fileID, line: UInt = #line
    ) -> sending [T] {
        let site = SourceLocation(file: file, line: line)
        let resolution = Resolution.current
        let mark = MainActorMark(isolation, resolution)
        defer { mark.end(resolution) }
        bootstrapIfPending(resolution, calledAt: site)
        let bindings = withChainReadLock(resolution) { bindingsServingLocked(T.self) }
        return bindings.compactMap { binding in
            do throws(ResolutionError) {
                let value = try binding.provider.resolveErased(
                    as: binding.key, from: self, arguments: nil, site: site, in: resolution)
                guard let converted = value as? T else {
                    throw ResolutionError(
                        .notConvertible(from: Swift.type(of: value)), key: binding.key, path: [], container: self,
                        site: site,
                        suggestions: [Messages.implementsFix(binding.key, instanceType: Swift.type(of: value))])
                }
                return converted
            } catch  where error.yieldsNothing(for: binding.provider.key, atDepth: resolution.pathDepth) {
                return nil
            } catch {
                trap(error, calledAt: site)
            }
        }
    }

    /// Whether a registration for the key exists in this container or its ancestors.
    ///
    /// ```swift
    /// if resolver.isRegistered(Analytics.self) { … }
    /// ```
    public func isRegistered<T>(
        _ type: T.Type,
        scopedTo scope: (any Scope.Type)? = nil,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil
    ) -> Bool {
        hasRegistration(for: Key(T.self, qualifier: qualifier, scope: scope, name: name))
    }
}

extension Resolver {
    /// Resolves `key` from here, or nil when nothing is registered for it: the miss is decided by
    /// the same locked lookup that would build, so a registration cleared meanwhile by another
    /// thread gives nil, never an error. The registration of `key` itself producing nil gives nil
    /// too. Other failures throw.
    func resolveIfRegistered<T>(
        _ key: Key, arguments: Arguments? = nil, site: SourceLocation?, isolation: (any Actor)?
    ) throws(ResolutionError) -> T? {
        let resolution = Resolution.current
        let mark = MainActorMark(isolation, resolution)
        defer { mark.end(resolution) }
        do {
            let value: T = try Resolver.resolve(key, from: self, arguments: arguments, site: site, in: resolution)
            return value
        } catch  where error.isNotRegistered || error.yieldsNothing(for: key, atDepth: resolution.pathDepth) {
            return nil
        }
    }

    /// Resolves `key` from `container` (nil: ``current``), or stops the program with the resolution
    /// error: the wrappers' and the static twins' way in.
    static func resolveOrTrap<T>(
        _ key: Key, from container: Resolver?, site: SourceLocation, isolation: (any Actor)?
    ) -> T {
        Resolution.withCurrent { resolution in
            let mark = MainActorMark(isolation, resolution)
            defer { mark.end(resolution) }
            do throws(ResolutionError) {
                return try Resolver.resolve(key, from: container, site: site, in: resolution)
            } catch {
                trap(
                    error.isNotRegistered ? missingError(for: key, from: container, site: site, as: T.self) : error,
                    calledAt: site)
            }
        }
    }

    /// Whether a registration for `key` exists along the chain.
    func hasRegistration(for key: Key) -> Bool {
        let resolution = Resolution.current
        bootstrapIfPending(resolution)
        return withChainReadLock(resolution) {
            var container: Resolver? = self
            while let current = container {
                if current.registry.bindings[key] != nil { return true }
                container = current.parent
            }
            return false
        }
    }
}
