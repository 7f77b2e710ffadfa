/// What a property wrapper asks for, and where it was declared.
struct InjectionRequest: @unchecked Sendable {
    private(set) var key: Key
    /// An explicit container, or nil for the one current when the enclosing object is created.
    let container: Resolver?
    let site: SourceLocation
    /// Whether the enclosing object is created in main-actor-isolated code.
    var isOnMainActor: Bool

    init(
        _ type: Any.Type, scope: (any Scope.Type)? = nil, qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil, container: Resolver?, isolation: (any Actor)?, file: StaticString, line: UInt
    ) {
        key = Key(type, qualifier: qualifier, scope: scope, name: name)
        self.container = container
        site = SourceLocation(file: file, line: line)
        isOnMainActor = isolation.map { $0 === MainActor.shared } ?? false
    }

    /// The container to resolve from: the explicit one, else the current one.
    func resolver() -> Resolver { container ?? Resolver.current }

    /// Resolves under `name` from now on.
    mutating func rename(_ name: String?) {
        key = Key(key.type, qualifier: key.qualifier, scope: key.scope, name: name)
    }

    /// The isolation to report to a main-actor-bound registration.
    var isolation: (any Actor)? { isOnMainActor ? MainActor.shared : nil }

    /// The request for a resolution that happens later (a `@LazyInject` property's first read):
    /// where the object was created says nothing about where it is read, so only the read's own
    /// context counts (the resolution in progress on its thread, or the main thread or queue).
    var deferred: InjectionRequest {
        var request = self
        request.isOnMainActor = false
        return request
    }

    func resolve<T>(in resolver: Resolver) -> T {
        Resolver.resolveOrTrap(key, from: resolver, site: site, isolation: isolation)
    }

    func optional<T>(in resolver: Resolver) -> T? {
        do {
            return try resolver.resolveIfRegistered(key, site: site, isolation: isolation)
        } catch {
            trap(error, calledAt: site)
        }
    }
}
