/// ``Lifetime/timeToLive(_:)``: one instance, built again on the first resolution after it
/// has lived `duration`. The expiry is checked on every resolution, so the fast path never
/// reads it directly.
final class TimeToLiveStore<T>: InstanceStore<T> {
    private let duration: Duration
    private var slot = StrongSlot<T>()
    private var expiry = ContinuousClock.Instant.now

    init(duration: Duration) {
        self.duration = duration
        super.init(buildsOnce: true, keepsInstances: true)
    }

    deinit {
        slot.destroy()
    }

    override func cachedLocked(_ state: ThreadState) -> T? {
        guard slot.isFilled, ContinuousClock.now < expiry else { return nil }
        return slot.value
    }

    override func keep(_ value: T, for request: Request, leftovers: inout Leftovers) -> InstanceStore<T>? {
        slot.fill(value, leftovers: &leftovers)
        expiry = ContinuousClock.now.advanced(by: duration)
        return nil
    }

    override func drop(into leftovers: inout Leftovers) {
        slot.empty(into: &leftovers)
    }

    override var isIsolatable: Bool { true }

    override func makeIsolatedCopy() -> InstanceStore<T>? { TimeToLiveStore(duration: duration) }

    override var lifetimeDescription: String { "time to live \(duration)" }

    override var keptInstance: Any? { slot.value }
}
