/// ``Lifetime/cached(in:)``: one instance kept strongly in a named cache, which
/// `dropCached(scopedTo:)` empties at once. The cache is not part of the key.
final class NamedCacheStore<T>: SingletonStore<T> {
    private let cache: any Scope.Type

    init(cache: any Scope.Type) {
        self.cache = cache
    }

    override func makeIsolatedCopy() -> InstanceStore<T>? { NamedCacheStore(cache: cache) }

    override var lifetimeDescription: String { "cached in \(typeName(cache))" }
    override var scope: ObjectIdentifier? { ObjectIdentifier(cache) }
}
