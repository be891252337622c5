import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport

/// Shortcuts for the sync suites.
enum SyncFixture {
    static let flag = ConfigurationScopes.Fixture.FlagKey.name
    static let count = ConfigurationScopes.Fixture.CountKey.name
    static let greeting = ConfigurationScopes.Fixture.GreetingKey.name

    /// The snapshot file in `folder`.
    static func snapshotURL(in folder: TemporaryFolder) -> URL {
        folder.url.appendingPathComponent(ServerSnapshotLocation.fileName)
    }

    /// The snapshot on disk, parsed (`nil` when there is none).
    static func snapshot(at url: URL) throws -> ServerValuesSnapshot? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try ServerValuesSnapshot(parsing: [UInt8](data))
    }

    /// A sync of `url` into `service` with its snapshot at `snapshot`, with a short timeout.
    static func sync(
        _ url: URL, service: (any ConfigurationService)?, snapshot: URL?, timeout: Duration = .seconds(5),
        interval: Duration? = nil, environment: ServerSyncEnvironment = .live
    ) -> ServerValuesSync {
        ServerValuesSync(
            source: HTTPServerValuesSource(url: url, timeout: timeout), service: service, snapshotURL: snapshot,
            interval: interval, environment: environment)
    }
}

/// Durations a test's sleep was asked for; the sleep returns at once (so the schedule runs without waiting)
/// until `limit` calls, then waits until cancelled.
final class SleepRecorder: Sendable {
    private let recorded = Locked<[Duration]>([])
    private let limit: Int
    private let onSleep: @Sendable (Int) -> Void

    init(limit: Int, onSleep: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.limit = limit
        self.onSleep = onSleep
    }

    var delays: [Duration] { recorded.withLock { $0 } }

    /// An environment whose sleep records here, with a clock of real dates and `random` for the jitter.
    func environment(random: @escaping @Sendable () -> Double) -> ServerSyncEnvironment {
        ServerSyncEnvironment(
            now: { Date() },
            sleep: { [self] duration in
                let count = recorded.withLock { recorded -> Int in
                    recorded.append(duration)
                    return recorded.count
                }
                onSleep(count)
                if count >= limit { try await Task.sleep(for: .seconds(3600)) }
            },
            random: random)
    }
}

/// Waits (polling, for `seconds` of polling; see ``poll(within:every:_:)`` for how a starved process is counted)
/// until `condition` holds. The bound is generous: the whole suite runs its tests in parallel on two cores (and CI runs
/// it again under ThreadSanitizer), so a schedule of nine quick attempts can take many seconds there. Only a failing
/// wait takes the whole bound.
func pollUntil(within seconds: Double = 180, _ condition: () async -> Bool) async -> Bool {
    await poll(within: seconds, every: .milliseconds(10), condition)
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
