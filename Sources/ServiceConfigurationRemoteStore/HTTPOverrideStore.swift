public import Foundation
public import ServiceConfigurationCore
import ServiceConfigurationFileStore
import ServiceConfigurationFiles
import ServiceConfigurationSync

/// The override store of a `config-menu serve` on another machine, reached over HTTP: a program on a phone uses the
/// QA laptop's store, and a value changed in the menu there applies in the program within moments.
///
/// ```swift
/// let store = try HTTPOverrideStore(url: URL(string: "http://192.168.1.20:8016")!)   // CONFIG_OVERRIDES_TOKEN
/// let service = LiveConfigurationService(catalog: catalog, overrideStore: store)      // reads, then follows changes
/// ```
///
/// Programs get one with `CONFIG_OVERRIDES_STORE=http://HOST:PORT`, the tools with `--store http://HOST:PORT`
/// (`OverrideStores.store(for:environment:)`). The server keeps the store (normally its file, with its history);
/// this store holds the entries last read, in memory:
/// - **No lost writes**: ``modify(_:)`` sends the complete new entries with the revision they were made from
///   (`If-Match`); the server applies them only if its store still has that revision, else answers with what it now
///   holds, and the change is made again from that (for at most ``conflictTimeout``).
/// - **Live**: ``startWatching(_:)`` follows the server's change stream (`/store/v1/events`) on a thread of its own
///   and reads the entries again after each change; when the stream breaks, ``liveReloadProblem`` says so while it
///   is set up again.
/// - **Offline**: when the server cannot be reached the entries last read keep applying, and changes fail with
///   ``OverrideStoreError/Kind/io`` saying they were not saved. A change sent whose answer never came (the server
///   stopped while answering, a timeout) fails with ``OverrideStoreError/Kind/outcomeUnknown``: it may have been
///   saved; the next read tells.
///
/// The token of a server that needs one comes from `CONFIG_OVERRIDES_TOKEN` and travels as `Authorization: Bearer`
/// (in clear over `http://`: use a network you trust, or `https://` through a proxy that terminates TLS). Entries
/// travel exactly as the store file holds them, so fields this build does not know round-trip. The store keeps no
/// history of its own (the server's store does, naming this store's ``origin``); ``problems`` are the server
/// store's.
public final class HTTPOverrideStore: OverrideStore {
    /// The environment variable holding the server's token (`config-menu serve` prints it, or reads it with
    /// `--token-file`).
    public static let tokenEnvironmentVariable = "CONFIG_OVERRIDES_TOKEN"
    /// The environment variable naming a PEM file of the certificate authorities to trust for `https://` instead of the
    /// system's.
    public static let certificateAuthorityEnvironmentVariable = "CONFIG_OVERRIDES_CA_FILE"
    /// How long a change keeps being made again while other writers change the store first (each attempt is one
    /// round trip); then it fails, saying so. Bounded by time, not by a count: while many writers race, one may lose
    /// many rounds in a row, and only the end of the race ends that.
    public static let conflictTimeout: Duration = .seconds(10)

    /// The server's address, without credentials: `http://HOST:PORT`.
    public let url: URL
    /// Who this store's changes are recorded as made by (sent with each change; the server's history names it).
    public let origin: OverrideChangeOrigin

    private let overridesURL: URL
    private let eventsURL: URL
    private let token: String?
    private let certificateAuthorityFile: String?
    private let timeout: Duration
    private let transport: any HTTPTransport

    private struct State: Sendable {
        var entries: [String: OverrideEntry] = [:]
        var revision: String?
        var problems: [OverrideStoreProblem] = []
        var lastError: OverrideStoreError?
        var liveReloadProblem: String?
        var watching: HTTPCancellation?
    }

    private let state = Locked(State())
    private let observers = ObserverRegistry<OverrideStoreChange>()

    /// Creates a store for the `config-menu serve` at `url` (`http://HOST:PORT` or `https://HOST:PORT`). Nothing is
    /// read until the first ``reload()`` or change.
    ///
    /// - Parameters:
    ///   - url: the server's address; a path, if any, is the prefix its routes are under (a proxy's).
    ///   - token: the server's token; `nil` reads `CONFIG_OVERRIDES_TOKEN` from `environment`.
    ///   - timeout: the longest one request may take.
    ///   - origin: who the changes are recorded as made by.
    ///   - environment: where `CONFIG_OVERRIDES_TOKEN` and `CONFIG_OVERRIDES_CA_FILE` are read.
    /// - Throws: ``OverrideStoreError`` (``OverrideStoreError/Kind/io``) for a URL that is not `http` or `https` or
    ///   names no host.
    public init(
        url: URL, token: String? = nil, timeout: Duration = .seconds(10), origin: OverrideChangeOrigin = .program(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(OverrideStoreError) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else {
            throw OverrideStoreError(
                url: url, kind: .io,
                problem: "not a server's address; expected http://HOST:PORT or https://HOST:PORT (config-menu serve)")
        }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        while components.path.hasSuffix("/") { components.path.removeLast() }
        let base = components.url ?? url
        self.url = base
        overridesURL = URL(string: base.absoluteString + "/store/v1/overrides") ?? base
        eventsURL = URL(string: base.absoluteString + "/store/v1/events") ?? base
        self.token = token ?? environment[Self.tokenEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        certificateAuthorityFile = environment[Self.certificateAuthorityEnvironmentVariable].flatMap {
            $0.isEmpty ? nil : $0
        }
        self.timeout = timeout
        self.origin = origin
        transport = HTTPTransports.system()
    }

    deinit {
        let watching = state.withLock { $0.watching }
        watching?.cancel()
    }

    // MARK: Reading

    /// `http://HOST:PORT`.
    public var location: String { url.absoluteString }

    /// The overrides as last read or written.
    public var entries: [String: OverrideEntry] { state.withLock { $0.entries } }

    /// The override of `key`, as last read or written.
    public func entry(forKey key: String) -> OverrideEntry? { state.withLock { $0.entries[key] } }

    /// The entries the server's store keeps without applying them, and metadata it could not read, as last read.
    public var problems: [OverrideStoreProblem] { state.withLock { $0.problems } }

    /// The last problem reading or writing, or `nil` when the last read or write succeeded; a problem of the server's
    /// own store (a corrupt file) comes with its kind, after `the served store:`.
    public var lastError: OverrideStoreError? { state.withLock { $0.lastError } }

    /// Why changes made on the server are not arriving now (its change stream broke and is being set up again).
    public var liveReloadProblem: String? { state.withLock { $0.liveReloadProblem } }

    /// Reads the entries from the server and notifies observers of the keys that changed; returns the problem, if
    /// any (the server's, or its store's). When the server cannot be reached the entries last read stay.
    @discardableResult
    public func reload() -> OverrideStoreError? {
        do throws(OverrideStoreError) {
            let read = try fetch()
            apply(read)
            // A corrupt file moved aside is a notice (kept in lastError), not a problem of this read.
            return read.storeError?.preservedAt == nil ? read.storeError : nil
        } catch {
            state.withLock { $0.lastError = error }
            return error
        }
    }

    /// What the server answers with: its entries, their revision, its problems.
    private struct Read: Sendable {
        var entries: [String: OverrideEntry]
        var revision: String
        var problems: [OverrideStoreProblem]
        /// Why the server's store could not be read or written as a whole, if so.
        var storeError: OverrideStoreError? = nil
    }

    /// The entries and revision the server holds now.
    private func fetch() throws(OverrideStoreError) -> Read {
        let response: HTTPResponse
        do {
            response = try exchange(request("GET", overridesURL))
        } catch {
            throw OverrideStoreError(
                url: url, kind: .io, problem: "cannot read the overrides: \(error.reason)\(Self.keptNote)")
        }
        guard response.head.status == 200 else {
            throw statusError(response, doing: "cannot read the overrides", suffix: Self.keptNote)
        }
        return try parse(response.body)
    }

    private static let keptNote = "; the overrides last read keep applying"

    /// `{"revision": REV, "entries": {KEY: ENTRY, …}, "problems": […]}`.
    private func parse(_ body: Data) throws(OverrideStoreError) -> Read {
        let invalid = OverrideStoreError(
            url: url, kind: .io,
            problem: "the server's answer is not a store's overrides (is it a config-menu serve?)\(Self.keptNote)")
        guard case .object(let members)? = try? StrictJSON.parse(Array(body), maximumDepth: 64),
            case .string(let revision)? = members.first(where: { $0.key == "revision" })?.value,
            case .object(let entryMembers)? = members.first(where: { $0.key == "entries" })?.value
        else { throw invalid }
        var entries: [String: OverrideEntry] = [:]
        for member in entryMembers {
            var bytes: [UInt8] = []
            JSONWriter.append(member.value, to: &bytes)
            if case .usable(let entry, _) = OverrideDocument.readEntry(bytes, key: member.key) {
                entries[member.key] = entry
            }
        }
        var problems: [OverrideStoreProblem] = []
        if case .array(let listed)? = members.first(where: { $0.key == "problems" })?.value {
            for case .object(let fields) in listed {
                func text(_ name: String) -> String? {
                    guard case .string(let value)? = fields.first(where: { $0.key == name })?.value else { return nil }
                    return value
                }
                guard let key = text("key"), let reason = text("reason") else { continue }
                problems.append(
                    OverrideStoreProblem(
                        key: key, field: text("field"), reason: reason, storedJSON: text("storedJSON") ?? ""))
            }
        }
        var storeError: OverrideStoreError?
        if case .object(let fields)? = members.first(where: { $0.key == "storeError" })?.value,
            case .string(let problem)? = fields.first(where: { $0.key == "problem" })?.value
        {
            var kind = OverrideStoreError.Kind.io
            if case .string(let name)? = fields.first(where: { $0.key == "kind" })?.value {
                kind = OverrideStoreError.Kind(rawValue: name) ?? .io
            }
            var preservedAt: URL?
            if case .string(let path)? = fields.first(where: { $0.key == "preservedAt" })?.value {
                preservedAt = URL(fileURLWithPath: path)
            }
            storeError = OverrideStoreError(
                url: url, kind: kind, problem: "the served store: \(problem)", preservedAt: preservedAt)
        }
        return Read(entries: entries, revision: revision, problems: problems, storeError: storeError)
    }

    /// Takes what the server answered as the store's, and notifies observers of the keys that changed.
    private func apply(_ read: Read) {
        let (entries, revision) = (read.entries, read.revision)
        let change = state.withLock { state -> OverrideStoreChange? in
            state.problems = read.problems
            state.lastError = read.storeError
            var changes: [String: OverrideEntry?] = [:]
            for key in Set(state.entries.keys).union(entries.keys) where state.entries[key] != entries[key] {
                changes[key] = entries[key]
            }
            state.entries = entries
            state.revision = revision
            return changes.isEmpty ? nil : OverrideStoreChange(changes: changes)
        }
        if let change { observers.notify(change) }
    }

    // MARK: Changing

    /// Changes the overrides with `body` as one change, saved on the server before returning.
    public func modify(_ body: (inout [String: OverrideEntry]) throws -> Void) throws(OverrideStoreError) {
        try modify(.change, body)
    }

    /// ``modify(_:)``, recorded in the server's history with `reason` and this store's ``origin``.
    ///
    /// `body` runs on the entries last known; when the server's store changed since (another writer), the server
    /// refuses the change, answers with what it holds, and `body` runs again on that, for at most
    /// ``conflictTimeout``.
    public func modify(
        _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        var known: Read? = state.withLock { state in
            state.revision.map { Read(entries: state.entries, revision: $0, problems: state.problems) }
        }
        var attempt = 0
        let started = ContinuousClock.now
        while true {
            let fresh = known == nil
            let base: [String: OverrideEntry]
            let revision: String
            if let known {
                (base, revision) = (known.entries, known.revision)
            } else {
                let read = try recorded { () throws(OverrideStoreError) in try fetch() }
                apply(read)
                (base, revision) = (read.entries, read.revision)
            }
            var changed = base
            do {
                try body(&changed)
            } catch {
                throw OverrideStoreError(url: url, kind: .io, problem: "the change was refused: \(error)")
            }
            for key in Set(base.keys).union(changed.keys) where base[key] != changed[key] {
                if let entry = changed[key], let violation = OverrideStoreLimits.violation(key: key, entry: entry) {
                    throw OverrideStoreError(url: url, kind: .limitExceeded, problem: violation + "; nothing was saved")
                }
            }
            guard changed != base else {
                if fresh { return }
                known = nil  // no change from what was last read: make sure that is still what the server holds
                continue
            }
            attempt += 1
            let response = try recorded { () throws(OverrideStoreError) in try send(changed, revision, reason) }
            switch response.head.status {
            case 200:
                apply(try recorded { () throws(OverrideStoreError) in try parse(response.body) })
                return
            case 412:
                let current = try recorded { () throws(OverrideStoreError) in try parse(response.body) }
                apply(current)
                guard ContinuousClock.now - started < Self.conflictTimeout else {
                    throw record(
                        OverrideStoreError(
                            url: url, kind: .io,
                            problem:
                                "not saved: other writers changed the overrides \(attempt) times while this change "
                                + "was being made (for \(Self.conflictTimeout)); try again"))
                }
                known = current
                // A pause of a few milliseconds, growing and random, so racing writers stop colliding.
                Thread.sleep(forTimeInterval: Double.random(in: 0...0.002 * Double(min(attempt, 25))))
            default:
                throw record(statusError(response, doing: "not saved", suffix: ""))
            }
        }
    }

    /// POSTs the complete new entries, made from `revision`.
    private func send(
        _ entries: [String: OverrideEntry], _ revision: String, _ reason: OverrideChangeReason
    ) throws(OverrideStoreError) -> HTTPResponse {
        var body = Array(#"{"entries":{"#.utf8)
        for (index, key) in entries.keys.sorted().enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(key, to: &body)
            body.append(UInt8(ascii: ":"))
            body += OverrideDocument.encodedEntry(entries[key]!)
        }
        body += Array("},\"reason\":".utf8)
        var fields: [(key: String, value: JSONValue)] = [
            ("action", .string(reason.action.rawValue)), ("origin", .string(origin.description)),
        ]
        if let detail = reason.detail { fields.append(("detail", .string(detail))) }
        if let undoes = reason.undoes { fields.append(("undoes", .string(undoes))) }
        JSONWriter.append(.object(fields), to: &body)
        body.append(UInt8(ascii: "}"))
        var change = request("POST", overridesURL, body: body)
        change.headers.append(HTTPHeader("If-Match", "\"\(revision)\""))
        return try post(change)
    }

    /// Sends a change; a failure says whether it may have landed.
    private func post(_ post: HTTPRequest) throws(OverrideStoreError) -> HTTPResponse {
        var post = post
        post.headers.append(HTTPHeader("Content-Type", "application/json"))
        do {
            return try exchange(post)
        } catch {
            guard Self.neverSent(error) else {
                throw OverrideStoreError(
                    url: url, kind: .outcomeUnknown,
                    problem:
                        "the change was sent but no answer came (\(error.reason)): it may have been saved or not; "
                        + "read the store again to know")
            }
            throw OverrideStoreError(
                url: url, kind: .io, problem: "not saved: the server cannot be reached: \(error.reason)")
        }
    }

    /// Sends `request`; an answer that the server is busy (429 over its rate, 503 with too many connections, both
    /// before reading the request) is waited out as `Retry-After` says (at most a second each time), for up to
    /// ``busyTimeout``.
    private func exchange(_ request: HTTPRequest) throws(HTTPTransportError) -> HTTPResponse {
        let started = ContinuousClock.now
        while true {
            let response = try transport.fetch(request, cancellation: nil)
            guard response.head.status == 429 || response.head.status == 503,
                ContinuousClock.now - started < Self.busyTimeout
            else { return response }
            let wait = response.head.header("Retry-After").flatMap(Double.init) ?? 0.2
            Thread.sleep(forTimeInterval: min(max(wait, 0.05), 1) * Double.random(in: 0.5...1))
        }
    }

    /// How long a request waits out a busy server.
    static let busyTimeout: Duration = .seconds(5)

    /// Whether a failed exchange certainly never reached the server (no connection was made).
    private static func neverSent(_ error: HTTPTransportError) -> Bool {
        switch error.kind {
        case .insecure, .invalidRequest, .redirectRefused: return true
        case .unreachable:
            return ["connection refused", "no route to", "cannot connect to", "unknown host", "unknown proxy"].contains
            {
                error.reason.hasPrefix($0)
            }
        default: return false
        }
    }

    /// The error an answer other than 200 stands for.
    private func statusError(_ response: HTTPResponse, doing: String, suffix: String) -> OverrideStoreError {
        var details = ""
        if case .object(let members)? = try? StrictJSON.parse(Array(response.body.prefix(64 * 1024))),
            case .string(let text)? = members.first(where: { $0.key == "errorDetails" })?.value
        {
            details = VisibleText.escaped(text)
        }
        let status = response.head.status
        switch status {
        case 401:
            return OverrideStoreError(
                url: url, kind: .io,
                problem:
                    "\(doing): the server refused the token (HTTP 401); set \(Self.tokenEnvironmentVariable) to the "
                    + "token config-menu serve printed\(suffix)")
        case 403:
            return OverrideStoreError(
                url: url, kind: .io,
                problem:
                    "\(doing): the server is read-only (HTTP 403)\(details.isEmpty ? "" : ": \(details)")\(suffix)")
        case 404:
            return OverrideStoreError(
                url: url, kind: .io,
                problem: "\(doing): the server serves no override store (HTTP 404; is it config-menu serve?)\(suffix)")
        case 413:
            return OverrideStoreError(
                url: url, kind: .limitExceeded,
                problem: "\(doing): \(details.isEmpty ? "the change is too large (HTTP 413)" : details)\(suffix)")
        default:
            return OverrideStoreError(
                url: url, kind: .io,
                problem:
                    "\(doing): the server answered \(response.head.statusDescription)"
                    + "\(details.isEmpty ? "" : ": \(details)")\(suffix)")
        }
    }

    private func record(_ error: OverrideStoreError) -> OverrideStoreError {
        state.withLock { $0.lastError = error }
        return error
    }

    private func recorded<T>(_ body: () throws(OverrideStoreError) -> T) throws(OverrideStoreError) -> T {
        do {
            return try body()
        } catch {
            throw record(error)
        }
    }

    /// Removes the override of `key`, including an entry the server's store keeps without applying it.
    public func removeValue(forKey key: String) throws(OverrideStoreError) {
        var body: [UInt8] = []
        JSONWriter.append(.object([("remove", .string(key))]), to: &body)
        try remove(body)
    }

    /// Removes every override, including entries the server's store keeps without applying them.
    public func removeAll() throws(OverrideStoreError) {
        try remove(Array(#"{"removeAll": true}"#.utf8))
    }

    /// Sends a removal, which needs no revision: removing is the same whatever the store holds.
    private func remove(_ body: [UInt8]) throws(OverrideStoreError) {
        let response = try recorded { () throws(OverrideStoreError) in
            try post(request("POST", overridesURL, body: body))
        }
        guard response.head.status == 200 else { throw record(statusError(response, doing: "not saved", suffix: "")) }
        apply(try recorded { () throws(OverrideStoreError) in try parse(response.body) })
    }

    /// Calls `handler` after every change, made here or read from the server, with the keys that changed.
    public func observe(_ handler: @escaping @Sendable (OverrideStoreChange) -> Void) -> ConfigurationObservation {
        observers.add(handler)
    }

    // MARK: Watching

    /// Follows the server's change stream on a thread of its own (whatever `mode`), reading the entries again after
    /// each change; returns the mechanism.
    @discardableResult
    public func startWatching(_ mode: OverrideStoreWatchMode) -> String {
        let description = "server-sent events from \(eventsURL.absoluteString)"
        let cancellation = HTTPCancellation()
        let started = state.withLock { state -> Bool in
            guard state.watching == nil else { return false }
            state.watching = cancellation
            return true
        }
        guard started else { return description }
        var stream = request("GET", eventsURL)
        stream.timeout = nil
        stream.silenceLimit = .seconds(45)
        stream.headers.append(HTTPHeader("Accept", "text/event-stream"))
        let weak = WeakStore(store: self)
        let (transport, events, streamRequest) = (transport, eventsURL.absoluteString, stream)
        let thread = Thread {
            var delay = 0.25
            while !cancellation.isCancelled {
                let reason = Self.follow(streamRequest, transport: transport, store: weak, cancellation: cancellation)
                guard !cancellation.isCancelled, let store = weak.store else { return }
                if reason == nil { delay = 0.25 }
                store.state.withLock {
                    $0.liveReloadProblem =
                        "changes made on the server are not arriving: the change stream \(events) "
                        + "\(reason ?? "ended"); trying again"
                }
                let until = Date().addingTimeInterval(delay)
                while Date() < until, !cancellation.isCancelled { Thread.sleep(forTimeInterval: 0.05) }
                delay = min(delay * 2, 5)
            }
        }
        thread.name = "HTTPOverrideStore.watch"
        thread.start()
        return description
    }

    /// A reference to the store that does not keep it alive.
    private struct WeakStore: Sendable {
        weak var store: HTTPOverrideStore?
    }

    /// Reads the change stream until it ends; returns why it failed (`nil`: it was open and then ended).
    private static func follow(
        _ request: HTTPRequest, transport: any HTTPTransport, store: WeakStore, cancellation: HTTPCancellation
    ) -> String? {
        var parser = EventStreamParser()
        var failure: String?
        var opened = false
        let receiver = HTTPReceiver(
            head: { head in
                guard head.status == 200,
                    head.header("Content-Type")?.lowercased().hasPrefix("text/event-stream") == true
                else {
                    failure =
                        head.status == 401
                        ? "refused the token (HTTP 401; set \(tokenEnvironmentVariable))"
                        : "answered \(head.statusDescription)"
                    return false
                }
                opened = true
                return true
            },
            body: { bytes in
                do throws(ServerSyncError) {
                    for event in try parser.feed(bytes) where event.name == "ready" || event.name == "store-changed" {
                        guard let store = store.store else { return false }
                        let known = store.state.withLock { $0.revision }
                        if event.etag == nil || event.etag != known {
                            if let error = store.reload() {
                                failure = "was followed, but reading the overrides failed: \(error.problem)"
                                return false
                            }
                        }
                        if event.name == "ready" { store.state.withLock { $0.liveReloadProblem = nil } }
                    }
                    return store.store != nil
                } catch {
                    failure = error.reason
                    return false
                }
            })
        do {
            _ = try transport.send(request, cancellation: cancellation, receiver: receiver)
            return failure
        } catch {
            return failure ?? (opened ? "broke: \(error.reason)" : "cannot be reached: \(error.reason)")
        }
    }

    /// A request to the server, with the token and the bounds.
    private func request(_ method: String, _ target: URL, body: [UInt8] = []) -> HTTPRequest {
        var request = HTTPRequest(
            method: method, url: target, body: body, timeout: timeout,
            maximumBodySize: 2 * OverrideStoreLimits.maximumFileSize, redirects: .none,
            certificateAuthorityFile: certificateAuthorityFile)
        request.headers.append(HTTPHeader("Accept", "application/json"))
        if let token { request.headers.append(HTTPHeader("Authorization", "Bearer \(token)")) }
        return request
    }
}
