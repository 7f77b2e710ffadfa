import Dependencies

// The object graph every contender builds. Classes, because services usually are; `Sendable`
// so swift-dependencies can hold them and worker threads can share them.

/// The transient service: a new one per resolution.
final class Leaf: Sendable {}

/// The singleton service: one shared instance.
final class Database: Sendable {}

/// A value-type singleton for `threads-N-value`.
struct DatabaseSettings: Sendable {
    var poolSize = 8
    var timeout = 30
}

/// The 3-level chain, all transient: `ChainA → ChainB → ChainC`.
final class ChainC: Sendable {}
final class ChainB: Sendable {
    let c: ChainC
    init(c: ChainC) { self.c = c }
}
final class ChainA: Sendable {
    let b: ChainB
    init(b: ChainB) { self.b = b }
}

/// Ten singletons for the fan-out scenario.
final class Single0: Sendable {}
final class Single1: Sendable {}
final class Single2: Sendable {}
final class Single3: Sendable {}
final class Single4: Sendable {}
final class Single5: Sendable {}
final class Single6: Sendable {}
final class Single7: Sendable {}
final class Single8: Sendable {}
final class Single9: Sendable {}

/// A transient object whose factory resolves the ten singletons.
final class FanOut: Sendable {
    let s0: Single0, s1: Single1, s2: Single2, s3: Single3, s4: Single4
    let s5: Single5, s6: Single6, s7: Single7, s8: Single8, s9: Single9

    init(
        s0: Single0, s1: Single1, s2: Single2, s3: Single3, s4: Single4,
        s5: Single5, s6: Single6, s7: Single7, s8: Single8, s9: Single9
    ) {
        self.s0 = s0
        self.s1 = s1
        self.s2 = s2
        self.s3 = s3
        self.s4 = s4
        self.s5 = s5
        self.s6 = s6
        self.s7 = s7
        self.s8 = s8
        self.s9 = s9
    }
}

/// The three singletons injected into the properties of an object (`inject3`).
final class Logger: Sendable {}
final class Settings: Sendable {}
final class Tracker: Sendable {}

/// Reads the three injected properties of one object (so lazy wrappers resolve too).
@inline(__always)
func consumeInjected(_ logger: Logger, _ settings: Settings, _ tracker: Tracker) {
    blackHole(logger)
    blackHole(settings)
    blackHole(tracker)
}

// MARK: - Filler services

/// The other registrations of `registrations-N` and the services of `register-1000`: up to
/// 10,000 distinct types, `Filler<D3, D2, D1, D0>` for the four decimal digits of an index.
/// They double as swift-dependencies keys (their own live value).
protocol FillerService: DependencyKey, Sendable where Value == Self {
    init()
}

/// A decimal digit as a type. Each step of `Fillers.type(at:)` is a static call on one
/// existential digit, which fixes that digit as a generic argument.
protocol Digit {
    static func thousands(hundreds: any Digit.Type, tens: any Digit.Type, ones: any Digit.Type)
        -> any FillerService.Type
    static func hundreds<A: Digit>(_: A.Type, tens: any Digit.Type, ones: any Digit.Type)
        -> any FillerService.Type
    static func tens<A: Digit, B: Digit>(_: A.Type, _: B.Type, ones: any Digit.Type)
        -> any FillerService.Type
    static func ones<A: Digit, B: Digit, C: Digit>(_: A.Type, _: B.Type, _: C.Type)
        -> any FillerService.Type
}

extension Digit {
    static func thousands(hundreds: any Digit.Type, tens: any Digit.Type, ones: any Digit.Type)
        -> any FillerService.Type
    {
        hundreds.hundreds(Self.self, tens: tens, ones: ones)
    }
    static func hundreds<A: Digit>(_: A.Type, tens: any Digit.Type, ones: any Digit.Type)
        -> any FillerService.Type
    {
        tens.tens(A.self, Self.self, ones: ones)
    }
    static func tens<A: Digit, B: Digit>(_: A.Type, _: B.Type, ones: any Digit.Type)
        -> any FillerService.Type
    {
        ones.ones(A.self, B.self, Self.self)
    }
    static func ones<A: Digit, B: Digit, C: Digit>(_: A.Type, _: B.Type, _: C.Type)
        -> any FillerService.Type
    {
        Filler<A, B, C, Self>.self
    }
}

enum D0: Digit {}
enum D1: Digit {}
enum D2: Digit {}
enum D3: Digit {}
enum D4: Digit {}
enum D5: Digit {}
enum D6: Digit {}
enum D7: Digit {}
enum D8: Digit {}
enum D9: Digit {}

struct Filler<Thousands: Digit, Hundreds: Digit, Tens: Digit, Ones: Digit>: FillerService {
    static var liveValue: Self { Self() }
}

enum Fillers {
    static let maximumCount = 10_000

    /// `types[i]` is a distinct type for each `i` below `maximumCount`.
    static let types: [any FillerService.Type] = (0..<maximumCount).map { index in
        let digits: [any Digit.Type] = [
            D0.self, D1.self, D2.self, D3.self, D4.self, D5.self, D6.self, D7.self, D8.self, D9.self,
        ]
        return digits[index / 1000 % 10].thousands(
            hundreds: digits[index / 100 % 10], tens: digits[index / 10 % 10], ones: digits[index % 10])
    }
}

/// A request's values, registered in its container by `request-scope`.
struct RequestTag: Sendable { let value: Int }
struct RequestUser: Sendable { let name: String }
struct RequestLog: Sendable { let label: String }

/// A request's use case: the app's database and two of the request's values.
struct RequestUseCase: Sendable {
    let database: Database
    let user: RequestUser
    let log: RequestLog
}
