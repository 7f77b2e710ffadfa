import Foundation
import Syringe
import Testing

// Shared helpers for the Syringe test suite. Feature-specific fixture types live next to
// the tests that use them (file-private); only helpers and a few neutral types live here.

/// Counts how often something happened; safe to touch from any thread.
final class FxCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    init() {}

    @discardableResult
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A thread-safe list of values recorded by concurrent workers.
final class FxRecorder<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    init() {}

    func append(_ element: Element) {
        lock.lock()
        defer { lock.unlock() }
        items.append(element)
    }

    var values: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// A thread-safe flag.
final class FxFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var state: Bool

    init(_ initial: Bool = false) { state = initial }

    var value: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return state
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            state = newValue
        }
    }
}

/// Gives every instance of a fixture class a process-unique serial number, so identity can be
/// compared after an object is gone (an `ObjectIdentifier` may be reused by a new allocation).
enum FxSerial {
    private static let counter = FxCounter()
    static func next() -> Int { counter.increment() }
}

/// A plain class with a serial number, for identity checks.
final class FxObject {
    let serial = FxSerial.next()
    init() {}
}

/// A weak reference holder that can be filled inside a helper function.
final class FxWeak<T: AnyObject> {
    weak var object: T?
    init(_ object: T? = nil) { self.object = object }
}

/// Runs `count` real threads that start together (after all are created) and waits for them.
/// Returns false when they did not all finish within `timeout` seconds: a hang guard only, never
/// a performance assertion.
@discardableResult
func fxRunThreads(
    _ count: Int, timeout: TimeInterval = 30, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            ready.signal()
            go.wait()
            body(index)
            done.leave()
        }
        thread.stackSize = 4 << 20
        thread.start()
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { go.signal() }
    return done.wait(timeout: .now() + timeout) == .success
}

/// Starts one real thread running `body`; `finished` is signalled when it returns.
func fxStartThread(_ finished: DispatchSemaphore, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread {
        body()
        finished.signal()
    }
    thread.stackSize = 4 << 20
    thread.start()
}

/// The standard-error text an exit test observed.
func fxStderr(_ result: ExitTest.Result?) -> String {
    guard let result else { return "" }
    return String(decoding: result.standardErrorContent, as: UTF8.self)
}

/// Case-insensitive containment, for words such as "cycle" whose capitalisation is free.
func fxContainsIgnoringCase(_ text: String, _ word: String) -> Bool {
    text.lowercased().contains(word.lowercased())
}

/// For exit-test bodies: ends the child process with a distinct failure if the body has not
/// finished within `seconds`, so a deadlock fails one test instead of hanging the whole run.
/// A hang guard only, never a performance assertion.
func fxStartWatchdog(seconds: UInt32 = 20) {
    let thread = Thread {
        sleep(seconds)
        FileHandle.standardError.write(Data("watchdog: the exit-test body did not finish (deadlock?)\n".utf8))
        exit(70)
    }
    thread.start()
}
