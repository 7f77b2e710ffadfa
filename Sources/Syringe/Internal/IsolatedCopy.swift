/// A test container's own copy of a registration's store.
class AnyIsolatedCopy {
    /// The registration, kept alive so that its identity (the copy's key) cannot be reused
    /// by a newer registration while the copy exists.
    let provider: AnyBinding

    init(provider: AnyBinding) { self.provider = provider }

    /// Whether the copy keeps nothing (a weak instance that died, or nothing built yet). Lock held.
    var isEmpty: Bool { fatalError("abstract") }
}

final class IsolatedCopy<T>: AnyIsolatedCopy {
    /// Lock held.
    var store: InstanceStore<T>
    /// The registration's ``Provider/storeGeneration`` the copy was made for.
    let generation: Int

    init(provider: Provider<T>, store: InstanceStore<T>, generation: Int) {
        self.store = store
        self.generation = generation
        super.init(provider: provider)
    }

    override var isEmpty: Bool { store.keptInstance == nil }
}
