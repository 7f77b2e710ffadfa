/// `registerSingleton(_:)`: an instance given at registration, shared by every container that
/// reaches the registration (test containers included) and never dropped.
final class FixedInstanceStore<T>: InstanceStore<T> {
    private var slot = StrongSlot<T>()

    init(_ instance: T) {
        super.init(buildsOnce: true, keepsInstances: true)
        // Not yet shared with any other thread: no lock, nothing to release.
        var nothing = Leftovers()
        slot.fill(instance, leftovers: &nothing)
    }

    deinit {
        slot.destroy()
    }

    override func cachedLocked(_ state: ThreadState) -> T? { slot.value }

    override var strongSlot: UnsafeRawPointer? { slot.raw }

    override var lifetimeDescription: String { "singleton (instance)" }

    override var keptInstance: Any? { slot.value }
}
