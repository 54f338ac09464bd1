import Dispatch
import Testing
@testable import Core

/// Core/Threads/Lock.swift, the one type the compiler takes on trust: each promise
/// its comment makes, checked; `make test` runs these under the thread
/// sanitizer too.
struct LockTests {
    /// Every change happens under the mutex: no increment is lost however
    /// many threads race.
    @Test func noChangeIsLostUnderContention() {
        let counter = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<5_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.read { $0 } == 40_000)
    }

    /// A waiter sleeps until another thread makes its condition true, and
    /// runs its body under the same lock as that check.
    @Test func waitSeesAnotherThreadsChange() {
        let state = Lock([Int]())
        let done = DispatchGroup()
        let seen = Lock([Int]())
        for consumer in 0..<4 {
            DispatchQueue.global().async(group: done) {
                let taken = state.wait(until: { $0.count > consumer }, then: { $0[consumer] })
                seen.withLock { $0.append(taken) }
            }
        }
        for value in [10, 20, 30, 40] { state.withLock { $0.append(value) } }
        done.wait()
        #expect(seen.read { $0.sorted() } == [10, 20, 30, 40])
    }

    /// A timed wait says whether the condition holds: at once when it does,
    /// false when it never does (how long it waited is not asserted).
    @Test func timedWaitReportsTheCondition() {
        let flag = Lock(false)
        #expect(flag.wait(until: { !$0 }, atMost: 0) == true)
        #expect(flag.wait(until: { $0 }, atMost: 0.01) == false)
        #expect(flag.wait(until: { $0 }, atMost: -1) == false)
    }

    /// A change from another thread ends a timed wait early with true.
    @Test func timedWaitWakesOnAChange() {
        let flag = Lock(false)
        let started = Lock(false)
        DispatchQueue.global().async {
            started.wait(until: { $0 }, then: { _ in })
            flag.withLock { $0 = true }
        }
        started.withLock { $0 = true }
        // Generous: a true result proves the wake-up, the bound only stops a bug from hanging the suite.
        #expect(flag.wait(until: { $0 }, atMost: 600) == true)
    }

    struct Refused: Error, Equatable {}

    /// A typed error leaves the body and the lock is released: the next
    /// caller gets in, and the change made before the throw stays.
    @Test func aThrowReleasesTheLock() {
        let value = Lock(1)
        #expect(throws: Refused()) {
            try value.withLock { (number: inout Int) throws(Refused) in
                number = 2
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == 2)
    }
}
