import Foundation
import Testing

@testable import Syringe

// Deep resolutions on a thread with a small stack: 512 KiB, the default for a secondary thread
// on Apple platforms. Each scenario runs in its own process (an exit test), so that running out
// of stack fails one test instead of ending the whole run; the body reports what went wrong on
// standard error and exits with a failure.

final class SdLevel {
    let next: SdLevel?
    init(next: SdLevel?) { self.next = next }

    /// How many levels hang from this one, itself included.
    var length: Int {
        var count = 1
        var level = self
        while let next = level.next {
            count += 1
            level = next
        }
        return count
    }
}

final class SdRunaway {}
final class SdShared {}
final class SdGraphPart {}
final class SdGraphLevel {
    let part: SdGraphPart
    let next: SdGraphLevel?
    init(part: SdGraphPart, next: SdGraphLevel?) {
        self.part = part
        self.next = next
    }
}

/// Registers a chain of `count` levels named "0", "1", …: each level's factory resolves the next;
/// the last is a leaf. With `closingAt`, the last level resolves that level again instead.
func sdRegisterChain(_ r: Resolver, count: Int, closingAt target: Int? = nil) {
    for level in 0..<count {
        r.register(SdLevel.self, name: "\(level)") { resolver in
            if level + 1 < count {
                return SdLevel(next: try resolver.tryResolve(name: "\(level + 1)"))
            }
            if let target { return SdLevel(next: try resolver.tryResolve(name: "\(target)")) }
            return SdLevel(next: nil)
        }
    }
}

/// Registers `SdRunaway` with an argument, to go 10,000 levels deep: each level asks for the next.
///
/// A function of its own: `register(arguments:)` called right in an exit test's (async) body
/// crashes the compiler in release builds (Swift 6.3.1, LLVM's function-attrs pass).
@inline(never)
func sdRegisterRunaway(_ r: Resolver) {
    r.register(arguments: Int.self) { level -> SdRunaway in
        if level < 10_000 { _ = Resolver.current.resolve(SdRunaway.self, arguments: level + 1) }
        return SdRunaway()
    }
}

/// Runs `body` on a thread with a 512 KiB stack and waits for it (a hang guard of 60 s).
func sdOnSmallStack(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    if done.wait(timeout: .now() + 60) != .success { sdFail("the resolution did not finish within 60 s") }
}

/// Runs `body` as if the calling thread's stack ended `room` bytes (and the stack guard's margin)
/// below here, to see what happens when it runs short where the work cannot move elsewhere.
func sdWithStackNearlyUsedUp<R>(room: UInt, _ body: () throws -> R) rethrows -> R {
    let state = ThreadState.current
    let saved = state.stackLow
    var marker: UInt8 = 0
    let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    state.stackLow = here - StackGuard.margin - room
    defer { state.stackLow = saved }
    return try body()
}

/// Ends an exit-test body with a failure and `message` on standard error.
func sdFail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("depth check failed: \(message)\n".utf8))
    exit(1)
}

@Suite struct StackDepthTests {
    @Test func chainOfMaximumDepthResolvesOnA512KiBStack() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-chain")
            sdRegisterChain(r, count: 200)
            sdOnSmallStack {
                do {
                    let top: SdLevel = try r.tryResolve(name: "0")
                    if top.length != 200 { sdFail("built \(top.length) levels, not 200") }
                } catch {
                    sdFail("\(error)")
                }
            }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    @Test func oneLevelMoreThanTheMaximumIsTooDeepOnA512KiBStack() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-chain-beyond")
            sdRegisterChain(r, count: 201)
            sdOnSmallStack {
                do throws(ResolutionError) {
                    let top: SdLevel = try r.tryResolve(name: "0")
                    sdFail("built \(top.length) levels")
                } catch {
                    guard case .tooDeep = error.reason else { sdFail("\(error)") }
                    guard error.path.count == 201, error.requested == "SdLevel named \"200\"" else {
                        sdFail("\(error)")
                    }
                }
            }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    @Test func runawayRecursionOnA512KiBStackStopsWithTheTooDeepMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-runaway")
            sdRegisterRunaway(r)
            sdOnSmallStack { _ = r.resolve(SdRunaway.self, arguments: 0) }
        }
        let text = fxStderr(result)
        #expect(
            text.contains(
                "Syringe: resolving SdRunaway with arguments (Int) went 200 levels deep; "
                    + "a registration with arguments probably resolves itself without end"), "\(text)")
        #expect(result?.exitStatus != .signal(SIGSEGV))
        #expect(result?.exitStatus != .signal(SIGBUS))
    }

    @MainActor @Test func mainActorResolutionStopsWhereTheStackRunsShort() {
        let r = Resolver(id: "depth-main-actor")
        sdRegisterChain(r, count: 200)
        // Main-actor work cannot continue on another thread: the resolution ends with the
        // too-deep error where the stack runs short, instead of overflowing it.
        let error = sdWithStackNearlyUsedUp(room: 64 << 10) {
            #expect(throws: ResolutionError.self) { try r.tryResolve(SdLevel.self, name: "0") }
        }
        guard case .tooDeep = error?.reason else {
            Issue.record("expected the too-deep error, got \(String(describing: error))")
            return
        }
        #expect(error.map { $0.path.count > 1 && $0.path.count < 200 } == true)
        #expect(error?.description.contains("the main thread's stack is nearly used up") == true)
    }

    @Test func cycleDeepDownASmallStackIsReportedAsACycle() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-cycle")
            // Level 189 resolves level 0 again: the frames of the levels entered before the
            // stack ran short must still be seen.
            sdRegisterChain(r, count: 190, closingAt: 0)
            sdOnSmallStack {
                do throws(ResolutionError) {
                    _ = try r.tryResolve(SdLevel.self, name: "0")
                    sdFail("built a cycle")
                } catch {
                    // The whole loop, from the level where the resolution started.
                    guard case .cycle(let keys) = error.reason, keys.count == 191, keys.first == #"SdLevel<"0">"#,
                        keys.last == keys.first
                    else { sdFail("\(error)") }
                }
            }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    @Test func singletonBeingBuiltUpTheStackIsACycleNotAWait() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "depth-singleton")
            // The singleton's factory goes 190 levels down, and the last level asks for the
            // singleton: the same resolution, so a cycle, never a wait for another thread.
            r.register(lifetime: .singleton) { resolver -> SdShared in
                _ = try resolver.tryResolve(SdLevel.self, name: "0")
                return SdShared()
            }
            for level in 0..<190 {
                r.register(SdLevel.self, name: "\(level)") { resolver in
                    if level + 1 < 190 { return SdLevel(next: try resolver.tryResolve(name: "\(level + 1)")) }
                    _ = try resolver.tryResolve(SdShared.self)
                    return SdLevel(next: nil)
                }
            }
            sdOnSmallStack {
                do throws(ResolutionError) {
                    _ = try r.tryResolve(SdShared.self)
                    sdFail("built a cycle")
                } catch {
                    guard case .cycle = error.reason else { sdFail("\(error)") }
                }
            }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    @Test func graphInstanceIsSharedFromTopToBottomOfASmallStack() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-graph")
            r.register(lifetime: .graph) { SdGraphPart() }
            for level in 0..<190 {
                r.register(SdGraphLevel.self, name: "\(level)") { resolver in
                    SdGraphLevel(
                        part: try resolver.tryResolve(),
                        next: level + 1 < 190 ? try resolver.tryResolve(name: "\(level + 1)") : nil)
                }
            }
            sdOnSmallStack {
                do {
                    let top: SdGraphLevel = try r.tryResolve(name: "0")
                    var level = top
                    var count = 1
                    while let next = level.next {
                        if next.part !== top.part { sdFail("level \(count) has another .graph instance") }
                        level = next
                        count += 1
                    }
                    if count != 190 { sdFail("built \(count) levels") }
                } catch {
                    sdFail("\(error)")
                }
            }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }
}
