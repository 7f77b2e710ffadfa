#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The smallest registry worth the name: `[ObjectIdentifier: () -> Any]` behind a pthread mutex,
/// resolved with an `as!` cast. Singletons are instances captured by their factory. Qualifiers
/// are folded into the type (`Qualified<Leaf, Staging>`); names use a second dictionary.
final class MinimalRegistry: @unchecked Sendable {
    private struct NamedKey: Hashable {
        let type: ObjectIdentifier
        let name: String
    }

    /// The key type for a service registered under a qualifier.
    enum Qualified<Service, Qualifier> {}

    /// The registry the static-style calls of this contender use (set before each batch).
    nonisolated(unsafe) static var current = MinimalRegistry()

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var factories: [ObjectIdentifier: () -> Any] = [:]
    private var namedFactories: [NamedKey: () -> Any] = [:]

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func register<Service>(_: Service.Type = Service.self, factory: @escaping () -> Service) {
        pthread_mutex_lock(mutex)
        factories[ObjectIdentifier(Service.self)] = factory
        pthread_mutex_unlock(mutex)
    }

    func register<Service, Qualifier>(
        _: Service.Type = Service.self, qualifiedBy _: Qualifier.Type,
        factory: @escaping () -> Service
    ) {
        pthread_mutex_lock(mutex)
        factories[ObjectIdentifier(Qualified<Service, Qualifier>.self)] = factory
        pthread_mutex_unlock(mutex)
    }

    func register<Service>(
        _: Service.Type = Service.self, name: String, factory: @escaping () -> Service
    ) {
        pthread_mutex_lock(mutex)
        namedFactories[NamedKey(type: ObjectIdentifier(Service.self), name: name)] = factory
        pthread_mutex_unlock(mutex)
    }

    func resolve<Service>(_: Service.Type = Service.self) -> Service {
        make(factory(for: ObjectIdentifier(Service.self)))
    }

    func resolve<Service, Qualifier>(
        _: Service.Type = Service.self, qualifiedBy _: Qualifier.Type
    ) -> Service {
        make(factory(for: ObjectIdentifier(Qualified<Service, Qualifier>.self)))
    }

    func resolve<Service>(_: Service.Type = Service.self, name: String) -> Service {
        pthread_mutex_lock(mutex)
        let factory = namedFactories[NamedKey(type: ObjectIdentifier(Service.self), name: name)]
        pthread_mutex_unlock(mutex)
        return make(factory)
    }

    private func factory(for key: ObjectIdentifier) -> (() -> Any)? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return factories[key]
    }

    /// Runs the factory outside the lock, so factories may resolve their own dependencies.
    private func make<Service>(_ factory: (() -> Any)?) -> Service {
        guard let factory else { fatalError("\(Service.self) is not registered") }
        return factory() as! Service
    }
}

enum MinimalRegistryContender {
    enum Staging {}

    final class Injected {
        let logger: Logger = MinimalRegistry.current.resolve()
        let settings: Settings = MinimalRegistry.current.resolve()
        let tracker: Tracker = MinimalRegistry.current.resolve()
    }

    static func job(for scenario: Scenario) -> Job? {
        let registry = MinimalRegistry()
        switch scenario {
        case .transient:
            registry.register { Leaf() }
            return Job { count in
                MinimalRegistry.current = registry
                return timed(count) { blackHole(MinimalRegistry.current.resolve(Leaf.self)) }
            }

        case .singleton:
            let database = Database()
            registry.register { database }
            return Job { count in
                MinimalRegistry.current = registry
                return timed(count) { blackHole(MinimalRegistry.current.resolve(Database.self)) }
            }

        case .chain3:
            registry.register { ChainC() }
            registry.register { ChainB(c: MinimalRegistry.current.resolve()) }
            registry.register { ChainA(b: MinimalRegistry.current.resolve()) }
            return Job { count in
                MinimalRegistry.current = registry
                return timed(count) { blackHole(MinimalRegistry.current.resolve(ChainA.self)) }
            }

        case .fanout10:
            let (s0, s1, s2, s3, s4) = (Single0(), Single1(), Single2(), Single3(), Single4())
            let (s5, s6, s7, s8, s9) = (Single5(), Single6(), Single7(), Single8(), Single9())
            registry.register { s0 }
            registry.register { s1 }
            registry.register { s2 }
            registry.register { s3 }
            registry.register { s4 }
            registry.register { s5 }
            registry.register { s6 }
            registry.register { s7 }
            registry.register { s8 }
            registry.register { s9 }
            registry.register {
                let r = MinimalRegistry.current
                return FanOut(
                    s0: r.resolve(), s1: r.resolve(), s2: r.resolve(), s3: r.resolve(), s4: r.resolve(),
                    s5: r.resolve(), s6: r.resolve(), s7: r.resolve(), s8: r.resolve(), s9: r.resolve())
            }
            return Job { count in
                MinimalRegistry.current = registry
                return timed(count) { blackHole(MinimalRegistry.current.resolve(FanOut.self)) }
            }

        case .qualified:
            registry.register(qualifiedBy: Staging.self) { Leaf() }
            return Job { count in
                MinimalRegistry.current = registry
                return timed(count) {
                    blackHole(MinimalRegistry.current.resolve(Leaf.self, qualifiedBy: Staging.self))
                }
            }

        case .named:
            registry.register(name: "leaf") { Leaf() }
            return Job { count in
                MinimalRegistry.current = registry
                return timed(count) { blackHole(MinimalRegistry.current.resolve(Leaf.self, name: "leaf")) }
            }

        case .registrations10, .registrations1000, .registrations10000:
            func add<Service: FillerService>(_: Service.Type) { registry.register { Service() } }
            for type in Fillers.types.prefix(scenario.otherRegistrations!) { add(type) }
            registry.register { Leaf() }
            return Job { count in
                MinimalRegistry.current = registry
                return timed(count) { blackHole(MinimalRegistry.current.resolve(Leaf.self)) }
            }

        case .register1000:
            let types = Fillers.types.prefix(Scenario.servicesPerRegistrationBatch)
            func add<Service: FillerService>(_: Service.Type) {
                MinimalRegistry.current.register { Service() }
            }
            return Job(granularity: types.count) { count in
                var elapsed: UInt64 = 0
                for _ in 0..<count / types.count {
                    MinimalRegistry.current = MinimalRegistry()
                    elapsed += measured {
                        for type in types { add(type) }
                    }
                }
                MinimalRegistry.current = registry
                return elapsed
            }

        case .beginScope100000, .clearRegistration100000, .optionalMiss, .optionalMissArguments, .verify1000,
            .threads1Request, .threads2Request:

            return nil

        case .containers20000:
            let alive = (0..<Scenario.aliveContainers).map { _ in MinimalRegistry() }
            return Job { count in
                withExtendedLifetime(alive) {
                    timed(count) { blackHole(MinimalRegistry()) }
                }
            }

        case .inject3:
            let (logger, settings, tracker) = (Logger(), Settings(), Tracker())
            registry.register { logger }
            registry.register { settings }
            registry.register { tracker }
            return Job { count in
                MinimalRegistry.current = registry
                return timed(count) {
                    let object = Injected()
                    blackHole(object)
                    consumeInjected(object.logger, object.settings, object.tracker)
                }
            }

        case .threads1, .threads2:
            let database = Database()
            registry.register { database }
            return .threaded(scenario.threads!, prepare: { MinimalRegistry.current = registry }) {
                count in
                for _ in 0..<count { blackHole(MinimalRegistry.current.resolve(Database.self)) }
            }

        case .asyncSingleton, .asyncTransient, .asyncChain3, .asyncFirst100, .requestScope:
            return nil

        case .threads1Value, .threads2Value:
            let settings = DatabaseSettings()
            registry.register { settings }
            return .threaded(scenario.threads!, prepare: { MinimalRegistry.current = registry }) {
                count in
                for _ in 0..<count { blackHole(MinimalRegistry.current.resolve(DatabaseSettings.self)) }
            }
        }
    }
}
