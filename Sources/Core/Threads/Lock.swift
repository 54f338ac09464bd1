#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// State shared between threads: one pthread mutex around it and one
/// condition variable to wait for it to change. The only type in the
/// product the compiler takes on trust (`@unchecked Sendable`), so it is
/// small enough to audit:
/// - `state` is read and written only inside `withLock`, `read` and
///   `wait`, with the mutex held; nothing hands out a reference to it.
/// - `State` is `Sendable`, so whatever a closure copies out of it may
///   cross threads; the closures run on the caller's thread and do not
///   escape.
/// - Every change wakes every waiter (`pthread_cond_broadcast` after each
///   `withLock` and `wait`), so no caller can forget to, and each waiter
///   tests its own condition again: a spurious wake-up is harmless.
/// - Every pthread call's result is checked: one that fails means the lock
///   is used wrongly or cannot exist (no memory for a mutex), a bug no
///   caller can handle, so the process stops with the call's name and
///   error number rather than run without mutual exclusion.
/// Tests/CoreTests/LockTests.swift checks each point; the batch and cache
/// tests run under the thread sanitizer in `make test`.
package final class Lock<State: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    package init(_ state: State) {
        self.state = state
        Self.check(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
        var attributes = pthread_condattr_t()
        Self.check(pthread_condattr_init(&attributes), "pthread_condattr_init")
        #if os(Linux)
        // Timed waits measure on the clock that never jumps (SystemClock.monotonic).
        Self.check(pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC), "pthread_condattr_setclock")
        #endif
        Self.check(pthread_cond_init(condition, &attributes), "pthread_cond_init")
        Self.check(pthread_condattr_destroy(&attributes), "pthread_condattr_destroy")
    }

    deinit {
        Self.check(pthread_cond_destroy(condition), "pthread_cond_destroy")
        Self.check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        mutex.deallocate()
        condition.deallocate()
    }

    /// Stops the process when a pthread call failed (see the type's comment).
    private static func check(_ result: Int32, _ call: StaticString) {
        if result != 0 { fatalError("Lock: \(call) failed with error \(result)") }
    }

    private func lock() { Self.check(pthread_mutex_lock(mutex), "pthread_mutex_lock") }

    /// Unlocks, then wakes every waiter (`wake`) or none.
    private func unlock(wake: Bool) {
        Self.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
        if wake { Self.check(pthread_cond_broadcast(condition), "pthread_cond_broadcast") }
    }

    /// Runs `body` with the state, then wakes every waiter.
    package func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock(wake: true) }
        return try body(&state)
    }

    /// Reads the state; nothing changes, so nobody is woken.
    package func read<T>(_ body: (State) -> T) -> T {
        lock()
        defer { unlock(wake: false) }
        return body(state)
    }

    /// Waits until `ready` holds, then runs `body`, all under the lock.
    package func wait<T>(until ready: (State) -> Bool, then body: (inout State) -> T) -> T {
        lock()
        defer { unlock(wake: true) }
        while !ready(state) { Self.check(pthread_cond_wait(condition, mutex), "pthread_cond_wait") }
        return body(&state)
    }

    /// Waits until `ready` holds or about `seconds` have passed; whether it
    /// holds. For a caller with something else to do now and then (the
    /// batch redraws its progress line).
    package func wait(until ready: (State) -> Bool, atMost seconds: Double) -> Bool {
        lock()
        defer { unlock(wake: false) }
        var deadline = Self.deadline(after: seconds)
        while !ready(state) {
            let result = Self.timedWait(condition, mutex, &deadline)
            if result == ETIMEDOUT { return ready(state) }
            Self.check(result, "pthread_cond_timedwait")
        }
        return true
    }

    #if os(Linux)
    private static func deadline(after seconds: Double) -> timespec {
        var now = timespec()
        check(clock_gettime(CLOCK_MONOTONIC, &now) == 0 ? 0 : errno, "clock_gettime")
        let nanoseconds = Int(now.tv_nsec) + Int(max(0, min(seconds, 1e6)) * 1e9)
        return timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }

    private static func timedWait(_ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>,
                                  _ deadline: inout timespec) -> Int32 {
        pthread_cond_timedwait(condition, mutex, &deadline)
    }
    #else
    /// Darwin has no CLOCK_MONOTONIC condition variables; it waits relative.
    private static func deadline(after seconds: Double) -> timespec {
        let nanoseconds = Int(max(0, min(seconds, 1e6)) * 1e9)
        return timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }

    private static func timedWait(_ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>,
                                  _ deadline: inout timespec) -> Int32 {
        pthread_cond_timedwait_relative_np(condition, mutex, &deadline)
    }
    #endif
}
