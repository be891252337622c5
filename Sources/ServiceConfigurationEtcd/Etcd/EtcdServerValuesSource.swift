public import Foundation
import ServiceConfigurationCore
import ServiceConfigurationFileStore
public import ServiceConfigurationSync

/// Server values from a prefix of etcd: one key per value (`/shop/values/function.album.like.enabled` → `Y`),
/// read whole with a range, then followed with a watch.
///
/// ```swift
/// let source = try EtcdServerValuesSource(url: URL(string: "etcd://10.0.0.5:2379/shop/values")!)
/// let sync = ServerValuesSync(source: source, service: service)
/// sync.start()    // reads the prefix, then applies every change as etcd reports it
/// ```
///
/// Each fetch reads every key of the prefix (the key name is what follows the prefix; the value is its text) and
/// is refused whole, with the reason, when a key name or value is not UTF-8, a key name is empty, or the answer is
/// over ``maximumResponseSize``. The validators' ``ServerValuesValidators/etag`` holds the revision read and a
/// digest of the values: a fetch that finds the same values reports them not modified.
///
/// ``waitForChange(after:)`` watches the prefix from the revision after the last read and returns at the first
/// change, or when etcd compacted the revisions it would start from (the sync then reads the prefix again and
/// applies the difference). When the stream drops it throws: the sync marks the values stale with the reason,
/// retries with backoff, and reads again (a read that finds nothing changed is not modified) before it watches
/// from the revision of that read.
public final class EtcdServerValuesSource: ServerValuesSource {
    /// The source's address, without credentials: `etcd://HOST:PORT/PREFIX`.
    public let url: URL
    /// The longest a read may take.
    public let timeout: Duration
    /// The largest answer accepted, in bytes (keys and values travel as base64 inside JSON: about 4/3 of their size).
    public let maximumResponseSize: Int
    package let client: EtcdClient
    private let queue = DispatchQueue(label: "EtcdServerValuesSource.watch")

    /// The default answer limit: 16 MiB.
    public static let defaultMaximumResponseSize = 16 << 20

    /// Creates a source for `etcd://[USER:PASSWORD@]HOST[:PORT]/PREFIX` (`etcds://` for HTTPS). Nothing is read
    /// until a sync asks. Credentials the URL does not hold come from `CONFIG_ETCD_USER` (`USER:PASSWORD`) or
    /// `CONFIG_ETCD_TOKEN` in `environment`; for `etcds://`, `CONFIG_ETCD_CA_FILE` names the PEM file of certificate
    /// authorities to trust instead of the system's.
    ///
    /// - Throws: ``ServerSyncError`` (``ServerSyncError/Kind/notConfigured``) for a URL that names no etcd prefix, or
    ///   a CA file that cannot be read.
    public init(
        url: URL, timeout: Duration = .seconds(10),
        maximumResponseSize: Int = EtcdServerValuesSource.defaultMaximumResponseSize,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ServerSyncError) {
        let endpoint: EtcdEndpoint
        do {
            endpoint = try EtcdEndpoint(url: url, environment: environment)
        } catch {
            throw ServerSyncError(kind: .notConfigured, reason: error.reason)
        }
        client = EtcdClient(endpoint: endpoint, timeout: timeout, maximumResponseSize: maximumResponseSize)
        self.url = URL(string: endpoint.location) ?? url
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// `etcd://HOST:PORT/PREFIX`.
    public var location: String { client.endpoint.location }

    /// Reads every key of the prefix; not modified when the values are those `validators` describe.
    public func fetch(ifChangedSince validators: ServerValuesValidators) async throws(ServerSyncError)
        -> ServerValuesFetch
    {
        let client = self.client
        let range: EtcdRange
        do {
            range = try await client.perform { cancellation throws(EtcdError) in
                try client.range(cancellation: cancellation)
            }
        } catch {
            throw Self.syncError(error)
        }
        var values: [String: String] = [:]
        values.reserveCapacity(range.keyValues.count)
        for keyValue in range.keyValues {
            let name = client.endpoint.name(ofKey: keyValue.key) ?? ""
            guard client.endpoint.isValidName(keyValue.key) else {
                throw ServerSyncError(
                    kind: .invalidResponse,
                    reason: "the etcd key \(Self.quoted(keyValue.key)) under the prefix is not UTF-8; refused whole")
            }
            guard !name.isEmpty else {
                throw ServerSyncError(
                    kind: .invalidResponse,
                    reason: "the etcd key \(Self.quoted(keyValue.key)) is the prefix itself, with no key name; "
                        + "refused whole")
            }
            guard let value = String(validating: keyValue.value, as: UTF8.self) else {
                throw ServerSyncError(
                    kind: .invalidResponse,
                    reason: "the value of \(name) is not UTF-8 text (\(ByteCount.describe(keyValue.value.count))); "
                        + "refused whole")
            }
            values[name] = value
        }
        let digest = Self.digest(values)
        let received = ServerValuesValidators(etag: "\(range.revision):\(digest)")
        if let previous = validators.etag, previous.split(separator: ":").last.map(String.init) == digest {
            return .notModified(validators: received)
        }
        return .values(values, validators: received)
    }

    /// True: changes arrive through a watch.
    public var pushesChanges: Bool { true }

    /// Returns at the first change after the revision `validators` hold (or when those revisions were compacted,
    /// or etcd's history went back); throws when the watch fails.
    public func waitForChange(after validators: ServerValuesValidators) async throws(ServerSyncError) {
        guard let etag = validators.etag, let revision = Int64(etag.split(separator: ":").first ?? "") else {
            return  // nothing says which revision was read: read again
        }
        let waiter = EtcdChangeWaiter()
        let client = self.client
        let queue = self.queue
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.begin(continuation) {
                    client.watch(from: revision + 1, on: queue) { message in
                        switch message {
                        case .success(.events), .success(.compacted):
                            waiter.finish(.success(()))
                        case .success(.created(let now, _)) where now < revision:
                            waiter.finish(.success(()))  // a new cluster at the same address: read it
                        case .success(.created), .success(.progress):
                            break
                        case .success(.cancelled(let reason)):
                            waiter.finish(.failure(EtcdError(.refused, "etcd ended the watch: \(reason)")))
                        case .failure(let error):
                            waiter.finish(.failure(error))
                        }
                    }
                }
            }
        } onCancel: {
            waiter.finish(.failure(.cancelled))
        }
        if case .failure(let error) = result {
            throw error.kind == .cancelled ? ServerSyncError.stopped : Self.syncError(error, watching: true)
        }
    }

    /// An etcd failure as a sync failure.
    static func syncError(_ error: EtcdError, watching: Bool = false) -> ServerSyncError {
        let reason = watching ? "the watch failed: \(error.reason)" : error.reason
        switch error.kind {
        case .unreachable: return ServerSyncError(kind: .unreachable, reason: reason)
        case .timedOut, .outcomeUnknown: return ServerSyncError(kind: .timedOut, reason: reason)
        case .refused, .unauthenticated: return ServerSyncError(kind: .httpStatus, reason: "etcd: \(reason)")
        case .invalidResponse, .compacted: return ServerSyncError(kind: .invalidResponse, reason: reason)
        case .tooLarge: return ServerSyncError(kind: .tooLarge, reason: reason)
        case .cancelled: return .stopped
        case .notConfigured: return ServerSyncError(kind: .notConfigured, reason: reason)
        }
    }

    /// A 64-bit FNV-1a digest of the values in key order, in hexadecimal: the same values give the same digest.
    static func digest(_ values: [String: String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            hash ^= 0xFF  // a separator no UTF-8 text holds
            hash = hash &* 0x0000_0100_0000_01B3
        }
        for (key, value) in values.sorted(by: { OverrideDocument.precedes($0.key, $1.key) }) {
            mix(key)
            mix(value)
        }
        return String(hash, radix: 16)
    }

    /// A key's bytes for a message, with bytes that are not UTF-8 replaced.
    private static func quoted(_ key: [UInt8]) -> String {
        "\"" + String(decoding: key.prefix(200), as: UTF8.self) + "\""
    }
}

/// The one wait of ``EtcdServerValuesSource/waitForChange(after:)``: holds the watch and resumes the waiting task
/// once, whichever comes first (a change, a failure, cancellation).
private final class EtcdChangeWaiter: Sendable {
    private struct State: Sendable {
        var continuation: CheckedContinuation<Result<Void, EtcdError>, Never>?
        var outcome: Result<Void, EtcdError>?
        var watch: EtcdWatch?
    }

    private let state = Locked(State())

    /// Stores the continuation and starts the watch, unless the wait already ended (cancelled before it began).
    func begin(
        _ continuation: CheckedContinuation<Result<Void, EtcdError>, Never>, watch start: () -> EtcdWatch
    ) {
        let ended = state.withLock { state -> Result<Void, EtcdError>? in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let ended { return continuation.resume(returning: ended) }
        let watch = start()
        let late = state.withLock { state -> Bool in
            guard state.outcome == nil else { return true }
            state.watch = watch
            return false
        }
        if late { watch.cancel() }
    }

    /// Ends the wait with `outcome` (the first call wins) and stops the watch.
    func finish(_ outcome: Result<Void, EtcdError>) {
        let (continuation, watch) = state.withLock { state in
            guard state.outcome == nil else {
                return (nil, nil) as (CheckedContinuation<Result<Void, EtcdError>, Never>?, EtcdWatch?)
            }
            state.outcome = outcome
            defer {
                state.continuation = nil
                state.watch = nil
            }
            return (state.continuation, state.watch)
        }
        watch?.cancel()
        continuation?.resume(returning: outcome)
    }
}
