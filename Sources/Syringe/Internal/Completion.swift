/// `initCompleted` steps: run after an instance is built and before the outermost resolution
/// returns, so that two instances can point at each other when one side is set in its step.
///
/// A step runs once the whole graph of the outermost resolution is built, in the order the
/// instances were built. Until its step has run, an instance that shares one (a singleton, say)
/// is seen only by the thread building it (``ThreadState/provisional``): other threads wait for
/// it as for any instance being built, and never see it half set up. If the resolution fails,
/// the pending instances are dropped and nothing is published.
struct PendingCompletion {
    /// The registration's key and provider, for the resolution path while the step runs.
    let key: Key
    let provider: AnyBinding
    /// Runs the step.
    let complete: () throws(ResolutionError) -> Void
    /// Publishes the instance (when the step succeeded) or gives it up.
    let settle: (_ succeeded: Bool) -> Void
}

extension ThreadState {
    /// Runs every pending step, also those that the steps' own resolutions add, then publishes
    /// the instances. Called by the outermost frame, still in progress.
    func runPendingCompletions() throws(ResolutionError) {
        var index = 0
        do throws(ResolutionError) {
            while index < pendingCompletions.count {
                let step = pendingCompletions[index]
                push(Frame(key: step.key, provider: step.provider, site: nil))
                defer { pop() }
                try step.complete()
                index += 1
            }
        } catch {
            settlePendingCompletions(succeeded: false)
            throw error
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

extension Provider {
    /// Queues the `initCompleted` step for a new instance.
    func enqueueCompletion(
        _ step: @escaping (Resolver, T) throws -> Void, for value: T, request: Request,
        settle: @escaping (Bool) -> Void = { _ in }
    ) {
        let container = request.factoryContainer
        let state = request.state
        let key = request.key
        let site = request.site
        state.pendingCompletions.append(
            PendingCompletion(
                key: key, provider: self,
                complete: { () throws(ResolutionError) in
                    do {
                        try step(container, value)
                    } catch let error as ResolutionError {
                        throw error
                    } catch {
                        throw ResolutionError(
                            .factoryFailed(error), key: key, path: state.path, container: container, site: site)
                    }
                }, settle: settle))
    }
}
