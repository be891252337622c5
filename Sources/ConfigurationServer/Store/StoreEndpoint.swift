import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// `config-menu serve`'s override store: the store the command opened (normally a file store, which keeps the
/// journal since it is the one writer), read and changed over HTTP by `HTTPOverrideStore` on other devices.
///
/// - `GET /store/v1/overrides`: `{"revision": REV, "entries": {KEY: ENTRY, …}, "problems": […]}`, each entry exactly
///   as a line of the store file holds it, and the entries the store keeps without applying them; the revision (a
///   digest of the entries) is also the ETag.
/// - `POST /store/v1/overrides` with `If-Match: REV` and `{"entries": {…}, "reason": {"action": …, "detail": …,
///   "origin": …}}`: the complete new entries, applied with the store's `modify` only if the entries there still have
///   revision `REV` (compared inside `modify`, so under the store's lock): 200 with the new state, else 412 with the
///   current one. `{"remove": KEY}` and `{"removeAll": true}` (no `If-Match`) remove a key or everything, entries the
///   store quarantined included, as the store's `removeValue(forKey:)` and `removeAll()` do. 403 when the server is
///   read-only.
/// - `GET /store/v1/events`: server-sent events: `ready` at once and `store-changed` after each change, each with
///   `{"revision": REV}`, a comment every 15 seconds when quiet.
///
/// No request names a file: the store is the one the command opened.
package final class StoreEndpoint: Sendable {
    /// The entries and their revision.
    package static let overridesPath = "/store/v1/overrides"
    /// The change stream.
    package static let eventsPath = "/store/v1/events"
    /// The largest request body accepted on the store's routes: the file store's size limit.
    package static let bodyLimit = OverrideStoreLimits.maximumFileSize

    private let store: any OverrideStore
    private let readOnly: Bool
    private let generation = Locked<UInt64>(0)
    private let observation = Locked<ConfigurationObservation?>(nil)

    /// Serves `store`; with `readOnly`, every change is refused with 403.
    package init(store: any OverrideStore, readOnly: Bool) {
        self.store = store
        self.readOnly = readOnly
        let generation = self.generation
        observation.withLock { $0 = store.observe { _ in generation.withLock { $0 &+= 1 } } }
    }

    /// Stops following the store's changes.
    package func stop() {
        observation.withLock { $0 = nil }
    }

    /// Whether `path` is one of the store's routes.
    package static func handles(_ path: String) -> Bool { path.hasPrefix("/store/") }

    /// The entries' wire form and revision.
    package struct Snapshot: Sendable, Equatable {
        /// `{"KEY": ENTRY, …}`, keys sorted.
        package var entries: [UInt8]
        /// A digest of ``entries``, in hexadecimal (unquoted).
        package var revision: String

        /// The entries, encoded as the store file encodes them.
        package init(_ entries: [String: OverrideEntry]) {
            var bytes: [UInt8] = [UInt8(ascii: "{")]
            for (index, key) in entries.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                bytes += OverrideDocument.encodedEntry(entries[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
            self.entries = bytes
            revision = OFREPState.digest(bytes)
        }

        /// `{"revision": REV, "entries": {…}, "problems": […]}`, and `"storeError": {"kind": …, "problem": …,
        /// "preservedAt": …}` when the store could not be read or written as a whole (a corrupt file: its overrides do
        /// not apply), or moved a corrupt file aside (`preservedAt`, the path on the server's machine).
        package func body(problems: [OverrideStoreProblem], error: OverrideStoreError?) -> [UInt8] {
            var bytes = Array(#"{"revision":"#.utf8)
            JSONWriter.appendString(revision, to: &bytes)
            bytes += Array(#","entries":"#.utf8)
            bytes += entries
            bytes += Array(#","problems":"#.utf8)
            let listed = problems.map { problem -> JSONValue in
                .object([
                    ("key", .string(problem.key)), ("field", problem.field.map(JSONValue.string) ?? .null),
                    ("reason", .string(problem.reason)), ("storedJSON", .string(problem.storedJSON)),
                ])
            }
            JSONWriter.append(.array(listed), to: &bytes)
            if let error {
                bytes += Array(#","storeError":"#.utf8)
                var fields: [(key: String, value: JSONValue)] = [
                    ("kind", .string(error.kind.rawValue)), ("problem", .string(error.problem)),
                ]
                if let preservedAt = error.preservedAt { fields.append(("preservedAt", .string(preservedAt.path))) }
                JSONWriter.append(.object(fields), to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
            return bytes
        }

        /// The revision as an ETag (quoted).
        package var etag: String { "\"\(revision)\"" }
    }

    /// The answer to a request on one of the store's routes (the change stream excepted).
    package func respond(to request: HTTPServerRequest) -> HTTPServerResponse {
        guard request.path == Self.overridesPath else {
            if request.path == Self.eventsPath {
                return .json(
                    405, OFREPServer.error("GENERAL", "the store's change stream is read with GET"),
                    headers: [("Allow", "GET")])
            }
            return .json(
                404,
                OFREPServer.error(
                    "GENERAL",
                    "no such endpoint: GET and POST \(Self.overridesPath), GET \(Self.eventsPath) are served"))
        }
        switch request.method {
        case "GET":
            store.reload()
            return answer(200, Snapshot(store.entries))
        case "POST", "PUT":
            return write(request)
        default:
            return .json(
                405, OFREPServer.error("GENERAL", "the overrides are read with GET and changed with POST"),
                headers: [("Allow", "GET, POST")])
        }
    }

    private func answer(_ status: Int, _ snapshot: Snapshot) -> HTTPServerResponse {
        HTTPServerResponse(
            status: status, headers: [("Content-Type", "application/json"), ("ETag", snapshot.etag)],
            body: snapshot.body(problems: store.problems, error: store.lastError))
    }

    private struct Conflict: Error {}

    private func write(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard !readOnly else {
            return .json(
                403,
                OFREPServer.error(
                    "READ_ONLY", "this server is read-only (config-menu serve --read-only): changes are refused"))
        }
        if let removal = Self.removal(request.body) {
            do {
                if let key = removal { try store.removeValue(forKey: key) } else { try store.removeAll() }
            } catch {
                return .json(500, OFREPServer.error("STORE_ERROR", error.description))
            }
            return answer(200, Snapshot(store.entries))
        }
        guard let match = request.headers["if-match"] else {
            return .json(
                428,
                OFREPServer.error(
                    "GENERAL", "a change needs If-Match: REVISION (GET \(Self.overridesPath) gives the revision)"))
        }
        let expected = match.trimmingCharacters(in: CharacterSet(charactersIn: "\" \t"))
        let change: (entries: [String: OverrideEntry], reason: OverrideChangeReason)
        switch Self.parseChange(request.body) {
        case .success(let parsed): change = parsed
        case .failure(let problem): return .json(400, OFREPServer.error("GENERAL", problem.description))
        }
        var conflict: Snapshot?
        var applied: Snapshot?
        do {
            try store.modify(change.reason) { entries in
                let current = Snapshot(entries)
                guard current.revision == expected else {
                    conflict = current
                    throw Conflict()
                }
                entries = change.entries
                applied = Snapshot(change.entries)
            }
        } catch {
            if let conflict { return answer(412, conflict) }
            let status =
                switch error.kind {
                case .limitExceeded: 413
                case .disabled: 403
                default: 500
                }
            return .json(status, OFREPServer.error("STORE_ERROR", error.description))
        }
        return answer(200, applied ?? Snapshot(store.entries))
    }

    /// For a removal (`{"remove": KEY}`, `{"removeAll": true}`): the key, or `nil` for every key; `nil` (no removal)
    /// for any other body.
    private static func removal(_ body: [UInt8]) -> String?? {
        guard case .object(let members)? = try? StrictJSON.parse(body, maximumDepth: 64) else { return nil }
        if case .string(let key)? = members.first(where: { $0.key == "remove" })?.value { return .some(key) }
        if case .bool(true)? = members.first(where: { $0.key == "removeAll" })?.value { return .some(nil) }
        return nil
    }

    private struct ChangeProblem: Error, CustomStringConvertible {
        var description: String
    }

    /// The entries and the reason of a change's body.
    private static func parseChange(_ body: [UInt8]) -> Result<
        (entries: [String: OverrideEntry], reason: OverrideChangeReason), ChangeProblem
    > {
        let root: JSONValue
        do {
            root = try StrictJSON.parse(body, maximumDepth: 64)
        } catch {
            return .failure(ChangeProblem(description: "the request body is not JSON: \(error)"))
        }
        guard case .object(let members) = root,
            case .object(let entryMembers)? = members.first(where: { $0.key == "entries" })?.value
        else {
            return .failure(ChangeProblem(description: #"the request body is not {"entries": {KEY: ENTRY, …}}"#))
        }
        var entries: [String: OverrideEntry] = [:]
        for member in entryMembers {
            var bytes: [UInt8] = []
            JSONWriter.append(member.value, to: &bytes)
            switch OverrideDocument.readEntry(bytes, key: member.key) {
            case .usable(let entry, _): entries[member.key] = entry
            case .quarantined(let reason):
                return .failure(ChangeProblem(description: "the entry of \(member.key) cannot be used: \(reason)"))
            }
        }
        var reason = OverrideChangeReason.change
        if case .object(let fields)? = members.first(where: { $0.key == "reason" })?.value {
            func text(_ name: String) -> String? {
                guard case .string(let value)? = fields.first(where: { $0.key == name })?.value else { return nil }
                return String(value.prefix(512))
            }
            let action = text("action").flatMap(OverrideChangeReason.Action.init(rawValue:)) ?? .change
            let detail = [text("origin").map { "remote: \($0)" }, text("detail")].compactMap(\.self)
            reason = OverrideChangeReason(
                action == .outside ? .change : action,
                detail: detail.isEmpty ? nil : detail.joined(separator: "; "), undoes: text("undoes"))
        }
        return .success((entries, reason))
    }

    /// Follows the store's changes on `connection` until `isStopped` or the client goes.
    package func stream(to connection: HTTPSocket, heartbeat: Duration, isStopped: () -> Bool) {
        var seen = generation.withLock { $0 }
        var reported = Snapshot(store.entries).revision
        guard
            connection.write(
                HTTPServerResponse.eventStreamHead + Array(Self.event("ready", reported).utf8),
                until: .now + .seconds(5))
        else { return }
        var quietSince = ContinuousClock.now
        while true {
            Thread.sleep(forTimeInterval: 0.05)
            if isStopped() || connection.peerHasGone { return }
            let latest = generation.withLock { $0 }
            var message: String?
            if latest != seen {
                seen = latest
                let revision = Snapshot(store.entries).revision
                if revision != reported {
                    reported = revision
                    message = Self.event("store-changed", revision)
                }
            } else if ContinuousClock.now - quietSince >= heartbeat {
                message = ": still here\n\n"
            }
            guard let message else { continue }
            guard connection.write(Array(message.utf8), until: .now + .seconds(10)) else { return }
            quietSince = .now
        }
    }

    /// One event naming `revision` (also as `etag`, which the package's event stream parser reads).
    private static func event(_ name: String, _ revision: String) -> String {
        "event: \(name)\ndata: "
            + JSONWriter.string(.object([("revision", .string(revision)), ("etag", .string(revision))]), indent: nil)
            + "\n\n"
    }
}
