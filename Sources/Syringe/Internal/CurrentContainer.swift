/// Resolving from ``Resolver/current``: the container of the innermost resolution in progress
/// or synchronous `withContainer` body on this thread, else the task's binding, else
/// ``Resolver/root``.
extension Resolver {
    /// Resolves `key` from ``current``, or stops the program with the resolution error.
    ///
    /// The common case (a strongly cached instance) takes one lock acquisition and no
    /// reference counting beyond the returned value's.
    @inline(__always)
    static func resolveFromCurrent<T>(_ key: Key, site: SourceLocation?, isolation: (any Actor)? = nil) -> T {
        ThreadState.withCurrent { state in resolveFromCurrent(key, site: site, isolation: isolation, state: state) }
    }

    @inline(__always)
    private static func resolveFromCurrent<T>(
        _ key: Key, site: SourceLocation?, isolation: (any Actor)?, state: ThreadState
    ) -> T {
        registryLock.lockRead(stripe: state.stripe)
        let globals = Globals.state
        let container: Unmanaged<Resolver>?
        if let inner = state.containerReference {
            container = inner
        } else if globals.pointee.bindingCount == 0 {
            // No binding exists, so no task can see one.
            container = globals.pointee.root
        } else {
            container = nil  // a task-local binding may apply: read it off the fast path
        }
        let found = container?._withUnsafeGuaranteedRef { $0.quickFindLocked(key, state: state) } ?? .general
        if case .cached(let slot) = found {
            let value = slot.assumingMemoryBound(to: T.self).pointee
            registryLock.unlockRead(stripe: state.stripe)
            return value
        }
        return resolveFromCurrentSlowlyLocked(
            key, found: found, site: site, container: container, state: state, isolation: isolation)
    }

    /// The rest of ``resolveFromCurrent(_:site:isolation:)``, entered with the read lock held,
    /// which it releases. Kept out of line so that the fast path pays nothing for what this needs.
    @inline(never)
    private static func resolveFromCurrentSlowlyLocked<T>(
        _ key: Key, found: QuickFind, site: SourceLocation?, container: Unmanaged<Resolver>?, state: ThreadState,
        isolation: (any Actor)?
    ) -> T {
        let mark = MainActorMark(isolation)
        defer { mark.end() }
        do {
            guard let container else {
                registryLock.unlockRead(stripe: state.stripe)
                return try current.resolveOrThrow(key, site: site)
            }
            // Retained while the lock is held: once it is released, `root` could be replaced and freed.
            let resolver = container.takeUnretainedValue()
            return try resolver.resolveSlowlyLocked(key, found: found, arguments: .none, site: site, state: state)
        } catch {
            trap(error)
        }
    }
}
