/// What a lookup that finds no registration for its key resolves to.
extension Resolver {
    /// What a miss resolves to: an alternative (``resolveAlternatives(for:arguments:state:site:)``),
    /// else the missing-registration error.
    @inline(never)
    func resolveMissing<T>(
        _ key: Key, arguments: ArgumentValues, state: ThreadState, site: SourceLocation?
    ) throws(ResolutionError) -> T {
        if let value: T = try resolveAlternatives(for: key, arguments: arguments, state: state, site: site) {
            return value
        }
        throw missingError(for: key, site: site, as: T.self)
    }

    /// What serves a key nothing is registered for: a registration whose only argument is
    /// Optional, or, for an Optional request, its wrapped type (nil when that is missing too).
    func resolveAlternatives<T>(
        for key: Key, arguments: ArgumentValues, state: ThreadState, site: SourceLocation?
    ) throws(ResolutionError) -> T? {
        if state.depth != 0 { recordEdge(to: key, state: state) }
        if key.arguments == nil {
            registryLock.lockRead(stripe: state.stripe)
            if let binding = optionalArgumentBindingLocked(key), let found = findLocked(binding.key) {
                let typed = unsafeDowncast(found.binding, to: Binding<T>.self)
                return try resolveFoundLocked(
                    typed, key: binding.key, cache: found.cache, owner: found.owner, arguments: .none, site: site,
                    state: state)
            }
            registryLock.unlockRead(stripe: state.stripe)
        }
        if let optional = T.self as? any OptionalResolvable.Type {
            return try optional.resolveWrapped(key, arguments: arguments, in: self, site: site) as? T
        }
        return nil
    }

    /// The registration of `key`'s type whose only argument is Optional. Read lock held.
    func optionalArgumentBindingLocked(_ key: Key) -> AnyBinding? {
        var container: Resolver? = self
        while let current = container {
            if let binding = current.registry.optionalArgumentBindings[key] { return binding }
            container = current.parent
        }
        return nil
    }
}

/// Stops the program with a resolution error's message, reported at the line that asked for
/// the value when the error knows it.
func trap(_ error: ResolutionError) -> Never {
    ThreadState.current.stopIfVerifying(error)
    stop(error.description, at: error.location)
}

/// Stops the program with `message`, reported at `site` (as `Module/File.swift:12: Fatal error: …`)
/// when it is known. In a `verify()` run, a stop while resolving a `type` is recorded and ends
/// the worker thread instead (``ThreadState/stopIfVerifying(message:type:site:)``).
func stop(_ message: String, resolving type: Any.Type? = nil, at site: SourceLocation?) -> Never {
    if let type { ThreadState.current.stopIfVerifying(message: message, type: type, site: site) }
    guard let site else { fatalError(message) }
    fatalError(message, file: site.file, line: site.line)
}

/// Lets a request for `Optional<Wrapped>` resolve `Wrapped` when the Optional itself is
/// not registered.
protocol OptionalResolvable {
    static func resolveWrapped(
        _ key: Key, arguments: ArgumentValues, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any
}

extension Optional: OptionalResolvable {
    static func resolveWrapped(
        _ key: Key, arguments: ArgumentValues, in resolver: Resolver, site: SourceLocation?
    ) throws(ResolutionError) -> Any {
        let value: Wrapped? = try resolver.resolveValue(key.with(type: Wrapped.self), arguments: arguments, site: site)
        return value as Any
    }
}

extension ResolutionError {
    /// Whether this is the registration of `key` itself producing nil, asked for at `depth`
    /// (not one of its dependencies doing so further down).
    func yieldsNothing(for requested: Key, atDepth depth: Int) -> Bool {
        guard case .producedNil = reason else { return false }
        return key == requested && path.count == depth + 1
    }
}
