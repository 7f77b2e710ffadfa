#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Main-actor-bound registrations

extension Resolver {
    /// Registers a factory that must run on the main actor, for `@MainActor` types such as
    /// view models. Resolving it from another thread fails with Syringe's message (a thrown
    /// ``ResolutionError`` from `tryResolve`, a stop with the same text from `resolve`)
    /// instead of the runtime's isolation trap.
    ///
    /// ```swift
    /// @MainActor final class AssetListViewModel { @Inject var service: AssetService }
    ///
    /// Resolver.registerMainActor { AssetListViewModel() }
    ///
    /// @MainActor func showAssets() {
    ///     let model: AssetListViewModel = Resolver.resolve()
    /// }
    /// ```
    @discardableResult
    public func registerMainActor<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () -> T
    ) -> Registration<T> {
        let key = Key(T.self, qualifier: qualifier, name: name)
        return register(T.self, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line) {
            resolver in
            guard ThreadState.current.callerIsOnMainActor || isMainThread() else {
                let state = ThreadState.current
                throw ResolutionError(
                    .offMainActor, key: key, path: Array(state.path.dropLast()), container: resolver,
                    site: state.innermostFrame?.site)
            }
            // On the main thread the main actor's executor is the current one, so calling the
            // main-actor function synchronously is what `MainActor.assumeIsolated` does.
            let body = unsafeBitCast(factory, to: (() -> T).self)
            return body()
        }
    }

    /// Registers, in ``current``, a factory that must run on the main actor.
    ///
    /// ```swift
    /// Resolver.registerMainActor { AssetListViewModel() }
    /// ```
    @discardableResult
    public static func registerMainActor<T>(
        _ type: T.Type = T.self,
        qualifiedBy qualifier: (any Qualifier.Type)? = nil,
        name: String? = nil,
        lifetime: Lifetime? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor () -> T
    ) -> Registration<T> {
        current.registerMainActor(
            type, qualifiedBy: qualifier, name: name, lifetime: lifetime, file: file, line: line, factory: factory)
    }
}

/// Whether the calling thread is the process's main thread (where the main actor runs).
func isMainThread() -> Bool {
    #if canImport(Darwin)
        return pthread_main_np() != 0
    #else
        // On Linux the main thread's thread id is the process id.
        return getpid() == linuxThreadID()
    #endif
}

#if !canImport(Darwin)
    /// glibc's and musl's `gettid()` (Linux 2.4.11+), which the C module does not import.
    @_silgen_name("gettid")
    private func linuxThreadID() -> pid_t
#endif

/// Notes, for the length of a resolve call, that its caller is isolated to the main actor.
///
/// The resolve entry points take `isolation: (any Actor)? = #isolation`, so the compiler
/// tells them where they are called from; a main-actor-bound factory further down the
/// (synchronous) resolution reads the note. This works on every platform, also where the
/// main actor does not run on the process's main thread.
struct MainActorMark {
    private let state: ThreadState?
    private let previous: Bool

    @inline(__always)
    init(_ isolation: (any Actor)?) {
        guard let isolation, isolation === MainActor.shared else {
            state = nil
            previous = false
            return
        }
        let state = ThreadState.current
        self.state = state
        previous = state.callerIsOnMainActor
        state.callerIsOnMainActor = true
    }

    @inline(__always)
    func end() {
        state?.callerIsOnMainActor = previous
    }
}
