/// A registration whose type does not tell whether its instances conform to ``Singleton`` (a
/// protocol, a non-final class): the first instance decides, once, for every thread.
///
/// It builds once like a singleton, so racing first resolutions wait for the first instance
/// instead of each building one. If that instance is a `Singleton`, the registration keeps it
/// as one from then on; otherwise the registration's own lifetime takes over, first instance
/// included.
final class SingletonProbeStore<T>: InstanceStore<T> {
    /// The lifetime the registration asked for.
    private let chosen: InstanceStore<T>
    /// The store the first instance decided on. Threads that waited for the first build read
    /// through it before the registration's store is replaced. Lock held.
    private var decided: InstanceStore<T>?

    init(_ chosen: InstanceStore<T>) {
        self.chosen = chosen
        super.init(buildsOnce: true, keepsInstances: chosen.keepsInstances)
    }

    override func cachedLocked(_ state: ThreadState) -> T? {
        decided?.cachedLocked(state)
    }

    override func keep(_ value: T, for request: Request, leftovers: inout Leftovers) -> InstanceStore<T>? {
        if let decided { return decided.keep(value, for: request, leftovers: &leftovers) ?? decided }
        let store: InstanceStore<T> = value is any Singleton ? SingletonStore() : chosen
        decided = store
        return store.keep(value, for: request, leftovers: &leftovers) ?? store
    }

    override var isIsolatable: Bool { true }

    override func makeIsolatedCopy() -> InstanceStore<T>? {
        SingletonProbeStore(chosen.makeIsolatedCopy() ?? chosen)
    }

    override var lifetimeDescription: String { chosen.lifetimeDescription }
    override var scope: ObjectIdentifier? { chosen.scope }
    override var isWeaklyScoped: Bool { chosen.isWeaklyScoped }
}
