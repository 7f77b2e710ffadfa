import Foundation
import Syringe
import Testing

// Invariants of the resolution engine that users rely on without thinking about them: a lookup
// that cannot change under its caller, a container binding that follows the work it started, a
// per-resolution cache that cannot confuse two registrations, scope handles that keep what they
// promise, keys that mean what they say and messages that name the right thing. Tests that could
// crash or hang run in their own process, with a watchdog.

final class InvToggled {}

/// The container the `@OptionalInject` holder reads (a global so that the wrapper can name it).
let invToggleContainer = Resolver()

final class InvOptionalHolder {
    @OptionalInject(container: invToggleContainer) var toggled: InvToggled?
}

final class InvTaskMarker {
    let source: String
    init(source: String) { self.source = source }
}

final class InvGraphX {
    let tag: Int
    init(tag: Int) { self.tag = tag }
}
final class InvGraphY {}
final class InvGraphTop {
    let x: InvGraphX
    let y: InvGraphY
    init(x: InvGraphX, y: InvGraphY) {
        self.x = x
        self.y = y
    }
}
final class InvGraphPair {
    let first: InvGraphX
    let second: InvGraphX
    init(first: InvGraphX, second: InvGraphX) {
        self.first = first
        self.second = second
    }
}

enum InvFlow: Scope {}
final class InvUser {
    let serial = FxSerial.next()
}

final class InvInner {
    let source: String
    init(source: String) { self.source = source }
}
final class InvOuter {
    let inner: InvInner
    let currentWasOther: Bool
    init(inner: InvInner, currentWasOther: Bool) {
        self.inner = inner
        self.currentWasOther = currentWasOther
    }
}

enum InvOuterA {
    final class Widget {}
}
enum InvOuterB {
    final class Widget {}
}

final class InvNode {
    let next: InvNode?
    init(next: InvNode?) { self.next = next }
}

/// Registers and clears `InvToggled` over and over, for one second (at most 100,000 rounds).
func invToggle(_ c: Resolver) {
    let deadline = Date().addingTimeInterval(1)
    var round = 0
    while round < 100_000 && Date() < deadline {
        c.register { InvToggled() }
        c.clearRegistration(for: InvToggled.self)
        round += 1
    }
}

@Suite struct EngineInvariantTests {
    // MARK: optional() and @OptionalInject look up and resolve in one step

    @Test func optionalNeverStopsWhileAnotherThreadTogglesTheRegistration() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            let toggling = FxFlag(true)
            let finished = fxRunThreads(2) { index in
                if index == 0 {
                    invToggle(c)
                    toggling.value = false
                } else {
                    while toggling.value { _ = c.optional(InvToggled.self) }
                }
            }
            invRequire(finished, "the threads finished")
        }
    }

    @Test func optionalInjectNeverStopsWhileAnotherThreadTogglesTheRegistration() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = invToggleContainer
            let toggling = FxFlag(true)
            let finished = fxRunThreads(2) { index in
                if index == 0 {
                    invToggle(c)
                    toggling.value = false
                } else {
                    while toggling.value { _ = InvOptionalHolder().toggled }
                }
            }
            invRequire(finished, "the threads finished")
        }
    }

    // MARK: A task started inside withContainer keeps its container

    @Test func taskStartedInsideWithContainerKeepsItAfterTheBodyReturns() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let c = Resolver()
            c.register { InvTaskMarker(source: "bound") }
            let (bodyReturned, signal) = AsyncStream<Void>.makeStream()
            let task = Resolver.withContainer(c) {
                Task {
                    for await _ in bodyReturned { break }
                    invRequire(Resolver.current === c, "Resolver.current in the task is the container bound")
                    let marker: InvTaskMarker = Resolver.resolve()
                    invRequire(marker.source == "bound", "Resolver.resolve() in the task uses the container bound")
                }
            }
            signal.yield()
            signal.finish()
            await task.value
        }
    }

    @Test func taskStartedInsideWithContainerKeepsItWhileAnotherBindingIsOpen() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            let (entered, enteredSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let elsewhere = Task {
                await Resolver.withContainer(Resolver()) {
                    enteredSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in entered { break }
            let c = Resolver()
            c.register { InvTaskMarker(source: "bound") }
            let (bodyReturned, signal) = AsyncStream<Void>.makeStream()
            let task = Resolver.withContainer(c) {
                Task {
                    for await _ in bodyReturned { break }
                    invRequire(Resolver.current === c, "Resolver.current in the task is the container bound")
                    let marker: InvTaskMarker = Resolver.resolve()
                    invRequire(marker.source == "bound", "Resolver.resolve() in the task uses the container bound")
                }
            }
            signal.yield()
            signal.finish()
            await task.value
            releaseSignal.yield()
            releaseSignal.finish()
            await elsewhere.value
        }
    }

    // MARK: The .graph cache knows one registration from another

    @Test func graphCacheNeverHandsOutAnInstanceOfAnotherType() async {
        await #expect(processExitsWith: .success) {
            fxStartWatchdog(seconds: 10)
            for _ in 0..<300 {
                let c = Resolver()
                c.register(lifetime: .graph) { InvGraphX(tag: 1) }
                c.register { r -> InvGraphTop in
                    let x: InvGraphX = r.resolve()
                    r.clearRegistration(for: InvGraphX.self)
                    r.register(lifetime: .graph) { InvGraphY() }
                    let y: InvGraphY = r.resolve()
                    return InvGraphTop(x: x, y: y)
                }
                let top: InvGraphTop = c.resolve()
                invRequire(type(of: top.y as AnyObject) == InvGraphY.self, "the graph instance is an InvGraphY")
            }
        }
    }

    @Test func graphCacheNeverHandsAReplacedRegistrationsInstanceToItsSuccessor() {
        var stale = 0
        for _ in 0..<300 {
            let c = Resolver()
            c.register(lifetime: .graph) { InvGraphX(tag: 1) }
            c.register { r -> InvGraphPair in
                let first: InvGraphX = r.resolve()
                r.clearRegistration(for: InvGraphX.self)
                r.register(lifetime: .graph) { InvGraphX(tag: 2) }
                let second: InvGraphX = r.resolve()
                return InvGraphPair(first: first, second: second)
            }
            let pair: InvGraphPair = c.resolve()
            if pair.first.tag != 1 || pair.second.tag != 2 { stale += 1 }
        }
        #expect(stale == 0, "an instance of the cleared registration was handed out for its successor")
    }

    // MARK: A scope handle keeps what is resolved through its container

    @Test func scopeHandleBegunOnAChildKeepsInstancesOfTheParentsRegistration() {
        let parent = Resolver()
        parent.register(scopedTo: InvFlow.self) { InvUser() }
        let child = Resolver(parent: parent)
        let handle = child.beginScope(InvFlow.self)
        let user = FxWeak<InvUser>()
        user.object = child.resolve(InvUser.self, scopedTo: InvFlow.self)
        #expect(user.object != nil, "the open handle keeps the instance")
        #expect(child.resolve(InvUser.self, scopedTo: InvFlow.self) === user.object)
        handle.end()
        #expect(user.object == nil, "ending the handle releases the instance")
    }

    // MARK: withContainer inside a factory

    @Test func withContainerOpenedInsideAFactoryIsHonoured() {
        let c = Resolver()
        let other = Resolver()
        c.register { InvInner(source: "c") }
        other.register { InvInner(source: "other") }
        c.register {
            InvOuter(
                inner: Resolver.withContainer(other) { Resolver.resolve(InvInner.self) },
                currentWasOther: Resolver.withContainer(other) { Resolver.current === other })
        }
        let outer: InvOuter = c.resolve()
        #expect(outer.inner.source == "other")
        #expect(outer.currentWasOther)
    }

    // MARK: Keys

    @Test func namesEqualAsStringsAreOneKey() {
        #expect("caf\u{E9}" == "cafe\u{301}")
        let c = Resolver()
        c.register(name: "caf\u{E9}") { 1 }
        #expect(c.isRegistered(Int.self, name: "cafe\u{301}"))
        #expect(c.optional(Int.self, name: "cafe\u{301}") == 1)
    }

    @Test func aTupleArgumentAndTwoArgumentsAreTwoKeys() {
        let c = Resolver()
        c.register(arguments: (String, Int).self) { (pair: (String, Int)) in "tuple \(pair.0)" }
        c.register(arguments: String.self, Int.self) { text, _ in "pair \(text)" }
        #expect(c.optional(String.self, arguments: ("a", 1)) == "tuple a")
        #expect(c.optional(String.self, arguments: "a", 1) == "pair a")
    }

    // MARK: Messages

    @Test func sameNamedTypesAreToldApartInMessages() {
        let c = Resolver()
        c.register { InvOuterA.Widget() }
        do throws(ResolutionError) {
            _ = try c.tryResolve(InvOuterB.Widget.self)
            Issue.record("InvOuterB.Widget is not registered")
        } catch {
            #expect(error.description.contains("InvOuterB.Widget"))
            #expect(!error.description.contains("no registration for Widget"))
        }
    }

    @Test func aDeepChainWithoutArgumentsIsNotBlamedOnArguments() {
        let c = Resolver()
        for level in 0..<200 {
            c.register(name: "\(level)") { r in try InvNode(next: r.tryResolve(InvNode.self, name: "\(level + 1)")) }
        }
        c.register(name: "200") { InvNode(next: nil) }
        let messages = FxRecorder<String>()
        let finished = DispatchSemaphore(value: 0)
        // A thread with a known stack size: the chain is 201 registrations deep.
        fxStartThread(finished) {
            do throws(ResolutionError) {
                _ = try c.tryResolve(InvNode.self, name: "0")
            } catch {
                messages.append(error.description)
            }
        }
        #expect(finished.wait(timeout: .now() + 20) == .success)
        for message in messages.values {
            #expect(!message.contains("with arguments"), "\(message)")
        }
    }
}
