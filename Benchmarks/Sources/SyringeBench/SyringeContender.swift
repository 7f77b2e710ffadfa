import Syringe

/// Syringe as users call it: registrations through the static API (or, for setup, into a
/// container that is then made `Resolver.root`), `Resolver.resolve()` and `@Inject`.
enum SyringeContender {
    enum Staging: Qualifier {}
    enum Flow: Scope {}

    final class Injected {
        @Inject var logger: Logger
        @Inject var settings: Settings
        @Inject var tracker: Tracker
    }

    private static func register<Service: FillerService>(_: Service.Type) {
        Resolver.register { Service() }
    }

    static func job(for scenario: Scenario) -> Job? {
        let container = Resolver()
        Resolver.root = container
        defer { Resolver.root = .main }

        switch scenario {
        case .transient:
            Resolver.register { Leaf() }
            return Job { count in
                Resolver.root = container
                return timed(count) {
                    let leaf: Leaf = Resolver.resolve()
                    blackHole(leaf)
                }
            }

        case .singleton:
            Resolver.register(lifetime: .singleton) { Database() }
            return Job { count in
                Resolver.root = container
                return timed(count) {
                    let database: Database = Resolver.resolve()
                    blackHole(database)
                }
            }

        case .chain3:
            Resolver.register { ChainC() }
            Resolver.register { ChainB(c: $0.resolve()) }
            Resolver.register { ChainA(b: $0.resolve()) }
            return Job { count in
                Resolver.root = container
                return timed(count) {
                    let chain: ChainA = Resolver.resolve()
                    blackHole(chain)
                }
            }

        case .fanout10:
            Resolver.register(lifetime: .singleton) { Single0() }
            Resolver.register(lifetime: .singleton) { Single1() }
            Resolver.register(lifetime: .singleton) { Single2() }
            Resolver.register(lifetime: .singleton) { Single3() }
            Resolver.register(lifetime: .singleton) { Single4() }
            Resolver.register(lifetime: .singleton) { Single5() }
            Resolver.register(lifetime: .singleton) { Single6() }
            Resolver.register(lifetime: .singleton) { Single7() }
            Resolver.register(lifetime: .singleton) { Single8() }
            Resolver.register(lifetime: .singleton) { Single9() }
            Resolver.register {
                FanOut(
                    s0: $0.resolve(), s1: $0.resolve(), s2: $0.resolve(), s3: $0.resolve(),
                    s4: $0.resolve(), s5: $0.resolve(), s6: $0.resolve(), s7: $0.resolve(),
                    s8: $0.resolve(), s9: $0.resolve())
            }
            return Job { count in
                Resolver.root = container
                return timed(count) {
                    let fanOut: FanOut = Resolver.resolve()
                    blackHole(fanOut)
                }
            }

        case .qualified:
            Resolver.register(qualifiedBy: Staging.self) { Leaf() }
            return Job { count in
                Resolver.root = container
                return timed(count) {
                    let leaf: Leaf = Resolver.resolve(qualifiedBy: Staging.self)
                    blackHole(leaf)
                }
            }

        case .named:
            Resolver.register(name: "staging") { Leaf() }
            return Job { count in
                Resolver.root = container
                return timed(count) {
                    let leaf: Leaf = Resolver.resolve(name: "staging")
                    blackHole(leaf)
                }
            }

        case .registrations10, .registrations1000, .registrations10000:
            for type in Fillers.types.prefix(scenario.otherRegistrations!) { register(type) }
            Resolver.register { Leaf() }
            return Job { count in
                Resolver.root = container
                return timed(count) {
                    let leaf: Leaf = Resolver.resolve()
                    blackHole(leaf)
                }
            }

        case .register1000:
            let types = Fillers.types.prefix(Scenario.servicesPerRegistrationBatch)
            return Job(granularity: types.count) { count in
                var elapsed: UInt64 = 0
                for _ in 0..<count / types.count {
                    Resolver.root = Resolver()
                    elapsed += measured {
                        for type in types { register(type) }
                    }
                }
                Resolver.root = container
                return elapsed
            }

        case .containers20000:
            let alive = (0..<Scenario.aliveContainers).map { _ in Resolver() }
            return Job { count in
                withExtendedLifetime(alive) {
                    timed(count) { blackHole(Resolver()) }
                }
            }

        case .beginScope100000:
            for index in 0..<Scenario.unrelatedRegistrations { Resolver.register(name: "\(index)") { Leaf() } }
            Resolver.register(scopedTo: Flow.self) { Leaf() }
            return Job { count in
                timed(count) { container.beginScope(Flow.self).end() }
            }

        case .clearRegistration100000:
            for index in 0..<Scenario.unrelatedRegistrations { Resolver.register(name: "\(index)") { Leaf() } }
            return Job { count in
                timed(count) {
                    container.register { Leaf() }
                    container.clearRegistration(for: Leaf.self)
                }
            }

        case .optionalMiss:
            return Job { count in
                timed(count) { blackHole(container.optional(Leaf.self)) }
            }

        case .optionalMissArguments:
            return Job { count in
                timed(count) { blackHole(container.optional(Leaf.self, arguments: 7)) }
            }

        case .verify1000:
            let fine = Scenario.servicesPerRegistrationBatch - Scenario.brokenRegistrations
            for type in Fillers.types.prefix(fine) { register(type) }
            for index in 0..<Scenario.brokenRegistrations {
                // A plain resolve of something not registered: verify() reports it and goes on.
                container.register(name: "broken-\(index)") { resolver -> Leaf in
                    blackHole(resolver.resolve(Database.self, name: "absent"))
                    return Leaf()
                }
            }
            return Job { count in
                timed(count) {
                    let report = container.verify()
                    precondition(report.failures.count == Scenario.brokenRegistrations, "\(report)")
                    blackHole(report)
                }
            }

        case .inject3:
            Resolver.register(lifetime: .singleton) { Logger() }
            Resolver.register(lifetime: .singleton) { Settings() }
            Resolver.register(lifetime: .singleton) { Tracker() }
            return Job { count in
                Resolver.root = container
                return timed(count) {
                    let object = Injected()
                    blackHole(object)
                    consumeInjected(object.logger, object.settings, object.tracker)
                }
            }

        case .threads1, .threads2:
            Resolver.register(lifetime: .singleton) { Database() }
            return .threaded(scenario.threads!, prepare: { Resolver.root = container }) { count in
                for _ in 0..<count {
                    let database: Database = Resolver.resolve()
                    blackHole(database)
                }
            }

        case .asyncSingleton, .asyncTransient, .asyncChain3, .asyncFirst100, .requestScope:
            return nil

        case .threads1Request, .threads2Request:
            Resolver.register(lifetime: .singleton) { Database() }
            Resolver.register {
                RequestUseCase(database: Resolver.resolve(), user: Resolver.resolve(), log: Resolver.resolve())
            }
            return .threaded(scenario.threads!, prepare: { Resolver.root = container }) { count in
                for _ in 0..<count {
                    let scope = Resolver(parent: container)
                    scope.register { RequestTag(value: 1) }
                    scope.register { RequestUser(name: "alice") }
                    scope.register { RequestLog(label: "request") }
                    Resolver.withContainer(scope) {
                        blackHole(Resolver.resolve(RequestUseCase.self))
                        blackHole(Resolver.resolve(RequestTag.self))
                    }
                }
            }

        case .threads1Value, .threads2Value:
            Resolver.register(lifetime: .singleton) { DatabaseSettings() }
            return .threaded(scenario.threads!, prepare: { Resolver.root = container }) { count in
                for _ in 0..<count {
                    let settings: DatabaseSettings = Resolver.resolve()
                    blackHole(settings)
                }
            }
        }
    }
}
