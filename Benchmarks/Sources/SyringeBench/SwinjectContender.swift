import Swinject

/// Swinject 2.10 as its README shows it: a `Container`, `resolve(_:)!`, object scopes
/// `.transient` and `.container`, names for variants (it has no typed qualifiers), and
/// `synchronize()` for use from several threads.
enum SwinjectContender {
    /// Swinject has no property wrappers; its equivalent is resolving in `init`.
    final class Injected {
        let logger: Logger
        let settings: Settings
        let tracker: Tracker

        init(resolver: any Swinject.Resolver) {
            logger = resolver.resolve(Logger.self)!
            settings = resolver.resolve(Settings.self)!
            tracker = resolver.resolve(Tracker.self)!
        }
    }

    /// Lets the thread scenarios hand the synchronized resolver to worker threads.
    private struct SendableResolver: @unchecked Sendable {
        let resolver: any Swinject.Resolver
    }

    static func job(for scenario: Scenario) -> Job? {
        let container = Container()
        switch scenario {
        case .transient:
            container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
            return Job { count in timed(count) { blackHole(container.resolve(Leaf.self)!) } }

        case .singleton:
            container.register(Database.self) { _ in Database() }.inObjectScope(.container)
            return Job { count in timed(count) { blackHole(container.resolve(Database.self)!) } }

        case .chain3:
            container.register(ChainC.self) { _ in ChainC() }.inObjectScope(.transient)
            container.register(ChainB.self) { r in ChainB(c: r.resolve(ChainC.self)!) }
                .inObjectScope(.transient)
            container.register(ChainA.self) { r in ChainA(b: r.resolve(ChainB.self)!) }
                .inObjectScope(.transient)
            return Job { count in timed(count) { blackHole(container.resolve(ChainA.self)!) } }

        case .fanout10:
            container.register(Single0.self) { _ in Single0() }.inObjectScope(.container)
            container.register(Single1.self) { _ in Single1() }.inObjectScope(.container)
            container.register(Single2.self) { _ in Single2() }.inObjectScope(.container)
            container.register(Single3.self) { _ in Single3() }.inObjectScope(.container)
            container.register(Single4.self) { _ in Single4() }.inObjectScope(.container)
            container.register(Single5.self) { _ in Single5() }.inObjectScope(.container)
            container.register(Single6.self) { _ in Single6() }.inObjectScope(.container)
            container.register(Single7.self) { _ in Single7() }.inObjectScope(.container)
            container.register(Single8.self) { _ in Single8() }.inObjectScope(.container)
            container.register(Single9.self) { _ in Single9() }.inObjectScope(.container)
            container.register(FanOut.self) { r in
                FanOut(
                    s0: r.resolve(Single0.self)!, s1: r.resolve(Single1.self)!,
                    s2: r.resolve(Single2.self)!, s3: r.resolve(Single3.self)!,
                    s4: r.resolve(Single4.self)!, s5: r.resolve(Single5.self)!,
                    s6: r.resolve(Single6.self)!, s7: r.resolve(Single7.self)!,
                    s8: r.resolve(Single8.self)!, s9: r.resolve(Single9.self)!)
            }.inObjectScope(.transient)
            return Job { count in timed(count) { blackHole(container.resolve(FanOut.self)!) } }

        case .qualified, .named:
            // Swinject's only way to tell variants apart is a name.
            container.register(Leaf.self, name: "staging") { _ in Leaf() }.inObjectScope(.transient)
            return Job { count in
                timed(count) { blackHole(container.resolve(Leaf.self, name: "staging")!) }
            }

        case .registrations10, .registrations1000, .registrations10000:
            func add<Service: FillerService>(_: Service.Type) {
                container.register(Service.self) { _ in Service() }.inObjectScope(.transient)
            }
            for type in Fillers.types.prefix(scenario.otherRegistrations!) { add(type) }
            container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
            return Job { count in timed(count) { blackHole(container.resolve(Leaf.self)!) } }

        case .register1000:
            let types = Fillers.types.prefix(Scenario.servicesPerRegistrationBatch)
            func add<Service: FillerService>(_: Service.Type, to container: Container) {
                container.register(Service.self) { _ in Service() }.inObjectScope(.transient)
            }
            return Job(granularity: types.count) { count in
                var elapsed: UInt64 = 0
                for _ in 0..<count / types.count {
                    let fresh = Container()
                    elapsed += measured {
                        for type in types { add(type, to: fresh) }
                    }
                }
                return elapsed
            }

        case .beginScope100000, .clearRegistration100000, .optionalMiss, .optionalMissArguments, .verify1000,
            .threads1Request, .threads2Request:

            return nil

        case .containers20000:
            let alive = (0..<Scenario.aliveContainers).map { _ in Container() }
            return Job { count in
                withExtendedLifetime(alive) {
                    timed(count) { blackHole(Container()) }
                }
            }

        case .inject3:
            container.register(Logger.self) { _ in Logger() }.inObjectScope(.container)
            container.register(Settings.self) { _ in Settings() }.inObjectScope(.container)
            container.register(Tracker.self) { _ in Tracker() }.inObjectScope(.container)
            return Job { count in
                timed(count) {
                    let object = Injected(resolver: container)
                    blackHole(object)
                    consumeInjected(object.logger, object.settings, object.tracker)
                }
            }

        case .threads1, .threads2:
            container.register(Database.self) { _ in Database() }.inObjectScope(.container)
            let shared = SendableResolver(resolver: container.synchronize())
            return .threaded(scenario.threads!) { count in
                for _ in 0..<count { blackHole(shared.resolver.resolve(Database.self)!) }
            }

        case .requestScope:
            // A child container per request, as Swinject users scope a request.
            let app = Container()
            app.register(Database.self) { _ in Database() }.inObjectScope(.container)
            app.register(RequestUseCase.self) { r in
                RequestUseCase(
                    database: r.resolve(Database.self)!, user: r.resolve(RequestUser.self)!,
                    log: r.resolve(RequestLog.self)!)
            }
            return Job { count in
                timed(count) {
                    let scope = Container(parent: app)
                    scope.register(RequestTag.self) { _ in RequestTag(value: 1) }
                    scope.register(RequestUser.self) { _ in RequestUser(name: "alice") }
                    scope.register(RequestLog.self) { _ in RequestLog(label: "request") }
                    blackHole(scope.resolve(RequestUseCase.self)!)
                    blackHole(scope.resolve(RequestTag.self)!)
                }
            }

        case .asyncSingleton, .asyncTransient, .asyncChain3, .asyncFirst100:
            return nil

        case .threads1Value, .threads2Value:
            container.register(DatabaseSettings.self) { _ in DatabaseSettings() }.inObjectScope(.container)
            let shared = SendableResolver(resolver: container.synchronize())
            return .threaded(scenario.threads!) { count in
                for _ in 0..<count { blackHole(shared.resolver.resolve(DatabaseSettings.self)!) }
            }
        }
    }
}
