/// An `initCompleted` step waiting for the outermost resolution to finish building.
///
/// Steps run once the whole graph of the outermost resolution is built, in the order the
/// instances were built, so that two instances can point at each other when one side is set in its
/// step. Until its step has run, an instance that is shared (a singleton, say) is seen only by the
/// thread building it (``Resolution/provisional``); other threads wait for it as for any instance
/// being built. If the resolution fails, nothing pending is published.
struct PendingCompletion {
    /// The registration's frame, for the path while the step runs, and where it runs.
    let frame: Frame
    let container: Resolver
    let run: () throws -> Void
    /// Publishes the instance (when every step succeeded) or gives it up.
    let settle: (_ succeeded: Bool) -> Void
}

extension Resolution {
    /// Queues the `initCompleted` steps of a new instance built in `frame`.
    func enqueueCompletion<T>(
        _ frame: Frame, in container: Resolver, value: T, step: @escaping (Resolver, T) throws -> Void,
        settle: @escaping (Bool) -> Void
    ) {
        pendingCompletions.append(
            PendingCompletion(frame: frame, container: container, run: { try step(container, value) }, settle: settle))
    }

    /// Runs every pending step, also those that the steps' own resolutions add, then publishes the
    /// instances. Called by the outermost frame, still in progress.
    func runPendingCompletions() throws(ResolutionError) {
        var index = 0
        while index < pendingCompletions.count {
            let step = pendingCompletions[index]
            var frame = step.frame
            frame.isStep = true
            enter(frame, in: step.container)
            do {
                try step.run()
            } catch {
                let failure = ResolutionError(
                    error, key: step.frame.provider.key, path: path, container: step.container, site: step.frame.site,
                    inStep: true)
                leave()
                settlePendingCompletions(succeeded: false)
                throw failure
            }
            leave()
            index += 1
        }
        settlePendingCompletions(succeeded: true)
    }

    /// Publishes or gives up every pending instance.
    func settlePendingCompletions(succeeded: Bool) {
        let steps = pendingCompletions
        pendingCompletions.removeAll()
        for step in steps { step.settle(succeeded) }
    }
}
