import Foundation
import ServiceConfiguration

/// Says when the override store stops working for the demo — it cannot be read or written, or changes made
/// elsewhere stop arriving (an etcd that is down or hangs) — and when it works again: a running program's output is
/// where the person running it looks. Server values say the same through their status (``DemoServerSync``).
enum DemoStoreHealth {
    /// Looks at `store` every second from now on; keep the returned timer.
    static func start(_ store: any OverrideStore, say: @escaping @Sendable (String) -> Void) -> any DispatchSourceTimer
    {
        let last = Locked<String?>(problem(store))
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler {
            let now = problem(store)
            let before = last.withLock { last -> String? in
                defer { last = now }
                return last
            }
            // Only the start and the end of a problem: its text changes while it lasts (the next retry's time).
            if before == nil, let now {
                say("\(DemoServerSync.clock()) store problem: \(now)")
            } else if before != nil, now == nil {
                say("\(DemoServerSync.clock()) store: working again (\(store.location))")
            }
        }
        timer.resume()
        return timer
    }

    /// What is wrong with `store` now, if anything.
    static func problem(_ store: any OverrideStore) -> String? {
        store.lastError?.description ?? store.liveReloadProblem.map { "live reload degraded: " + $0 }
    }
}
