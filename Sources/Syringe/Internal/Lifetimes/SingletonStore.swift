/// ``Lifetime/singleton``: one instance, kept strongly until dropped or the store goes.
///
/// The base of every lifetime that keeps one instance strongly (strong scopes, named caches),
/// which differ only in the scope they answer to.
class SingletonStore<T>: InstanceStore<T> {
    private var slot = StrongSlot<T>()

    init() {
        super.init(buildsOnce: true, keepsInstances: true)
    }

    deinit {
        slot.destroy()
    }

    override func cachedLocked(_ state: ThreadState) -> T? { slot.value }

    override func keep(_ value: T, for request: Request, leftovers: inout Leftovers) -> InstanceStore<T>? {
        slot.fill(value, leftovers: &leftovers)
        return nil
    }

    override func drop(into leftovers: inout Leftovers) {
        slot.empty(into: &leftovers)
    }

    override var strongSlot: UnsafeRawPointer? { slot.raw }

    override var isIsolatable: Bool { true }

    override func makeIsolatedCopy() -> InstanceStore<T>? { SingletonStore() }

    override var lifetimeDescription: String { "singleton" }

    override var keptInstance: Any? { slot.value }
}
