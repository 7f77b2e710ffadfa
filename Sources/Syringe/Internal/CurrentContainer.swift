/// Resolving from ``Resolver/current``: the container of the innermost resolution in progress
/// or `withContainer` body on this thread, else the task-local binding, else ``Resolver/root``.
extension Resolver {
    /// Resolves `key` from ``current``, or stops the program with the resolution error.
    ///
    /// The common case (a strongly cached instance) takes one lock acquisition and no
    /// reference counting beyond the returned value's.
    @inline(__always)
    static func resolveFromCurrent<T>(_ key: Key, site: SourceLocation? = nil, isolation: (any Actor)? = nil) -> T {
        ThreadState.withCurrent { state in resolveFromCurrent(key, site: site, isolation: isolation, state: state) }
    }

    @inline(__always)
    private static func resolveFromCurrent<T>(
        _ key: Key, site: SourceLocation?, isolation: (any Actor)?, state: ThreadState
    ) -> T {
        // A task's binding is read on every call: a `Task {}` started inside `withContainer`
        // keeps it after the body returned, whatever other threads do.
        let bound = state.containerReference == nil ? Resolver.bound : nil
        return withExtendedLifetime(bound) {
            registryLock.lockRead(stripe: state.stripe)
            let container =
                state.containerReference ?? bound.map { Unmanaged.passUnretained($0) } ?? Globals.state.pointee.root
            if let slot = container._withUnsafeGuaranteedRef({ $0.cachedSlotLocked(key, state: state) }) {
                let value = slot.assumingMemoryBound(to: T.self).pointee
                registryLock.unlockRead(stripe: state.stripe)
                return value
            }
            return resolveFromCurrentSlowlyLocked(
                key, site: site, container: container, state: state, isolation: isolation)
        }
    }

    /// The rest of ``resolveFromCurrent(_:site:isolation:)``, entered with the read lock held,
    /// which it releases. Kept out of line so that the fast path pays nothing for what this needs.
    @inline(never)
    private static func resolveFromCurrentSlowlyLocked<T>(
        _ key: Key, site: SourceLocation?, container: Unmanaged<Resolver>, state: ThreadState,
        isolation: (any Actor)?
    ) -> T {
        let mark = MainActorMark(isolation)
        defer { mark.end() }
        // Retained while the lock is held: once it is released, `root` could be replaced and freed.
        let resolver = container.takeUnretainedValue()
        do {
            let value: T? = try resolver.resolveSlowlyLocked(
                key, arguments: .none, site: site, state: state, misses: .fails)
            return value.unsafelyUnwrapped
        } catch {
            trap(error)
        }
    }
}
