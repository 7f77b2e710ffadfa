/// The measured situations (SPEC §12), by their names in the table and the JSON.
enum Scenario: String, CaseIterable {
    /// Resolve a transient service.
    case transient
    /// Resolve a singleton.
    case singleton
    /// Resolve `ChainA → ChainB → ChainC`, all transient.
    case chain3
    /// Resolve a transient object whose factory resolves 10 singletons.
    case fanout10
    /// Resolve a transient service registered under a qualifier.
    case qualified
    /// Resolve a transient service registered under a string name.
    case named
    /// Resolve a transient service while N other services are registered (should be flat).
    case registrations10 = "registrations-10"
    case registrations1000 = "registrations-1000"
    case registrations10000 = "registrations-10000"
    /// Register 1,000 services into an empty container; time per registration.
    case register1000 = "register-1000"
    /// Create a container (and let it go) while 20,000 others are alive (should be flat).
    case containers20000 = "containers-20000"
    /// Begin a scope and end it, with 100,000 unrelated registrations in the container
    /// (should cost what the scope touches, not what is registered).
    case beginScope100000 = "begin-scope-100000"
    /// Register one service and clear it again, with 100,000 others registered (the same).
    case clearRegistration100000 = "clear-registration-100000"
    /// `optional()` of an unregistered type, with or without runtime arguments (a miss builds
    /// no error in either).
    case optionalMiss = "optional-miss"
    case optionalMissArguments = "optional-miss-arguments"
    /// `verify()` a container of 1,000 registrations, `brokenRegistrations` of them failing inside
    /// their factories (each failure ends a worker thread); time per whole verification.
    case verify1000 = "verify-1000"
    /// Create an object with 3 injected properties (singletons) and read them.
    case inject3
    /// Resolve a singleton from 1 or 2 threads; ns per operation of the total throughput.
    case threads1 = "threads-1"
    case threads2 = "threads-2"
    /// The same with a value-type singleton: no shared reference count to update, so this
    /// shows how the container itself scales.
    case threads1Value = "threads-1-value"
    case threads2Value = "threads-2-value"
    /// What a server does for each request (see `request-scope`), synchronously, from 1 or 2
    /// threads, each making containers of its own; ns per request of the total throughput.
    case threads1Request = "threads-1-request"
    case threads2Request = "threads-2-request"
    /// Async factories (`resolveAsync()`): a cached singleton, a transient, a chain of three
    /// transients each awaiting the next, and 100 tasks resolving a fresh container's singleton
    /// at once (time per whole batch of 100).
    case asyncSingleton = "async-singleton"
    case asyncTransient = "async-transient"
    case asyncChain3 = "async-chain3"
    case asyncFirst100 = "async-first-100"
    /// What a server does for each request: a child of the app's container, three values
    /// registered in it, bound to the task (`withContainer`, async), a use case (a struct with a
    /// singleton of the app and two of the request's values) and the request's id resolved in
    /// it, then the child released.
    case requestScope = "request-scope"

    /// How many other services `registrations-N` registers next to the resolved one.
    var otherRegistrations: Int? {
        switch self {
        case .registrations10: 10
        case .registrations1000: 1_000
        case .registrations10000: 10_000
        default: nil
        }
    }

    /// How many threads `threads-N` resolves from.
    var threads: Int? {
        switch self {
        case .threads1, .threads1Value, .threads1Request: 1
        case .threads2, .threads2Value, .threads2Request: 2
        default: nil
        }
    }

    /// How many services `register-1000` registers into one fresh container.
    static let servicesPerRegistrationBatch = 1_000

    /// How many containers `containers-20000` keeps alive while it creates more.
    static let aliveContainers = 20_000

    /// How many of `verify-1000`'s registrations fail.
    static let brokenRegistrations = 10

    /// How many unrelated registrations the `-100000` scenarios make first.
    static let unrelatedRegistrations = 100_000

    /// Scenarios only Syringe has (the others' contenders return no job for them).
    var isSyringeOnly: Bool {
        switch self {
        case .beginScope100000, .clearRegistration100000, .optionalMiss, .optionalMissArguments, .verify1000,
            .threads1Request, .threads2Request:
            true
        default: false
        }
    }
}

/// The measured libraries and baselines, by their names in the table and the JSON.
enum Contender: String, CaseIterable {
    case syringe
    case swinject
    case swiftDependencies = "swift-dependencies"
    /// Direct construction: the cost of the work without any container.
    case manual
    /// `[ObjectIdentifier: () -> Any]` behind a pthread mutex, with an `as!` cast.
    case minimalRegistry = "minimal-registry"

    /// The job that runs `scenario` with this contender, or nil where the scenario does not exist
    /// for it (or the contender is not built in).
    func job(for scenario: Scenario) -> Job? {
        switch self {
        case .syringe: AsyncScenarios.syringe(scenario) ?? SyringeContender.job(for: scenario)
        case .swinject: SwinjectContender.job(for: scenario)
        case .swiftDependencies: DependenciesContender.job(for: scenario)
        case .manual: ManualContender.job(for: scenario)
        case .minimalRegistry: AsyncScenarios.minimalRegistry(scenario) ?? MinimalRegistryContender.job(for: scenario)
        }
    }
}
