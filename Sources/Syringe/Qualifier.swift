/// Marks a type that selects one of several registrations of the same type.
///
/// Qualifiers are usually caseless enums:
///
/// ```swift
/// enum Staging: Qualifier {}
///
/// Resolver.register(qualifiedBy: Staging.self) { APIClient(url: stagingURL) }
/// let api: APIClient = Resolver.resolve(qualifiedBy: Staging.self)
/// @Inject(Staging.self) var stagingAPI: APIClient
/// ```
/// - SeeAlso: ``Scope``
public protocol Qualifier {}
