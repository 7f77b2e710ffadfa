import Swinject
import Syringe

/// How much of a thread's stack one level of a resolution takes: a chain of `levels` transients,
/// each of whose factories notes the address of one of its locals and then resolves the next. The
/// distance between the first and the last address, divided by the levels between them, is the
/// stack a level costs: the container's frames plus the factory's own, which is the same small
/// closure for every contender. Measured in the build mode the benchmark runs in (a debug build
/// of an app runs its container unoptimized too).
enum StackPerLevel {
    static let levels = 12

    /// The build mode of this run.
    static var buildMode: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    /// Bytes a level for every contender that has a container, in `Contender` order.
    static func measure(_ contenders: [Contender]) -> [(Contender, Int)] {
        contenders.compactMap { contender in
            let run: (() -> Void)?
            switch contender {
            case .syringe: run = syringe()
            case .swinject: run = swinject()
            case .minimalRegistry: run = minimalRegistry()
            case .manual: run = manual()
            case .swiftDependencies: run = nil  // values come from a task-local context, not a chain of factories
            }
            guard let run else { return nil }
            Addresses.reset()
            run()
            return (contender, Addresses.bytesPerLevel)
        }
    }

    /// One level's value.
    final class Level {
        let next: Level?
        init(next: Level?) { self.next = next }
    }

    /// The addresses the levels noted, outermost first.
    enum Addresses {
        nonisolated(unsafe) static var noted: [UInt] = []

        static func reset() {
            noted.removeAll(keepingCapacity: true)
        }

        /// Notes the address of a local of the caller's frame.
        @inline(never)
        static func note() {
            var local: UInt8 = 0
            withUnsafeMutablePointer(to: &local) { noted.append(UInt(bitPattern: $0)) }
        }

        static var bytesPerLevel: Int {
            guard noted.count == levels else { return 0 }
            return Int(noted[0] - noted[levels - 1]) / (levels - 1)
        }
    }

    private static func syringe() -> () -> Void {
        let container = Resolver()
        for level in 0..<levels {
            container.register(Level.self, name: "\(level)") { resolver in
                Addresses.note()
                return Level(next: level + 1 < levels ? resolver.resolve(Level.self, name: "\(level + 1)") : nil)
            }
        }
        return { blackHole(container.resolve(Level.self, name: "0")) }
    }

    private static func swinject() -> () -> Void {
        let container = Container()
        for level in 0..<levels {
            container.register(Level.self, name: "\(level)") { resolver in
                Addresses.note()
                return Level(next: level + 1 < levels ? resolver.resolve(Level.self, name: "\(level + 1)")! : nil)
            }
        }
        return { blackHole(container.resolve(Level.self, name: "0")!) }
    }

    private static func minimalRegistry() -> () -> Void {
        let registry = MinimalRegistry()
        for level in 0..<levels {
            registry.register(Level.self, name: "\(level)") {
                Addresses.note()
                return Level(next: level + 1 < levels ? registry.resolve(Level.self, name: "\(level + 1)") : nil)
            }
        }
        return { blackHole(registry.resolve(Level.self, name: "0")) }
    }

    /// Direct construction through the same closures: the factories' own share of a level.
    private static func manual() -> () -> Void {
        var makers: [() -> Level] = []
        for level in 0..<levels {
            makers.append {
                Addresses.note()
                return Level(next: level + 1 < levels ? makers[level + 1]() : nil)
            }
        }
        return { blackHole(makers[0]()) }
    }
}
