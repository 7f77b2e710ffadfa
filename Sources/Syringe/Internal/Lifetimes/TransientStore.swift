/// ``Lifetime/transient``: nothing is kept; every resolution builds.
final class TransientStore<T>: InstanceStore<T> {
    init() {
        super.init(buildsOnce: false, keepsInstances: false, isTransient: true)
    }

    override var lifetimeDescription: String { "transient" }
}
