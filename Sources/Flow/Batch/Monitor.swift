#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex and one condition variable around some state: the batch's job
/// queue and its finished results. Everything that touches the state does
/// so inside `locked`, and wakes the others with `broadcast`.
final class Monitor<State>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    func locked<T>(_ body: (inout State) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state)
    }

    /// Waits until `ready` holds, then runs `body`, all under the lock.
    /// `timeout` bounds each wait (seconds), so a caller can redraw progress.
    func when<T>(_ ready: (State) -> Bool, timeout: Double? = nil, _ body: (inout State) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if !ready(state) {
            if let timeout {
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                let nanoseconds = Int(now.tv_nsec) + Int(timeout * 1e9)
                var deadline = timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
                _ = pthread_cond_timedwait(condition, mutex, &deadline)
            } else {
                while !ready(state) { pthread_cond_wait(condition, mutex) }
            }
        }
        return body(&state)
    }

    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
