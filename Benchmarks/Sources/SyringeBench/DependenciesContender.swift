import Dependencies

// swift-dependencies as its README shows it: keys with a `liveValue`, computed properties on
// `DependencyValues`, `@Dependency(\.key)` to read, `withDependencies` to override. Its values
// are values, so a transient service is a factory closure (`\.makeLeaf`), and a singleton is a
// live value (built once and cached by the library). The process is not a test, so the live
// context applies. It has no notion of qualifiers or names: those scenarios are omitted.

private enum MakeLeafKey: DependencyKey {
    static let liveValue: @Sendable () -> Leaf = { Leaf() }
}
private enum DatabaseKey: DependencyKey {
    static let liveValue = Database()
}
private enum MakeChainAKey: DependencyKey {
    static let liveValue: @Sendable () -> ChainA = {
        @Dependency(\.makeChainB) var makeChainB
        return ChainA(b: makeChainB())
    }
}
private enum MakeChainBKey: DependencyKey {
    static let liveValue: @Sendable () -> ChainB = {
        @Dependency(\.makeChainC) var makeChainC
        return ChainB(c: makeChainC())
    }
}
private enum MakeChainCKey: DependencyKey {
    static let liveValue: @Sendable () -> ChainC = { ChainC() }
}
private enum Single0Key: DependencyKey { static let liveValue = Single0() }
private enum Single1Key: DependencyKey { static let liveValue = Single1() }
private enum Single2Key: DependencyKey { static let liveValue = Single2() }
private enum Single3Key: DependencyKey { static let liveValue = Single3() }
private enum Single4Key: DependencyKey { static let liveValue = Single4() }
private enum Single5Key: DependencyKey { static let liveValue = Single5() }
private enum Single6Key: DependencyKey { static let liveValue = Single6() }
private enum Single7Key: DependencyKey { static let liveValue = Single7() }
private enum Single8Key: DependencyKey { static let liveValue = Single8() }
private enum Single9Key: DependencyKey { static let liveValue = Single9() }
private enum MakeFanOutKey: DependencyKey {
    static let liveValue: @Sendable () -> FanOut = {
        @Dependency(\.single0) var s0
        @Dependency(\.single1) var s1
        @Dependency(\.single2) var s2
        @Dependency(\.single3) var s3
        @Dependency(\.single4) var s4
        @Dependency(\.single5) var s5
        @Dependency(\.single6) var s6
        @Dependency(\.single7) var s7
        @Dependency(\.single8) var s8
        @Dependency(\.single9) var s9
        return FanOut(s0: s0, s1: s1, s2: s2, s3: s3, s4: s4, s5: s5, s6: s6, s7: s7, s8: s8, s9: s9)
    }
}
private enum LoggerKey: DependencyKey { static let liveValue = Logger() }
private enum SettingsKey: DependencyKey { static let liveValue = Settings() }
private enum TrackerKey: DependencyKey { static let liveValue = Tracker() }

extension DependencyValues {
    fileprivate var makeLeaf: @Sendable () -> Leaf {
        get { self[MakeLeafKey.self] }
        set { self[MakeLeafKey.self] = newValue }
    }
    fileprivate var database: Database {
        get { self[DatabaseKey.self] }
        set { self[DatabaseKey.self] = newValue }
    }
    fileprivate var makeChainA: @Sendable () -> ChainA {
        get { self[MakeChainAKey.self] }
        set { self[MakeChainAKey.self] = newValue }
    }
    fileprivate var makeChainB: @Sendable () -> ChainB {
        get { self[MakeChainBKey.self] }
        set { self[MakeChainBKey.self] = newValue }
    }
    fileprivate var makeChainC: @Sendable () -> ChainC {
        get { self[MakeChainCKey.self] }
        set { self[MakeChainCKey.self] = newValue }
    }
    fileprivate var single0: Single0 {
        get { self[Single0Key.self] }
        set { self[Single0Key.self] = newValue }
    }
    fileprivate var single1: Single1 {
        get { self[Single1Key.self] }
        set { self[Single1Key.self] = newValue }
    }
    fileprivate var single2: Single2 {
        get { self[Single2Key.self] }
        set { self[Single2Key.self] = newValue }
    }
    fileprivate var single3: Single3 {
        get { self[Single3Key.self] }
        set { self[Single3Key.self] = newValue }
    }
    fileprivate var single4: Single4 {
        get { self[Single4Key.self] }
        set { self[Single4Key.self] = newValue }
    }
    fileprivate var single5: Single5 {
        get { self[Single5Key.self] }
        set { self[Single5Key.self] = newValue }
    }
    fileprivate var single6: Single6 {
        get { self[Single6Key.self] }
        set { self[Single6Key.self] = newValue }
    }
    fileprivate var single7: Single7 {
        get { self[Single7Key.self] }
        set { self[Single7Key.self] = newValue }
    }
    fileprivate var single8: Single8 {
        get { self[Single8Key.self] }
        set { self[Single8Key.self] = newValue }
    }
    fileprivate var single9: Single9 {
        get { self[Single9Key.self] }
        set { self[Single9Key.self] = newValue }
    }
    fileprivate var makeFanOut: @Sendable () -> FanOut {
        get { self[MakeFanOutKey.self] }
        set { self[MakeFanOutKey.self] = newValue }
    }
    fileprivate var logger: Logger {
        get { self[LoggerKey.self] }
        set { self[LoggerKey.self] = newValue }
    }
    fileprivate var settings: Settings {
        get { self[SettingsKey.self] }
        set { self[SettingsKey.self] = newValue }
    }
    fileprivate var tracker: Tracker {
        get { self[TrackerKey.self] }
        set { self[TrackerKey.self] = newValue }
    }
}

enum DependenciesContender {
    final class Injected {
        @Dependency(\.logger) var logger
        @Dependency(\.settings) var settings
        @Dependency(\.tracker) var tracker
    }

    /// Overrides a filler key, as registering it would.
    private static func override<Service: FillerService>(
        _: Service.Type, in values: inout DependencyValues
    ) {
        values[Service.self] = Service()
    }

    /// Reads a filler key once, so its live value is built and cached.
    private static func resolveLive<Service: FillerService>(_: Service.Type) {
        blackHole(DependencyValues._current[Service.self])
    }

    static func job(for scenario: Scenario) -> Job? {
        switch scenario {
        case .transient:
            return Job { count in
                timed(count) {
                    @Dependency(\.makeLeaf) var makeLeaf
                    blackHole(makeLeaf())
                }
            }

        case .singleton:
            return Job { count in
                timed(count) {
                    @Dependency(\.database) var database
                    blackHole(database)
                }
            }

        case .chain3:
            return Job { count in
                timed(count) {
                    @Dependency(\.makeChainA) var makeChainA
                    blackHole(makeChainA())
                }
            }

        case .fanout10:
            return Job { count in
                timed(count) {
                    @Dependency(\.makeFanOut) var makeFanOut
                    blackHole(makeFanOut())
                }
            }

        case .qualified, .named:
            return nil

        case .registrations10, .registrations1000, .registrations10000:
            // Its dependencies are keys declared in code; "registered" ones are those an app has in
            // use: their live values resolved once and cached by the library. (Overrides in effect
            // through `withDependencies` are not this: each `@Dependency` read merges them all.)
            for type in Fillers.types.prefix(scenario.otherRegistrations!) { resolveLive(type) }
            return Job { count in
                timed(count) {
                    @Dependency(\.makeLeaf) var makeLeaf
                    blackHole(makeLeaf())
                }
            }

        case .beginScope100000, .clearRegistration100000, .optionalMiss, .optionalMissArguments, .verify1000,
            .threads1Request, .threads2Request:

            return nil

        case .containers20000:
            return nil  // no containers

        case .register1000:
            // Registering is overriding 1,000 keys for an operation.
            let types = Fillers.types.prefix(Scenario.servicesPerRegistrationBatch)
            return Job(granularity: types.count) { count in
                var elapsed: UInt64 = 0
                for _ in 0..<count / types.count {
                    withDependencies { values in
                        elapsed += measured {
                            for type in types { override(type, in: &values) }
                        }
                    } operation: {
                    }
                }
                return elapsed
            }

        case .inject3:
            return Job { count in
                timed(count) {
                    let object = Injected()
                    blackHole(object)
                    consumeInjected(object.logger, object.settings, object.tracker)
                }
            }

        case .threads1, .threads2:
            return .threaded(scenario.threads!) { count in
                for _ in 0..<count {
                    @Dependency(\.database) var database
                    blackHole(database)
                }
            }

        case .asyncSingleton, .asyncTransient, .asyncChain3, .asyncFirst100, .requestScope:
            return nil

        case .threads1Value, .threads2Value:
            return nil
        }
    }
}
