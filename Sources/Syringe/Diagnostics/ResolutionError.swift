/// Why a resolution failed: what was asked for, the path that led there, the container,
/// and what to do about it.
///
/// `resolve()` stops the program with this error's ``description``, reported at the line that
/// began the resolution; `tryResolve()` throws it.
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
        /// The registration has an `async` factory and no instance kept for this resolution: only
        /// `resolveAsync()` builds it.
        case asyncFactory
        /// A registration whose factory may yield no value produced nil (`optional()` and
        /// `@OptionalInject` give nil instead).
        case producedNil
        /// The resolution reached a point where the program stops with this message (a
        /// `@LazyInject` cycle, a `@WeakInject` of a value type); only
        /// ``Resolver/verify(skipping:providing:isolation:)``
        /// reports it as an error.
        case stopped(String)
    }

    /// The failure, kept behind one reference: the error is thrown through every frame of a
    /// resolution path, and a pointer-sized error keeps those frames small. It holds keys, not
    /// text: the text is written when it is read, after the stack has unwound (a too-deep error is
    /// made where little stack is left, and naming a type can take much of it the first time).
    private final class Details: @unchecked Sendable {
        let reason: Reason
        let key: Key
        /// The resolution path before `key`, outermost first.
        let pathKeys: [Key]
        /// Whether the path ends with `key` (the failure happened inside its own build).
        let endsWithKey: Bool
        let requestedTypeName: String?
        let container: String
        let suggestions: [String]
        let location: SourceLocation?
        /// The key `.implements` wrote that the failing registration served, if it was asked for
        /// through one: an Optional request of it gives nil when the registration yields nil.
        let askedAs: Key?
        /// Whether an `initCompleted` step threw the error, not the factory.
        let isStepFailure: Bool

        init(
            _ reason: Reason, key: Key, pathKeys: [Key], endsWithKey: Bool, requestedTypeName: String?,
            container: String, suggestions: [String], location: SourceLocation?, askedAs: Key? = nil,
            isStepFailure: Bool = false
        ) {
            self.reason = reason
            self.key = key
            self.pathKeys = pathKeys
            self.endsWithKey = endsWithKey
            self.requestedTypeName = requestedTypeName
            self.container = container
            self.suggestions = suggestions
            self.location = location
            self.askedAs = askedAs
            self.isStepFailure = isStepFailure
        }

        func with(
            location: SourceLocation? = nil, prefix: [Key] = [], dropping dropped: Int = 0, askedAs: Key? = nil
        ) -> Details {
            Details(
                reason, key: key, pathKeys: prefix + pathKeys.dropFirst(dropped), endsWithKey: endsWithKey,
                requestedTypeName: requestedTypeName, container: container, suggestions: suggestions,
                location: location ?? self.location, askedAs: askedAs ?? self.askedAs, isStepFailure: isStepFailure)
        }
    }

    private let details: Details

    /// What went wrong.
    public var reason: Reason { details.reason }
    /// The key that failed, e.g. `APIClient qualified by Staging`.
    public var requested: String { details.requestedTypeName.map(key.description(typeName:)) ?? key.description }
    /// The resolution path, outermost first, ending with the requested key.
    public var path: [String] {
        (details.endsWithKey ? pathKeys : pathKeys + [key]).map(\.shortDescription)
    }
    /// The name of the container resolved from.
    public var container: String { details.container }
    /// Near matches and the fix, one per line.
    public var suggestions: [String] { details.suggestions }
    /// Where the value was asked for, as `Module/File.swift:12` (the file's `#fileID`): the line
    /// of the `resolve`, `optional`, `tryResolve` or `resolveAll` call or of the property
    /// wrapper's declaration; for a dependency further down the path, the line in the registration
    /// that asked for it (the `autoregister` call, for an autowired initializer). A stop is
    /// reported at the line that began the resolution (the outermost call), which is this one
    /// unless the failure was found further down. Nil when Syringe itself asked
    /// (``Resolver/verify(skipping:providing:isolation:)`` building a registration, say).
    public var site: String? { location?.description }
    /// Where the value was asked for.
    var location: SourceLocation? { details.location }
    /// The key that failed, for the message.
    var key: Key { details.key }
    /// The resolution path as keys, outermost first (without `key` unless the failure happened
    /// inside its build), for the message.
    var pathKeys: [Key] { details.pathKeys }

    /// The error a factory threw, if that is the reason.
    public var underlyingError: (any Error)? {
        if case .factoryFailed(let error) = reason { return error }
        return nil
    }

    // Out of line: it runs only on failure, and inlined into the resolution frames that can
    // throw it, its code slowed every resolution.
    @inline(never)
    init(
        _ reason: Reason, key: Key, path: [Key], container: Resolver, site: SourceLocation?,
        suggestions: [String] = [], requestedTypeName: String? = nil, isStepFailure: Bool = false
    ) {
        details = Details(
            reason, key: key, pathKeys: path, endsWithKey: !path.isEmpty && path.last == key,
            requestedTypeName: requestedTypeName, container: container.name, suggestions: suggestions, location: site,
            isStepFailure: isStepFailure)
    }

    /// What a factory (or, `inStep`, an `initCompleted` step) threw, as the failure of building
    /// `key`: a resolution error of its own (one of its dependencies), asked for at `site` unless it
    /// knows where, or the factory's or step's own error.
    @inline(never)
    init(_ error: any Error, key: Key, path: [Key], container: Resolver, site: SourceLocation?, inStep: Bool = false) {
        guard let error = error as? ResolutionError else {
            self.init(
                .factoryFailed(error), key: key, path: path, container: container, site: site, isStepFailure: inStep)
            return
        }
        self = error.locatedIfUnknown(at: site)
    }

    private init(details: Details) {
        self.details = details
    }

    /// What the engine throws when nothing is registered for the key asked: the caller makes the
    /// missing-registration error (with near matches) only where it needs one, so `optional()` of an
    /// unregistered key builds none.
    static let notRegistered = ResolutionError(
        details: Details(
            .missing, key: Key(Never.self), pathKeys: [], endsWithKey: false, requestedTypeName: nil, container: "",
            suggestions: [], location: nil))

    var isNotRegistered: Bool { details === Self.notRegistered.details }

    /// Whether an `initCompleted` step threw the error (``Reason/factoryFailed(_:)``), not the factory.
    var isStepFailure: Bool { details.isStepFailure }

    public var description: String {
        Messages.describe(self)
    }

    /// The same failure, reached through `prefix` first: what a `@LazyInject` property asks for,
    /// checked by `verify()` apart from the object that declares it.
    func prefixed(by prefix: [Key]) -> ResolutionError {
        prefix.isEmpty ? self : ResolutionError(details: details.with(prefix: prefix))
    }

    /// The same failure as another caller of a shared build meets it: that caller's own `path` leads
    /// to the build instead of the first `dropped` keys (the path of the caller that started it),
    /// and its `site` replaces that caller's (`replaced`).
    func rebased(
        dropping dropped: Int, onto path: [Key], site: SourceLocation?, replacing replaced: SourceLocation?
    ) -> ResolutionError {
        let location = location == replaced ? site : location
        return ResolutionError(details: details.with(location: location, prefix: path, dropping: dropped))
    }

    /// This error, asked for at `site` if it does not know where it was asked for (a factory
    /// threw it).
    func locatedIfUnknown(at site: SourceLocation?) -> ResolutionError {
        location != nil || site == nil ? self : ResolutionError(details: details.with(location: site))
    }
}

extension ResolutionError {
    /// Whether this is the registration of `requested` itself producing nil, asked for at `depth`
    /// (not one of its dependencies doing so further down).
    func yieldsNothing(for requested: Key, atDepth depth: Int) -> Bool {
        guard case .producedNil = reason else { return false }
        return (details.askedAs ?? key) == requested && path.count == depth + 1
    }

    /// The same failure, of the registration that served `key`, a key `.implements` wrote.
    func asked(as key: Key) -> ResolutionError {
        ResolutionError(details: details.with(askedAs: key))
    }
}

extension ResolutionError.Reason {
    var isAsyncFactory: Bool {
        if case .asyncFactory = self { return true }
        return false
    }

    static func cycle(of keys: [Key]) -> Self { .cycle(keys.map(\.shortDescription)) }
}

/// Stops the program with a resolution error's message, reported at the line that began the
/// resolution: the outermost `resolve()`, `optional()` or `resolveAll()` call (or property wrapper)
/// in progress on this thread, else `site`, the call that failed. The message names the line that
/// asked for what failed (``ResolutionError/site``), when that is another. In a `verify()` run,
/// the run records the error instead.
func trap(_ error: ResolutionError, calledAt site: SourceLocation? = nil) -> Never {
    let resolution = Resolution.current
    resolution.stopIfVerifying(error)
    stop(error.description, at: resolution.outermostSite ?? site ?? error.location)
}

/// Stops the program with `message`, reported at `site` (as `Module/File.swift:12: Fatal error: …`)
/// when it is known. In a `verify()` run, a stop while resolving a `type` is recorded as a
/// ``ResolutionError/Reason/stopped(_:)`` failure instead.
func stop(_ message: String, resolving type: Any.Type? = nil, at site: SourceLocation?) -> Never {
    if let type {
        let resolution = Resolution.current
        if resolution.verification != nil {
            resolution.stopIfVerifying(
                ResolutionError(
                    .stopped(message), key: Key(type), path: resolution.path,
                    container: resolution.container ?? resolution.verification!.sandbox, site: site))
        }
    }
    guard let site else { fatalError(message) }
    fatalError(message, file: site.file, line: site.line)
}
