import Foundation
import ServiceConfigurationCore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Polling: the bound counts the time the poller was run, not a stall of the whole process")
struct PollingTests {
    /// The number of calls so far, shared with the condition.
    final class Calls: Sendable {
        private let count = Locked(0)
        var total: Int { count.withLock { $0 } }
        func next() -> Int {
            count.withLock {
                $0 += 1
                return $0
            }
        }
    }

    @Test("a stall longer than the bound counts as a second: the poll goes on and sees what happened after it")
    func stallCountsAsASecond() async {
        let calls = Calls()
        // A bound of 3 s: the stall counts 1 s and the next sleep at most 1 s however late it comes back (the whole
        // suite runs beside this test), so the third look always comes within the bound.
        let held = await poll(within: 3) {
            let call = calls.next()
            // The first look stands for the process being starved: 3.5 s pass before the poller runs again.
            if call == 1 { usleep(3_500_000) }
            return call == 3
        }
        #expect(held, "a wall-clock bound of 3 s would have ended after the stall, at the second look")
        #expect(calls.total == 3)
    }

    @Test("a condition that never holds ends the poll with false, having looked again after the bound")
    func neverHolds() async {
        let calls = Calls()
        let held = await poll(within: 0.2) {
            _ = calls.next()
            return false
        }
        #expect(!held)
        // At least a look within the bound and the last one after it (a loaded run sleeps far past 0.2 s at once).
        #expect(calls.total >= 2)
    }

    @Test("a cancelled task's poll looks once more and returns, instead of spinning through its bound")
    func cancelled() async {
        let calls = Calls()
        let waiting = Task {
            await poll(within: 30) {
                _ = calls.next()
                return false
            }
        }
        waiting.cancel()
        #expect(await !waiting.value)
        // A cancelled sleep returns at once: without the check the poll would look millions of times in 30 s.
        #expect(calls.total < 100)
    }
}
