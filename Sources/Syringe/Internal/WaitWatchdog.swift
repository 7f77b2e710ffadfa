#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Says so on standard error when a thread has waited long for another thread's build.
///
/// A wait that Syringe sees closing a loop is reported as a cycle at once. A wait for a
/// factory that itself blocks on something outside Syringe (`DispatchQueue.sync`, a
/// semaphore, joining a thread) cannot be told from a slow build: after ``reportDelay``
/// seconds the waiting thread prints what it waits for and who builds it, and again after six
/// times as long, then goes on waiting without further output.
enum WaitWatchdog {
    private static let lock = Lock()
    nonisolated(unsafe) private static var delay = 5.0

    /// Seconds a thread waits for another thread's build before it reports the wait. Tests
    /// shorten it.
    static var reportDelay: Double {
        get { lock.withLock { delay } }
        set { lock.withLock { delay = newValue } }
    }

    /// Writes one report to standard error. No lock of Syringe's is held.
    static func report(_ message: String) {
        var text = message + "\n"
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// When a waiting thread reports: after ``WaitWatchdog/reportDelay`` seconds, and once more
/// after six times as long.
struct WaitTimer {
    private var start: UInt64 = 0
    private var delay = 0.0
    private var reports = 0

    /// The deadline of the next report (starting the clock on the first call), or nil once
    /// both reports are made.
    mutating func nextDeadline() -> UInt64? {
        if start == 0 {
            start = monotonicNanoseconds()
            delay = WaitWatchdog.reportDelay
        }
        guard reports < 2 else { return nil }
        return start + UInt64(threshold * 1e9)
    }

    /// Notes that the deadline passed; returns how long the thread has waited, in seconds.
    mutating func reportMade() -> Double {
        defer { reports += 1 }
        return threshold
    }

    private var threshold: Double { reports == 0 ? delay : delay * 6 }
}

/// The system's id of the calling thread: what debuggers and `top -H` show (Linux's thread id,
/// Darwin's `pthread_threadid_np`).
func currentThreadID() -> UInt64 {
    #if canImport(Darwin)
        var id: UInt64 = 0
        pthread_threadid_np(nil, &id)
        return id
    #else
        return UInt64(systemThreadID())
    #endif
}

/// A running thread in messages: `thread 4242 "worker"`, or `thread 4242` when it has no name.
func threadLabel(_ thread: pthread_t, id: UInt64) -> String {
    #if canImport(Darwin)
        let number = "0x" + String(id, radix: 16)
    #else
        let number = String(id)
    #endif
    var buffer = [CChar](repeating: 0, count: 64)
    guard threadGetName(thread, &buffer, buffer.count) == 0 else { return "thread \(number)" }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? "thread \(number)" : "thread \(number) \"\(name)\""
}

#if canImport(Darwin)
    private func threadGetName(_ thread: pthread_t, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32 {
        pthread_getname_np(thread, buffer, size)
    }
#else
    /// glibc's and musl's `pthread_getname_np`, which the C module does not import.
    @_silgen_name("pthread_getname_np")
    private func threadGetName(_ thread: pthread_t, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32

    /// glibc's and musl's `gettid()`, which the C module does not import.
    @_silgen_name("gettid")
    private func systemThreadID() -> pid_t
#endif
