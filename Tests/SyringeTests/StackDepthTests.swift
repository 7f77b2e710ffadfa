import Foundation
import Testing

@testable import Syringe

// Deep resolutions on a thread with a small stack: 512 KiB, the default for a secondary thread and
// a dispatch worker on Apple platforms. Every factory runs on the thread that asked: a resolution
// never moves to another thread, and one that would run out of stack ends with Syringe's too-deep
// error instead. Each scenario runs in its own process (an exit test), so that running out of
// stack fails one test instead of ending the whole run; the body reports what went wrong on
// standard error and exits with a failure. These tests run against release builds too
// (Tests/ReleaseChecks).

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
/// the last is a leaf. With `closingAt`, the last level resolves that level again instead. `visit`
/// runs in each level's factory before it resolves the next, `leave` after.
func sdRegisterChain(
    _ r: Resolver, count: Int, closingAt target: Int? = nil, visit: @escaping @Sendable (Int) -> Void = { _ in },
    leave: @escaping @Sendable (Int) -> Void = { _ in }
) {
    for level in 0..<count {
        r.register(SdLevel.self, name: "\(level)") { resolver in
            visit(level)
            defer { leave(level) }
            if level + 1 < count {
                return SdLevel(next: try resolver.tryResolve(SdLevel.self, name: "\(level + 1)"))
            }
            if let target { return SdLevel(next: try resolver.tryResolve(SdLevel.self, name: "\(target)")) }
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

/// Runs `body` on a thread with a stack of `stackSize` bytes (512 KiB unless given) and waits for
/// it: a hang fails the test after `timeout` seconds.
func sdOnThread(stackSize: Int = 512 * 1024, timeout: Double = 60, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    if done.wait(timeout: .now() + timeout) != .success { sdFail("the resolution did not finish within \(timeout) s") }
}

/// Runs `body` as if the calling thread's stack ended `room` bytes (and the stack check's margin)
/// below here, to see what happens when it runs short.
func sdWithStackNearlyUsedUp<R>(room: UInt, _ body: () throws -> R) rethrows -> R {
    let resolution = Resolution.current
    let saved = resolution.stackLow
    var marker: UInt8 = 0
    let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    resolution.stackLow = here - Resolution.stackMargin - room
    defer { resolution.stackLow = saved }
    return try body()
}

/// Ends an exit-test body with a failure and `message` on standard error.
func sdFail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("depth check failed: \(message)\n".utf8))
    exit(1)
}

@Suite struct StackDepthTests {
    // MARK: Small stacks

    @Test func aHundredLevelChainResolvesOnA512KiBThread() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-hundred")
            sdRegisterChain(r, count: 100)
            sdOnThread {
                do {
                    let top: SdLevel = try r.tryResolve(name: "0")
                    if top.length != 100 { sdFail("built \(top.length) levels, not 100") }
                } catch {
                    sdFail("\(error)")
                }
            }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    /// A factory that holds a recursive lock while it resolves deeper, and a factory further down
    /// that takes the same lock again: it is the same thread, so the lock lets it in.
    @Test func aRecursiveLockHeldUpTheChainIsTakenAgainAtTheBottom() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let lock = NSRecursiveLock()
            let r = Resolver(id: "depth-recursive-lock")
            sdRegisterChain(
                r, count: 40,
                visit: { level in
                    if level == 2 || level == 39 { lock.lock() }
                },
                leave: { level in
                    if level == 2 || level == 39 { lock.unlock() }
                })
            sdOnThread(timeout: 10) {
                do {
                    let top: SdLevel = try r.tryResolve(name: "0")
                    if top.length != 40 { sdFail("built \(top.length) levels, not 40") }
                } catch {
                    sdFail("\(error)")
                }
            }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    /// A value a factory puts in its thread's dictionary is there for the factories it resolves:
    /// they run on the same thread.
    @Test func aThreadLocalValueSetUpTheChainIsSeenAtTheBottom() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let threads = FxRecorder<String>()
            let seen = FxRecorder<String?>()
            let r = Resolver(id: "depth-thread-local")
            sdRegisterChain(r, count: 40) { level in
                threads.append("\(pthread_self())")
                if level == 2 { Thread.current.threadDictionary["sdTraceID"] = "trace-2" }
                if level == 39 { seen.append(Thread.current.threadDictionary["sdTraceID"] as? String) }
            }
            sdOnThread(timeout: 10) {
                do {
                    _ = try r.tryResolve(SdLevel.self, name: "0")
                } catch {
                    sdFail("\(error)")
                }
            }
            if seen.values != ["trace-2"] { sdFail("the last level saw \(seen.values)") }
            if Set(threads.values).count != 1 { sdFail("the factories ran on \(Set(threads.values).count) threads") }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    /// Deeper than a 512 KiB stack holds in a debug build: the resolution finishes or ends with the
    /// too-deep error, on the thread that asked; it never overflows the stack or hangs.
    @Test func aChainDeeperThanTheStackHoldsEndsWithTheTooDeepError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-190")
            sdRegisterChain(r, count: 190)
            sdOnThread(timeout: 10) {
                do throws(ResolutionError) {
                    let top: SdLevel = try r.tryResolve(name: "0")
                    if top.length != 190 { sdFail("built \(top.length) levels, not 190") }
                } catch {
                    guard case .tooDeep = error.reason, error.path.count < 190,
                        error.description.contains("stack is nearly used up")
                    else { sdFail("\(error)") }
                }
            }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    @Test func runawayRecursionOnA512KiBStackStopsWithTheTooDeepMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-runaway")
            sdRegisterRunaway(r)
            sdOnThread { _ = r.resolve(SdRunaway.self, arguments: 0) }
        }
        let text = fxStderr(result)
        #expect(text.contains("Syringe: resolving SdRunaway with arguments (Int) went "), "\(text)")
        #expect(text.contains("a registration with arguments probably resolves itself without end"), "\(text)")
        #expect(result?.exitStatus != .signal(SIGSEGV))
        #expect(result?.exitStatus != .signal(SIGBUS))
    }

    @Test func aResolutionStopsWhereTheStackRunsShort() {
        let r = Resolver(id: "depth-short")
        sdRegisterChain(r, count: 200)
        let error = sdWithStackNearlyUsedUp(room: 64 << 10) {
            #expect(throws: ResolutionError.self) { try r.tryResolve(SdLevel.self, name: "0") }
        }
        guard case .tooDeep = error?.reason else {
            Issue.record("expected the too-deep error, got \(String(describing: error))")
            return
        }
        #expect(error.map { $0.path.count > 1 && $0.path.count < 200 } == true)
        #expect(
            error?.description.contains(
                "went \(error?.path.count ?? 0) levels deep and this thread's stack is nearly used up") == true,
            "\(String(describing: error))")
    }

    @Test func singletonBeingBuiltUpTheStackIsACycleNotAWait() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            fxStartWatchdog()
            let r = Resolver(id: "depth-singleton")
            // The singleton's factory goes 100 levels down, and the last level asks for the
            // singleton: the same resolution, so a cycle, never a wait for another thread.
            r.register(lifetime: .singleton) { resolver -> SdShared in
                _ = try resolver.tryResolve(SdLevel.self, name: "0")
                return SdShared()
            }
            for level in 0..<100 {
                r.register(SdLevel.self, name: "\(level)") { resolver in
                    if level + 1 < 100 {
                        return SdLevel(next: try resolver.tryResolve(SdLevel.self, name: "\(level + 1)"))
                    }
                    _ = try resolver.tryResolve(SdShared.self)
                    return SdLevel(next: nil)
                }
            }
            sdOnThread {
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
            for level in 0..<100 {
                r.register(SdGraphLevel.self, name: "\(level)") { resolver in
                    SdGraphLevel(
                        part: try resolver.tryResolve(),
                        next: level + 1 < 100 ? try resolver.tryResolve(SdGraphLevel.self, name: "\(level + 1)") : nil)
                }
            }
            sdOnThread {
                do {
                    let top: SdGraphLevel = try r.tryResolve(name: "0")
                    var level = top
                    var count = 1
                    while let next = level.next {
                        if next.part !== top.part { sdFail("level \(count) has another .graph instance") }
                        level = next
                        count += 1
                    }
                    if count != 100 { sdFail("built \(count) levels") }
                } catch {
                    sdFail("\(error)")
                }
            }
        }
        #expect(fxStderr(result).isEmpty, "\(fxStderr(result))")
    }

    // MARK: The maximum depth, on a thread with room for it

    @Test func chainOfMaximumDepthResolvesOnALargeStack() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-chain")
            sdRegisterChain(r, count: 200)
            sdOnThread(stackSize: 16 << 20) {
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

    @Test func oneLevelMoreThanTheMaximumIsTooDeep() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-chain-beyond")
            sdRegisterChain(r, count: 201)
            sdOnThread(stackSize: 16 << 20) {
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

    @Test func cycleDeepDownIsReportedAsACycle() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let r = Resolver(id: "depth-cycle")
            // Level 189 resolves level 0 again: the frames of every level must still be seen.
            sdRegisterChain(r, count: 190, closingAt: 0)
            sdOnThread(stackSize: 16 << 20) {
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
}
