/// Why a resolution failed: what was asked for, the path that led there, the container,
/// and what to do about it.
///
/// `resolve()` stops the program with this error's ``description``, reported at the line that
/// asked for the value (``site``); `tryResolve()` throws it.
///
/// ```swift
/// do {
///     let service: AssetService = try Resolver.tryResolve()
/// } catch {
///     print(error)   // Syringe: no registration for NetworkServiceProtocol …
/// }
/// ```
public struct ResolutionError: Error, CustomStringConvertible, @unchecked Sendable {
    /// What went wrong.
    public enum Reason: @unchecked Sendable {
        /// Nothing is registered for the requested key.
        case missing
        /// The registration (indirectly) needs itself; the keys of the loop, first repeated last.
        case cycle([String])
        /// The resolution path grew beyond 200 frames: a registration with arguments resolving
        /// itself without end, or a chain of registrations that long.
        case tooDeep
        /// The factory threw an error of its own.
        case factoryFailed(any Error)
        /// A `.weak` or weakly scoped registration built a value that is not a class instance.
        case notAClass(lifetime: String)
        /// The built instance is not of the requested type (an `.implements` or cast that does not hold).
        case notConvertible(from: Any.Type)
        /// A main-actor-bound registration was resolved off the main actor.
        case offMainActor
        /// A registration whose factory may yield no value produced nil (`optional()` and
        /// `@OptionalInject` give nil instead).
        case producedNil
        /// The resolution reached a point where the program stops with this message (a
        /// `@LazyInject` cycle, a `@WeakInject` of a value type); only ``Resolver/verify(skipping:providing:isolation:)``
        /// reports it as an error.
        case stopped(String)
    }

    /// What went wrong.
    public let reason: Reason
    /// The key that failed, e.g. `APIClient qualified by Staging`.
    public let requested: String
    /// The resolution path, outermost first, ending with the requested key.
    public private(set) var path: [String]
    /// The name of the container resolved from.
    public let container: String
    /// Near matches and the fix, one per line.
    public let suggestions: [String]
    /// Where the value was asked for, as `Module/File.swift:12` (the file's `#fileID`): the line
    /// of the `resolve`, `optional`, `tryResolve` or `resolveAll` call or of the property
    /// wrapper's declaration; for a dependency further down the path, the line in the registration
    /// that asked for it (the `autoregister` call, for an autowired initializer). A stop is
    /// reported at that line. Nil when Syringe itself asked (``Resolver/verify(skipping:providing:isolation:)`` building a
    /// registration, say).
    public var site: String? { location?.description }
    /// Where the value was asked for; a stop is reported there.
    private(set) var location: SourceLocation?
    /// The key that failed, for the message.
    let key: Key
    /// The resolution path as keys, outermost first (without `key`), for the message.
    private(set) var pathKeys: [Key]

    /// The error a factory threw, if that is the reason.
    public var underlyingError: (any Error)? {
        if case .factoryFailed(let error) = reason { return error }
        return nil
    }

    // Out of line: it runs only on failure, and inlined into the resolution frames that can
    // throw it, its code slowed every resolution (named ones by about 10%).
    @inline(never)
    init(
        _ reason: Reason, key: Key, path: [Key], container: Resolver, site: SourceLocation?,
        suggestions: [String] = [], requestedTypeName: String? = nil
    ) {
        self.reason = reason
        requested = requestedTypeName.map(key.description(typeName:)) ?? key.description
        var keys = path.map(\.shortDescription)
        if keys.last != key.shortDescription || path.isEmpty { keys.append(key.shortDescription) }
        self.path = keys
        self.container = container.name
        self.suggestions = suggestions
        location = site
        self.key = key
        pathKeys = path
    }

    public var description: String {
        Messages.describe(self)
    }

    /// The same failure, reached through `prefix` first: what a `@LazyInject` property asks for,
    /// checked by `verify()` apart from the object that declares it.
    func prefixed(by prefix: [Key]) -> ResolutionError {
        guard !prefix.isEmpty else { return self }
        var error = self
        error.pathKeys = prefix + pathKeys
        error.path = prefix.map(\.shortDescription) + path
        return error
    }

    /// This error, asked for at `site` if it does not know where it was asked for (a factory
    /// threw it).
    @inline(never)
    func locatedIfUnknown(at site: SourceLocation?) -> ResolutionError {
        guard location == nil else { return self }
        var located = self
        located.location = site
        return located
    }
}

extension ResolutionError.Reason {
    static func cycle(of keys: [Key]) -> Self { .cycle(keys.map(\.shortDescription)) }
}
