/// The baseline: direct construction, singletons held in local constants and passed by hand.
enum ManualContender {
    final class Injected {
        let logger: Logger
        let settings: Settings
        let tracker: Tracker

        init(logger: Logger, settings: Settings, tracker: Tracker) {
            self.logger = logger
            self.settings = settings
            self.tracker = tracker
        }
    }

    static func job(for scenario: Scenario) -> Job? {
        switch scenario {
        case .transient, .qualified, .named, .registrations10, .registrations1000,
            .registrations10000:
            // A qualified or named variant, built directly, is just the object; there are no
            // registrations to be slowed down by.
            return Job { count in timed(count) { blackHole(Leaf()) } }

        case .singleton:
            let database = Database()
            return Job { count in timed(count) { blackHole(database) } }

        case .chain3:
            return Job { count in timed(count) { blackHole(ChainA(b: ChainB(c: ChainC()))) } }

        case .fanout10:
            let (s0, s1, s2, s3, s4) = (Single0(), Single1(), Single2(), Single3(), Single4())
            let (s5, s6, s7, s8, s9) = (Single5(), Single6(), Single7(), Single8(), Single9())
            return Job { count in
                timed(count) {
                    blackHole(
                        FanOut(
                            s0: s0, s1: s1, s2: s2, s3: s3, s4: s4, s5: s5, s6: s6, s7: s7, s8: s8, s9: s9))
                }
            }

        case .beginScope100000, .clearRegistration100000, .optionalMiss, .optionalMissArguments, .verify1000,
            .threads1Request, .threads2Request:

            return nil

        case .containers20000:
            return nil  // no containers

        case .register1000:
            return nil  // nothing to register

        case .inject3:
            let (logger, settings, tracker) = (Logger(), Settings(), Tracker())
            return Job { count in
                timed(count) {
                    let object = Injected(logger: logger, settings: settings, tracker: tracker)
                    blackHole(object)
                    consumeInjected(object.logger, object.settings, object.tracker)
                }
            }

        case .threads1, .threads2:
            let database = Database()
            return .threaded(scenario.threads!) { count in
                for _ in 0..<count { blackHole(database) }
            }

        case .requestScope:
            // The request's values passed by hand, as a request context carries them.
            let database = Database()
            return Job { count in
                timed(count) {
                    let (tag, user, log) = (
                        RequestTag(value: 1), RequestUser(name: "alice"), RequestLog(label: "request")
                    )
                    blackHole(RequestUseCase(database: database, user: user, log: log))
                    blackHole(tag)
                }
            }

        case .asyncSingleton, .asyncTransient, .asyncChain3, .asyncFirst100:
            return nil

        case .threads1Value, .threads2Value:
            let settings = DatabaseSettings()
            return .threaded(scenario.threads!) { count in
                for _ in 0..<count { blackHole(settings) }
            }
        }
    }
}
