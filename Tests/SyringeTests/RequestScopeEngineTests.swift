import Foundation
import Testing

@testable import Syringe

/// A struct, whose instances can only be itself: not a ``Singleton`` unless it says so.
struct RseStamp {}
/// A class that is not a Singleton, but whose subclasses could be.
class RseBase {}
/// A request's value, numbered.
struct RseValue: Equatable { let number: Int }
protocol RseService: AnyObject { var number: Int { get } }
final class RseThing: RseService {
    let number: Int
    init(_ number: Int) { self.number = number }
}
final class RseArgument {
    let text: String
    init(_ text: String) { self.text = text }
}
enum RseFlow: Scope {}
/// A generic type that is a ``Singleton`` for some arguments only.
final class RseBox<Value> {}
extension RseBox: Singleton where Value == Int {}
/// Many types, each a class of its own: `RseNest<T>` (not a Singleton) and `RseMarkedNest<T>` (one).
protocol RseNested {
    static func register(in resolver: Resolver)
    /// Whether two resolutions in `resolver` give the instances this type's lifetime says.
    static func resolvesAsItsLifetimeSays(in resolver: Resolver) -> Bool
}
final class RseNest<Inner>: RseNested {
    static func register(in resolver: Resolver) { resolver.register { RseNest<Inner>() } }
    static func resolvesAsItsLifetimeSays(in resolver: Resolver) -> Bool {
        (resolver.resolve() as RseNest<Inner>) !== (resolver.resolve() as RseNest<Inner>)
    }
}
final class RseMarkedNest<Inner>: RseNested, Singleton {
    static func register(in resolver: Resolver) { resolver.register { RseMarkedNest<Inner>() } }
    static func resolvesAsItsLifetimeSays(in resolver: Resolver) -> Bool {
        (resolver.resolve() as RseMarkedNest<Inner>) === (resolver.resolve() as RseMarkedNest<Inner>)
    }
}

/// `2 * depth` distinct types: `RseNest` and `RseMarkedNest` of `T`, of `RseNest<T>`, and so on.
func rseNestedTypes<T>(_ type: T.Type, depth: Int) -> [any RseNested.Type] {
    guard depth > 0 else { return [] }
    return [RseNest<T>.self, RseMarkedNest<T>.self] + rseNestedTypes(RseNest<T>.self, depth: depth - 1)
}

/// The container the owner thread made, handed to the readers.
final class RseHandOver: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Resolver?
    var container: Resolver? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// What a server's container per request leans on: the first resolution of a registration whose
/// type tells it is no ``Singleton`` is an ordinary build (not one claimed across threads), and
/// bindings made and ended by many tasks leave the count, and the flag that spares resolutions the
/// task-local read, right; registrations into a container that only its own thread reads take
/// that thread's stripe of the lock alone, until another thread reads it.
@Suite struct RequestScopeEngineTests {
    /// Two threads resolve a struct's registration for the first time at once, and the first
    /// factory waits until the second has run. Were the first build claimed (to read the marker
    /// off the instance), the second resolution would wait for the first: a deadlock, which the
    /// watchdog ends.
    @Test func aStructsFirstResolutionsDoNotWaitForEachOther() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 20)
            let r = Resolver()
            let entered = FxCounter()
            let firstInside = DispatchSemaphore(value: 0)
            let secondRan = DispatchSemaphore(value: 0)
            r.register { () -> RseStamp in
                if entered.increment() == 1 {
                    firstInside.signal()
                    secondRan.wait()
                } else {
                    secondRan.signal()
                }
                return RseStamp()
            }
            let first = Thread { _ = r.resolve(RseStamp.self) }
            first.start()
            firstInside.wait()
            _ = r.resolve(RseStamp.self)
            invRequire(entered.value == 2, "both resolutions ran the factory")
        }
    }

    /// A class's first build still decides the marker: instances may be of a subclass.
    @Test func aClassesFirstBuildStillReadsTheMarkerOffTheInstance() {
        final class Marked: RseBase, Singleton {}
        let r = Resolver()
        r.register { Marked() as RseBase }
        #expect(r.resolve(RseBase.self) === r.resolve(RseBase.self))
    }

    /// In a process of its own (parallel tests keep bindings alive): 200 tasks bind a container at
    /// once; while one is bound the flag is up, a task started inside keeps it up after its body
    /// returned (a read that sees no binding leaves it up then), and when all are gone, the count
    /// is 0 and the first read that sees no binding, static call or resolution, lowers the flag.
    @Test func bindingsThatComeAndGoLeaveNoneCounted() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 60)
            func counted() -> (Int, Bool) {
                Globals.bindingCountLock.withLock {
                    (Globals.bindingCount, registryLock.withReadLock(0) { Globals.hasBindings })
                }
            }
            let r = Resolver()
            invRequire(counted() == (0, false), "no binding at the start")
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        await Resolver.withContainer(r) {
                            invRequire(counted().1, "the flag is up while a binding is alive")
                            await Task.yield()
                        }
                    }
                }
            }
            invRequire(counted() == (0, true), "all 200 bindings ended; the flag waits for a read")
            invRequire(Resolver.current === Resolver.root, "no binding here")
            invRequire(counted() == (0, false), "a read that sees no binding lowers the flag")

            let release = DispatchSemaphore(value: 0)
            let started: Task<Resolver, Never> = Resolver.withContainer(r) {
                Task {
                    release.wait()
                    return Resolver.current
                }
            }
            invRequire(counted() == (1, true), "a task started inside keeps its binding")
            invRequire(Resolver.current === Resolver.root, "no binding here")
            invRequire(counted() == (1, true), "a read that sees no binding leaves the flag up while one exists")
            release.signal()
            invRequire(await started.value === r, "the task reads its binding")
            for _ in 0..<1_000 where counted().0 != 0 { await Task.yield() }
            invRequire(counted() == (0, true), "the task's end ends its binding")
            Resolver.root.register { RseValue(number: 7) }
            invRequire(Resolver.resolve(RseValue.self) == RseValue(number: 7), "resolved from the root")
            invRequire(counted() == (0, false), "a resolution that sees no binding lowers the flag")
        }
    }

    /// In a process of its own: while threads read with no binding (each such read may lower the
    /// flag) and tasks come and go each with a container of its own bound, every read inside a
    /// binding, static call or resolution, finds its own container: the flag is never down while
    /// a binding exists.
    @Test func readsWithoutABindingNeverHideAnother() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 60)
            Resolver.root.register { RseValue(number: 0) }
            let done = FxCounter()
            let readers = (0..<2).map { _ in
                Thread {
                    while done.value == 0 {
                        invRequire(Resolver.current === Resolver.root, "no binding on this thread")
                        invRequire(Resolver.resolve(RseValue.self) == RseValue(number: 0), "the root's value")
                    }
                }
            }
            for reader in readers { reader.start() }
            for round in 0..<50 {
                await withTaskGroup(of: Void.self) { group in
                    for number in 1...8 {
                        group.addTask {
                            let container = Resolver()
                            container.register { RseValue(number: number) }
                            await Resolver.withContainer(container) {
                                for _ in 0..<20 {
                                    invRequire(Resolver.current === container, "round \(round): its own container")
                                    invRequire(
                                        Resolver.resolve(RseValue.self) == RseValue(number: number),
                                        "round \(round): its own value")
                                    await Task.yield()
                                }
                            }
                        }
                    }
                }
            }
            done.increment()
        }
    }

    /// The thread that made a container registers into it and resolves from it without sharing it;
    /// the first read by a thread of another stripe (a resolution, `resolveAll()`, `optional()`, the
    /// dependency graph) shares it, and a registration made after that is seen by that thread.
    @Test(arguments: ["resolve", "resolveAll", "optional", "dependencyGraph"])
    func aContainerIsSharedWhenAThreadOfAnotherStripeFirstReadsIt(reader: String) {
        let parent = Resolver()
        let child = Resolver(parent: parent)
        child.register { RseValue(number: 1) }
        #expect(child.resolve(RseValue.self) == RseValue(number: 1))
        let owner = Resolution.current.stripe
        #expect(child.registry.ownerStripe == owner)
        #expect(!child.registry.isShared)

        func onAnotherStripe<R>(_ body: @escaping @Sendable () -> R) -> (result: R, stripe: Int) {
            nonisolated(unsafe) var outcome: (R, Int)?
            let done = DispatchSemaphore(value: 0)
            // A thread gets the next stripe when it first needs one: a few threads reach another.
            func attempt() {
                Thread {
                    let stripe = Resolution.current.stripe
                    if stripe != owner { outcome = (body(), stripe) }
                    done.signal()
                }.start()
                done.wait()
            }
            while outcome == nil { attempt() }
            return outcome!
        }
        let (sawIt, _) = onAnotherStripe { () -> Bool in
            switch reader {
            case "resolve": child.resolve(RseValue.self) == RseValue(number: 1)
            case "resolveAll": child.resolveAll(RseValue.self) == [RseValue(number: 1)]
            case "optional": child.optional(RseValue.self) == RseValue(number: 1)
            default: child.dependencyGraph().nodes.count == 1
            }
        }
        #expect(sawIt)
        #expect(child.registry.isShared)
        if reader == "resolve" {
            #expect(!parent.registry.isShared)  // a lookup shares only the registries it reads
        }

        child.register(name: "later") { RseValue(number: 2) }
        let (later, _) = onAnotherStripe { child.optional(RseValue.self, name: "later") }
        #expect(later == RseValue(number: 2))
    }

    /// One thread registers into a fresh container while two others resolve from it, list its
    /// registrations and ask for what is not there yet, 300 times over: every value read is the one
    /// registered under its name, and once the registrations are done, every thread sees them all.
    /// (Run under the thread sanitizer by CI, which sees any read the owner's stripe does not guard.)
    @Test func registrationsWhileOtherThreadsReadAFreshContainerAreSeenWhole() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 120)
            let parent = Resolver()
            parent.register(name: "parent") { RseValue(number: -1) }
            for _ in 0..<300 {
                let child = Resolver(parent: parent)
                let names = (0..<24).map { "value \($0)" }
                DispatchQueue.concurrentPerform(iterations: 3) { worker in
                    if worker == 0 {
                        for (number, name) in names.enumerated() {
                            child.register(name: name) { RseValue(number: number) }
                        }
                        return
                    }
                    for (number, name) in names.enumerated() {
                        if let value = child.optional(RseValue.self, name: name) {
                            invRequire(value.number == number, "\(name) read as \(value.number)")
                        }
                        for value in child.resolveAll(RseValue.self) {
                            invRequire(value.number >= -1 && value.number < 24, "resolveAll read \(value.number)")
                        }
                        invRequire(child.resolve(RseValue.self, name: "parent").number == -1, "the parent's")
                    }
                }
                DispatchQueue.concurrentPerform(iterations: 2) { _ in
                    for (number, name) in names.enumerated() {
                        invRequire(child.resolve(RseValue.self, name: name).number == number, "\(name) after")
                    }
                }
            }
        }
    }

    /// The thread that makes a container registers every kind of binding into it (`.implements`
    /// keys, scoped registrations, runtime arguments, an Optional argument, replacements, given
    /// instances) while three threads of other stripes start on it with one reading call each:
    /// whatever they read is whole, and what they read first shares the container. (Races show under
    /// the thread sanitizer, which CI runs this under.)
    @Test(arguments: [
        "optional", "resolveAll", "isRegistered", "dependencyGraph", "miss", "argument", "optionalArgument",
        "beginScope", "dropCached", "isolatedChild", "implements", "context", "verify", "sharedByID",
    ])
    func everyReadingCallSharesAContainerItsOwnerIsFilling(reader: String) {
        let parent = Resolver()
        for round in 0..<12 {
            let handOver = RseHandOver()
            let made = DispatchSemaphore(value: 0)
            let read = DispatchSemaphore(value: 0)
            let id = "rse \(reader) \(round)"
            let finished = fxRunThreads(4) { index in
                guard index > 0 else {
                    let child = reader == "sharedByID" ? Resolver(id: id) : Resolver(parent: parent)
                    handOver.container = child
                    for _ in 1...3 { made.signal() }
                    for n in 0..<16 {
                        child.register(name: "v\(n)") { RseThing(n) }.implements(RseService.self)
                        child.register(scopedTo: RseFlow.self, name: "s\(n)") { RseThing(n) }
                        child.register(name: "a\(n)", arguments: String.self) { RseArgument($0) }
                        child.register(name: "o\(n)", arguments: String?.self) { RseArgument($0 ?? "none") }
                        child.register(name: "v\(n)") { RseThing(n + 100) }
                        child.registerSingleton(RseThing(n), name: "f\(n)")
                    }
                    withExtendedLifetime(child) { for _ in 1...3 { read.wait() } }  // a registry by id lives while used
                    return
                }
                made.wait()
                var child = handOver.container!
                if reader == "sharedByID" { child = Resolver(id: id) }
                for n in 0..<16 {
                    switch reader {
                    case "optional":
                        let number = child.optional(RseThing.self, name: "v\(n)")?.number
                        invRequire(
                            number == nil || number == n || number == n + 100,
                            "v\(n) read as \(String(describing: number))")
                    case "resolveAll": _ = child.resolveAll(RseThing.self)
                    case "isRegistered": _ = child.isRegistered(RseThing.self, name: "v\(n)")
                    case "dependencyGraph": _ = child.dependencyGraph()
                    case "miss": invRequire((try? child.tryResolve(RseArgument.self, name: "none")) == nil, "a miss")
                    case "argument":
                        let built = try? child.tryResolve(RseArgument.self, name: "a\(n)", arguments: Optional("x"))
                        invRequire(
                            built == nil || built?.text == "x", "a\(n) read as \(String(describing: built?.text))")
                    case "optionalArgument": _ = child.optional(RseArgument.self, name: "o\(n)")
                    case "beginScope": child.beginScope(RseFlow.self).end()
                    case "dropCached": child.dropCached(scopedTo: RseFlow.self)
                    case "isolatedChild":
                        let number = Resolver(isolatedChildOf: child).optional(RseThing.self, name: "f\(n)")?.number
                        invRequire(number == nil || number == n, "f\(n) read as \(String(describing: number))")
                    case "implements":
                        let number = child.optional(RseService.self, name: "v\(n)")?.number
                        invRequire(
                            number == nil || number == n || number == n + 100, "v\(n) as \(String(describing: number))")
                    case "context": _ = child.context
                    case "verify": if n == 15 { _ = child.verify() }
                    default:
                        _ = child.optional(RseThing.self, name: "v\(n)")
                        _ = child.resolveAll(RseService.self)
                    }
                }
                read.signal()
            }
            #expect(finished)
            let child = handOver.container!
            #expect(child.resolve(RseThing.self, name: "v15").number == 115)
        }
    }

    /// A thread registers into a fresh container while four tasks read it asynchronously.
    @Test func asyncReadersOfAContainerItsOwnerIsFillingReadItWhole() async {
        let parent = Resolver()
        for _ in 0..<25 {
            let child = Resolver(parent: parent)
            let finished = DispatchSemaphore(value: 0)
            fxStartThread(finished) {
                for n in 0..<16 {
                    child.register(name: "v\(n)") { RseThing(n) }.implements(RseService.self)
                    child.register(name: "v\(n)") { RseThing(n + 100) }
                }
            }
            await withTaskGroup(of: Void.self) { group in
                for reader in 0..<4 {
                    group.addTask {
                        for n in 0..<16 {
                            if reader % 2 == 0 {
                                let number = await child.optionalAsync(RseThing.self, name: "v\(n)")?.number
                                #expect(number == nil || number == n || number == n + 100)
                            } else {
                                _ = await child.resolveAllAsync(RseService.self)
                            }
                        }
                    }
                }
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread {
                    finished.wait()
                    continuation.resume()
                }.start()
            }
            // The key `.implements` wrote follows `RseThing`'s registration to its replacement.
            #expect(child.resolve(RseService.self, name: "v15").number == 115)
        }
    }

    /// A container per request registers the same types again and again: each registration reads
    /// its type's `Singleton` marker as the first did, a conditional conformance included.
    @Test func aTypeRegisteredInContainerAfterContainerKeepsItsLifetime() {
        for _ in 0..<20 {
            let scope = Resolver(parent: Resolver())
            scope.register { RseBox<Int>() }
            scope.register { RseBox<String>() }
            scope.register { RseThing(1) }
            scope.register { RseValue(number: 2) }
            #expect((scope.resolve() as RseBox<Int>) === (scope.resolve() as RseBox<Int>))
            #expect((scope.resolve() as RseBox<String>) !== (scope.resolve() as RseBox<String>))
            #expect((scope.resolve() as RseThing) !== (scope.resolve() as RseThing))
            #expect((scope.resolve() as RseValue) == RseValue(number: 2))
        }
    }

    /// More types than a thread remembers, registered round after round on four threads at once:
    /// every registration builds the instances of its own type, with its own lifetime.
    @Test func manyTypesRegisteredRoundAfterRoundKeepTheirOwnClassAndLifetime() async {
        #expect(Set(rseNestedTypes(RseStamp.self, depth: 100).map(ObjectIdentifier.init)).count == 200)
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let types = rseNestedTypes(RseStamp.self, depth: 100)
                    var failures = 0
                    for _ in 0..<3 {
                        let scope = Resolver(parent: Resolver())
                        for type in types { type.register(in: scope) }
                        for type in types.reversed() where !type.resolvesAsItsLifetimeSays(in: scope) { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
