#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Resolver {
    /// Where the process runs, as a registration's context factories (`.onTest`, `.onPreview`,
    /// `.onDebug`, `.onArgument`, …) see it: decided once per process (``process``), and changed for
    /// one container and its children by setting ``Resolver/context``.
    ///
    /// ```swift
    /// resolver.register { LiveAPI() as API }
    ///     .onTest { MockAPI() as API }
    ///     .onArgument("-mockAPI") { MockAPI() as API }
    /// ```
    public struct Context: Sendable, Hashable, CustomStringConvertible {
        /// The process's arguments (`CommandLine.arguments`), which `.onArgument` factories look for.
        public var arguments: [String]
        /// Whether the process is a SwiftUI preview (`XCODE_RUNNING_FOR_PREVIEWS=1`).
        public var isPreview: Bool
        /// Whether the process runs tests: XCTest or Swift Testing is loaded.
        public var isTest: Bool
        /// Whether the process runs in a simulator (`targetEnvironment(simulator)`); `.onDevice`
        /// factories apply when it does not.
        public var isSimulator: Bool
        /// Whether Syringe was built for debugging (`DEBUG`, as the app's debug configuration builds
        /// its packages).
        public var isDebug: Bool

        public init(
            arguments: [String] = [], isPreview: Bool = false, isTest: Bool = false, isSimulator: Bool = false,
            isDebug: Bool = false
        ) {
            self.arguments = arguments
            self.isPreview = isPreview
            self.isTest = isTest
            self.isSimulator = isSimulator
            self.isDebug = isDebug
        }

        /// The context of this process, decided the first time it is read.
        public static let process = Context(
            arguments: CommandLine.arguments, isPreview: environment("XCODE_RUNNING_FOR_PREVIEWS") == "1",
            isTest: runsTests, isSimulator: isSimulatorBuild, isDebug: isDebugBuild)

        /// What holds, for messages: `test, debug`, or `live` when nothing does.
        public var description: String {
            let holding =
                [isPreview ? "preview" : nil, isTest ? "test" : nil, isSimulator ? "simulator" : nil]
                .compactMap { $0 } + (isDebug ? ["debug"] : [])
            return holding.isEmpty ? "live" : holding.joined(separator: ", ")
        }
    }

    /// The context this container's registrations build in: the one set here, else its parent's,
    /// else ``Context/process``. Setting it changes this container and its children only, so that a
    /// test can pretend a launch argument or a preview in its own container while tests in parallel
    /// keep theirs.
    ///
    /// ```swift
    /// @Test(.isolatedResolver) func mockedAPI() {
    ///     Resolver.current.context.arguments.append("-mockAPI")
    ///     let api: API = Resolver.resolve()   // the `.onArgument("-mockAPI")` factory's
    /// }
    /// ```
    ///
    /// A shared instance is built in the context of the container that keeps it: a singleton of a
    /// parent's registration, in the parent's (a test container keeps its own, in its own). Set
    /// the context before resolving: what a container kept is not built again.
    public var context: Context {
        get {
            _ = Context.process  // decided before the lock: it asks the dynamic loader
            return registryLock.withReadLock(Resolution.current.stripe) { contextLocked }
        }
        set { registryLock.withWriteLock { _ in ownContext = newValue } }
    }

    /// ``context``. Lock held.
    var contextLocked: Context {
        var container: Resolver? = self
        while let current = container {
            if let context = current.ownContext { return context }
            container = current.parent
        }
        return .process
    }
}

/// A context a registration has a factory of its own for, in the order a choice between several
/// that hold is made: the first wins (Factory's order).
enum ContextCase: Hashable, CustomStringConvertible {
    case argument(String), preview, test, simulator, device, debug

    /// The place in the order: the lower wins.
    var rank: Int {
        switch self {
        case .argument: 0
        case .preview: 1
        case .test: 2
        case .simulator, .device: 3
        case .debug: 4
        }
    }

    func holds(in context: Resolver.Context) -> Bool {
        switch self {
        case .argument(let argument): context.arguments.contains(argument)
        case .preview: context.isPreview
        case .test: context.isTest
        case .simulator: context.isSimulator
        case .device: !context.isSimulator
        case .debug: context.isDebug
        }
    }

    var description: String {
        switch self {
        case .argument(let argument): "argument \(argument)"
        case .preview: "preview"
        case .test: "test"
        case .simulator: "simulator"
        case .device: "device"
        case .debug: "debug"
        }
    }
}

/// Whether XCTest or Swift Testing is loaded in this process.
private let runsTests: Bool = {
    let symbols = ["swt_abiv0_getEntryPoint", "$s6XCTest0A4CaseCN", "OBJC_CLASS_$_XCTestCase"]
    guard let process = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(process) }
    return symbols.contains { dlsym(process, $0) != nil }
        || environment("XCTestConfigurationFilePath") != nil || environment("XCTestBundlePath") != nil
}()

private func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

#if targetEnvironment(simulator)
    private let isSimulatorBuild = true
#else
    private let isSimulatorBuild = false
#endif

#if DEBUG
    private let isDebugBuild = true
#else
    private let isDebugBuild = false
#endif

// MARK: - Context factories

extension Registration {
    /// Builds with `factory` instead while tests run (XCTest or Swift Testing is loaded).
    ///
    /// ```swift
    /// resolver.register { LiveAPI() as API }
    ///     .onTest { MockAPI() as API }                  // running under XCTest or Swift Testing
    ///     .onPreview { PreviewAPI() as API }            // SwiftUI previews
    ///     .onDebug { DebugAPI() as API }                // DEBUG builds
    ///     .onArgument("-mockAPI") { MockAPI() as API }  // launched with that argument
    /// ```
    ///
    /// The registration's key, lifetime, `.implements` keys, `initCompleted` steps and main-actor
    /// binding apply whichever factory builds. When several contexts hold, the most specific wins:
    /// an argument, then preview, test, simulator or device, debug, and then the registration's
    /// own factory. Giving a context a factory again replaces it; giving a context a factory, the
    /// first time or again, drops what the registration kept so far (test containers' instances
    /// included). On a `registerSingleton` registration
    /// the context's factory builds the singleton, and the instance given is the registration's own
    /// factory's. See ``Resolver/Context`` for how the context is decided, and
    /// ``Resolver/context-swift.property`` to change it for one container (a test's).
    @discardableResult
    public func onTest(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping () throws -> T
    ) -> Registration<T> {
        on(.test, file: file, line: line, isolation: isolation) { _ in try factory() }
    }

    /// Builds with `factory`, which receives the resolving container, while tests run.
    @discardableResult
    public func onTest(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        on(.test, file: file, line: line, isolation: isolation, factory)
    }

    /// Builds with `factory` instead in SwiftUI previews (`XCODE_RUNNING_FOR_PREVIEWS=1`).
    @discardableResult
    public func onPreview(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping () throws -> T
    ) -> Registration<T> {
        on(.preview, file: file, line: line, isolation: isolation) { _ in try factory() }
    }

    /// Builds with `factory`, which receives the resolving container, in SwiftUI previews.
    @discardableResult
    public func onPreview(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        on(.preview, file: file, line: line, isolation: isolation, factory)
    }

    /// Builds with `factory` instead in a debug build (`DEBUG`).
    @discardableResult
    public func onDebug(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping () throws -> T
    ) -> Registration<T> {
        on(.debug, file: file, line: line, isolation: isolation) { _ in try factory() }
    }

    /// Builds with `factory`, which receives the resolving container, in a debug build.
    @discardableResult
    public func onDebug(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        on(.debug, file: file, line: line, isolation: isolation, factory)
    }

    /// Builds with `factory` instead in a simulator.
    @discardableResult
    public func onSimulator(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping () throws -> T
    ) -> Registration<T> {
        on(.simulator, file: file, line: line, isolation: isolation) { _ in try factory() }
    }

    /// Builds with `factory`, which receives the resolving container, in a simulator.
    @discardableResult
    public func onSimulator(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        on(.simulator, file: file, line: line, isolation: isolation, factory)
    }

    /// Builds with `factory` instead on a device (anywhere but a simulator).
    @discardableResult
    public func onDevice(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping () throws -> T
    ) -> Registration<T> {
        on(.device, file: file, line: line, isolation: isolation) { _ in try factory() }
    }

    /// Builds with `factory`, which receives the resolving container, on a device.
    @discardableResult
    public func onDevice(
        file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        on(.device, file: file, line: line, isolation: isolation, factory)
    }

    /// Builds with `factory` instead when the process was launched with `argument` (a UI test's
    /// `-mockAPI`, say), or a container's ``Resolver/Context/arguments`` hold it. Of several
    /// arguments that are present, the one given a factory first wins.
    @discardableResult
    public func onArgument(
        _ argument: String, file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping () throws -> T
    ) -> Registration<T> {
        on(.argument(argument), file: file, line: line, isolation: isolation) { _ in try factory() }
    }

    /// Builds with `factory`, which receives the resolving container, when the process was
    /// launched with `argument`.
    @discardableResult
    public func onArgument(
        _ argument: String, file: StaticString = #fileID, line: UInt = #line, isolation: (any Actor)? = #isolation,
        _ factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        on(.argument(argument), file: file, line: line, isolation: isolation, factory)
    }

    private func on(
        _ context: ContextCase, file: StaticString, line: UInt, isolation: (any Actor)?,
        _ factory: @escaping (Resolver) throws -> T
    ) -> Registration<T> {
        if provider.key.arguments != nil {
            fatalError(Messages.contextWithArguments(provider.key, context: "\(context)"), file: file, line: line)
        }
        let isMainActorBound = isMainActor(isolation)
        _ = Resolver.Context.process  // decided before any plan reads it under the lock
        registryLock.withWriteLock { leftovers in
            provider.addContextFactory(factory, for: context, isMainActorBound: isMainActorBound, leftovers: &leftovers)
        }
        return self
    }
}
