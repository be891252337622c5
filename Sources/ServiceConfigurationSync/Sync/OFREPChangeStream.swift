public import Foundation
import ServiceConfigurationCore

extension OFREPServerValuesSource {
    /// The link relation by which a server offers its change stream: `Link: </ofrep/v1/events>;
    /// rel="service-configuration-changes"` on its bulk evaluation (`config-menu serve` sends it).
    public static let changeStreamRelation = "service-configuration-changes"

    /// True once the server's last bulk evaluation offered a change stream (``changeStreamRelation``; `config-menu
    /// serve` does): the stream is then followed, so a change reaches the program within moments. Other OFREP servers
    /// are synced on the interval only.
    public var pushesChanges: Bool { offersChangeStream.withLock { $0 } }

    /// The change stream's URL: `BASE/ofrep/v1/events`.
    public var changeStreamURL: URL {
        URL(string: evaluationURL.absoluteString.replacingOccurrences(of: "/evaluate/flags", with: "/events"))
            ?? evaluationURL
    }

    /// Returns when the server's change stream says the values differ from those `validators` describe (its `ready`
    /// event at once, if they changed since that fetch; else its next `flags-changed`); throws when the stream fails or
    /// ends, so the values are marked stale until the next sync. A server that has no change stream (404, 405 or 501
    /// to it, as OFREP servers other than `config-menu serve` answer) is waited on until the sync stops watching: the
    /// interval syncs it.
    public func waitForChange(after validators: ServerValuesValidators) async throws(ServerSyncError) {
        var request = HTTPRequest(
            method: "GET", url: changeStreamURL, timeout: nil, silenceLimit: .seconds(45), redirects: .none)
        request.headers.append(HTTPHeader("Accept", "text/event-stream"))
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.append(HTTPHeader(name, value)) }
        let (transport, prepared, known) = (self.transport, request, validators.etag)
        let outcome = await HTTPCancellation.runBlocking("OFREPServerValuesSource.waitForChange") { cancellation in
            Self.follow(prepared, transport: transport, knownETag: known, cancellation)
        }
        switch outcome {
        case .changed:
            return
        case .noStream:
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        case .failed(let error):
            throw error
        }
    }

    enum StreamOutcome: Sendable {
        case changed
        case noStream
        case failed(ServerSyncError)
    }

    /// Reads the stream on the calling thread until an event names an ETag other than `knownETag`.
    private static func follow(
        _ request: HTTPRequest, transport: any HTTPTransport, knownETag: String?, _ cancellation: HTTPCancellation
    ) -> StreamOutcome {
        var parser = EventStreamParser()
        var outcome: StreamOutcome?
        let receiver = HTTPReceiver(
            head: { head in
                switch head.status {
                case 200:
                    guard head.header("Content-Type")?.lowercased().hasPrefix("text/event-stream") == true else {
                        outcome = .noStream
                        return false
                    }
                    return true
                case 404, 405, 501:
                    outcome = .noStream
                default:
                    outcome = .failed(
                        ServerSyncError(
                            kind: .httpStatus, reason: "the change stream answered HTTP \(head.status)",
                            statusCode: head.status))
                }
                return false
            },
            body: { bytes in
                do throws(ServerSyncError) {
                    for event in try parser.feed(bytes) where event.name == "ready" || event.name == "flags-changed" {
                        if event.etag != knownETag || knownETag == nil {
                            outcome = .changed
                            return false
                        }
                    }
                    return true
                } catch {
                    outcome = .failed(error)
                    return false
                }
            })
        do {
            _ = try transport.send(request, cancellation: cancellation, receiver: receiver)
            return outcome ?? .failed(ServerSyncError(kind: .unreachable, reason: "the change stream ended"))
        } catch {
            return outcome ?? .failed(HTTPServerValuesSource.syncError(error))
        }
    }
}

/// Server-sent events as they arrive: the name and the `etag` of each event's JSON data, an event at most 64 KiB.
package struct EventStreamParser {
    /// One event: its name (`message` when it gives none) and the `etag` of its data.
    package struct Event: Equatable {
        package var name: String
        package var etag: String?

        package init(name: String, etag: String?) {
            self.name = name
            self.etag = etag
        }
    }

    package static let maximumEventSize = 64 * 1024
    private var pending: [UInt8] = []

    package init() {}

    /// The events `bytes` complete.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(ServerSyncError) -> [Event] {
        pending.append(contentsOf: bytes)
        var events: [Event] = []
        while let end = Self.blankLine(in: pending) {
            events.append(Self.event(pending[..<end.start]))
            pending.removeFirst(end.next)
        }
        guard pending.count <= Self.maximumEventSize else {
            throw ServerSyncError(
                kind: .invalidResponse,
                reason: "the change stream sent an event over \(Self.maximumEventSize / 1024) KiB; it is not followed")
        }
        return events
    }

    /// Where the first blank line (`\n\n`, `\r\n\r\n`) starts, and where the next event starts.
    private static func blankLine(in bytes: [UInt8]) -> (start: Int, next: Int)? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return (index, index + 2) }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    private static func event(_ bytes: ArraySlice<UInt8>) -> Event {
        var name = "message"
        var data = ""
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            if line.hasPrefix("event:") {
                name = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("data:") {
                data += line.dropFirst(5).trimmingCharacters(in: .whitespaces)
            }
        }
        var etag: String?
        if case .object(let members)? = try? StrictJSON.parse(Array(data.utf8)),
            case .string(let text)? = members.first(where: { $0.key == "etag" })?.value
        {
            etag = text
        }
        return Event(name: name, etag: etag)
    }
}
