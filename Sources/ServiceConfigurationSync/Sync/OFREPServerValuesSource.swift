public import Foundation
public import ServiceConfigurationCore
import ServiceConfigurationFiles

/// Server values from any OpenFeature server that speaks OFREP (the OpenFeature Remote Evaluation Protocol: flagd,
/// GO Feature Flag, Flipt, fast-feature...), evaluated for one evaluation context with a bulk evaluation,
/// `POST {base}/ofrep/v1/evaluate/flags` with `{"context": {"targetingKey": ..., ...}}`.
///
/// ```swift
/// let source = OFREPServerValuesSource(
///     baseURL: URL(string: "https://flags.example.com")!,
///     context: OFREPEvaluationContext(targetingKey: userID, attributes: ["country": "JP", "osVersion": "18.2"]),
///     catalog: catalog)
/// let sync = ServerValuesSync(source: source, service: service, interval: .seconds(300))
/// sync.start()
/// ```
///
/// **Typed values become each key's wire string**: a boolean through the key's own Bool encoding (`Y`/`N` unless
/// the key says otherwise; the `catalog` tells, without one `Y`/`N`), a number as its decimal text, a string as
/// itself, an object or array as the canonical JSON a JSON key stores (sorted keys, no spaces). A value the key then
/// refuses is rejected when read, with the reason, like any bad server value.
///
/// **A flag whose evaluation failed has no server value**: a per-flag `errorCode` (`FLAG_NOT_FOUND`,
/// `PARSE_ERROR`, ...), or a value of a type the key cannot hold (a boolean for a `String` key, a number for a Bool
/// key, `null`: `TYPE_MISMATCH`), leaves the key out, so it falls back to its default; the reason is in
/// ``ServerSyncStatus/evaluations`` (``ServerValueEvaluation/rejection``), beside each other key's variant and
/// reason.
///
/// **As the HTTP source**: the sync's status model, snapshot, cache-first start and backoff; `If-None-Match` with
/// the last `ETag`, a 304 keeps the values; a response is refused whole when anything is wrong with it (another
/// status, not JSON, no `flags` array, a flag without a key or named twice, a field of the wrong type, a body over
/// ``maximumBodySize``, a fetch over ``timeout``). A 429 or 503 with `Retry-After` makes the next attempt wait at
/// least that long (see ``ServerSyncError/retryAfter``). A 400's `errorCode` and `errorDetails`
/// (`INVALID_CONTEXT`) are in the reason. No redirect is followed.
public final class OFREPServerValuesSource: ServerValuesSource {
    /// The server's base URL (`http` or `https`); the evaluation path is appended to it.
    public let baseURL: URL
    /// The context every evaluation is for.
    public let context: OFREPEvaluationContext
    /// The longest a whole fetch may take.
    public let timeout: Duration
    /// The largest body accepted, in bytes after decompression.
    public let maximumBodySize: Int
    /// Extra request headers, for example `Authorization` or an API key.
    public let headers: [String: String]
    /// For each key of the catalog given: how it writes a Bool, and what kind of value it holds.
    private let keyKinds: [String: KeyKind]
    private let requestBody: [UInt8]
    let transport: any HTTPTransport
    /// Whether the server's last answer offered a change stream (a `Link` with `rel="service-configuration-changes"`,
    /// as `config-menu serve` sends).
    let offersChangeStream = Locked(false)

    /// Creates a source. Nothing is sent until a sync asks.
    ///
    /// - Parameters:
    ///   - baseURL: the server, `http` or `https`, with the path OFREP is served under if any
    ///     (`https://flags.example.com/api`).
    ///   - context: who the values are for.
    ///   - catalog: the program's keys, so a boolean becomes each key's own Bool string and a value of the wrong
    ///     type is a `TYPE_MISMATCH`; without it a boolean is `Y`/`N` and the keys judge every value when read.
    ///   - timeout: the longest a whole fetch may take.
    ///   - maximumBodySize: the largest response body accepted.
    ///   - headers: extra request headers.
    public init(
        baseURL: URL,
        context: OFREPEvaluationContext = OFREPEvaluationContext(),
        catalog: ConfigurationCatalog? = nil,
        timeout: Duration = .seconds(30),
        maximumBodySize: Int = HTTPServerValuesSource.defaultMaximumBodySize,
        headers: [String: String] = [:]
    ) {
        self.baseURL = baseURL
        self.context = context
        self.timeout = min(max(timeout, .milliseconds(1)), .seconds(1_000_000))
        self.maximumBodySize = maximumBodySize
        self.headers = headers
        var kinds: [String: KeyKind] = [:]
        for descriptor in catalog?.keys ?? [] { kinds[descriptor.name] = KeyKind(descriptor) }
        keyKinds = kinds
        let contextObject = JSONValue.object(context.fields.map { (key: $0.key, value: JSONValue.string($0.value)) })
        var body: [UInt8] = []
        JSONWriter.append(.object([(key: "context", value: contextObject)]), to: &body)
        requestBody = body
        transport = HTTPTransports.system()
    }

    /// The URL evaluations are posted to: `{base}/ofrep/v1/evaluate/flags`.
    public var evaluationURL: URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/ofrep/v1/evaluate/flags") ?? baseURL
    }

    /// `ofrep://HOST:PORT/BASE` (`ofreps` for TLS) without credentials, with the context as its query
    /// (`?targetingKey=user-42&country=JP`): the values depend on it, so a snapshot from another context is not
    /// taken for this one's. ``source(for:timeout:catalog:headers:)`` reads it back.
    public var location: String {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            return HTTPRedirect.visible(baseURL)
        }
        components.scheme = components.scheme?.lowercased() == "https" ? "ofreps" : "ofrep"
        components.user = nil
        components.password = nil
        components.queryItems =
            context.isEmpty ? nil : context.fields.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.string ?? HTTPRedirect.visible(baseURL)
    }

    /// A source for an `ofrep://HOST:PORT[/BASE]` (plain HTTP) or `ofreps://...` (TLS) URL, whose query gives the
    /// context (`targetingKey=ID`, every other item an attribute), or why there is none. `headers` go with every
    /// request (`["Authorization": "Bearer TOKEN"]` for a `config-menu serve` that needs its token).
    ///
    /// ```swift
    /// let source = try OFREPServerValuesSource.source(
    ///     for: URL(string: "ofrep://127.0.0.1:8016?targetingKey=user-42&country=JP")!)
    /// ```
    public static func source(
        for url: URL, timeout: Duration = .seconds(30), catalog: ConfigurationCatalog? = nil,
        headers: [String: String] = [:]
    ) throws(ServerSyncError) -> OFREPServerValuesSource {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "ofrep" || scheme == "ofreps"
        else {
            throw ServerSyncError(
                kind: .notConfigured,
                reason: "\(url.absoluteString) is not an ofrep:// or ofreps:// URL (for example ofrep://127.0.0.1:8016)"
            )
        }
        guard let host = components.host, !host.isEmpty else {
            throw ServerSyncError(kind: .notConfigured, reason: "\(url.absoluteString) has no host")
        }
        var context = OFREPEvaluationContext()
        for item in components.queryItems ?? [] {
            guard !item.name.isEmpty, let value = item.value else {
                throw ServerSyncError(
                    kind: .notConfigured,
                    reason: "\(url.absoluteString): the context item \"\(item.name)\" needs the form NAME=VALUE")
            }
            if item.name == "targetingKey" {
                context.targetingKey = value
            } else if context.attributes[item.name] != nil {
                throw ServerSyncError(
                    kind: .notConfigured,
                    reason: "\(url.absoluteString): the context attribute \"\(item.name)\" is given twice")
            } else {
                context.attributes[item.name] = value
            }
        }
        components.scheme = scheme == "ofreps" ? "https" : "http"
        components.query = nil
        components.fragment = nil
        guard let base = components.url else {
            throw ServerSyncError(kind: .notConfigured, reason: "\(url.absoluteString) is not a valid server URL")
        }
        return OFREPServerValuesSource(
            baseURL: base, context: context, catalog: catalog, timeout: timeout, headers: headers)
    }

    /// `url` with the context the tools' `--targeting-key ID` and `--context KEY=VALUE` options give, as its query
    /// (after any the URL holds), or why they cannot be used: `url` is not `ofrep://` or `ofreps://`, an item is not
    /// `KEY=VALUE`, `targetingKey` is given as an attribute. The message names the option.
    package static func url(
        _ url: URL, targetingKey: String?, context: [String]
    ) throws(ServerSyncError) -> URL {
        guard targetingKey != nil || !context.isEmpty else { return url }
        func refuse(_ reason: String) -> ServerSyncError { ServerSyncError(kind: .notConfigured, reason: reason) }
        guard let scheme = url.scheme?.lowercased(), scheme == "ofrep" || scheme == "ofreps",
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw refuse(
                "--context and --targeting-key need an OFREP server: --server-url ofrep://HOST:PORT (or ofreps:// "
                    + "for TLS), not \(url.absoluteString)")
        }
        var items = components.queryItems ?? []
        if let targetingKey {
            guard !targetingKey.isEmpty else { throw refuse("--targeting-key needs a non-empty ID") }
            items.append(URLQueryItem(name: "targetingKey", value: targetingKey))
        }
        for item in context {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw refuse("--context needs KEY=VALUE (for example --context country=JP), got \"\(item)\"")
            }
            let name = String(item[..<equals])
            guard name != "targetingKey" else {
                throw refuse("--context targetingKey=...: give the targeting key with --targeting-key ID")
            }
            items.append(URLQueryItem(name: name, value: String(item[item.index(after: equals)...])))
        }
        components.queryItems = items
        guard let result = components.url else { throw refuse("\(url.absoluteString) cannot take that context") }
        return result
    }

    /// Evaluates every flag once, conditionally on `validators`.
    public func fetch(ifChangedSince validators: ServerValuesValidators) async throws(ServerSyncError)
        -> ServerValuesFetch
    {
        if context.attributes["targetingKey"] != nil {
            throw ServerSyncError(
                kind: .notConfigured,
                reason: "the context names \"targetingKey\" as an attribute; give it as the targeting key")
        }
        var request = HTTPRequest(
            method: "POST", url: evaluationURL, body: requestBody, timeout: timeout, maximumBodySize: maximumBodySize,
            acceptsCompression: true, redirects: .none)
        request.headers.append(HTTPHeader("Content-Type", "application/json"))
        request.headers.append(HTTPHeader("Accept", "application/json"))
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.append(HTTPHeader(name, value)) }
        if let etag = validators.etag { request.headers.append(HTTPHeader("If-None-Match", etag)) }
        let (transport, prepared) = (self.transport, request)
        let exchanged = await HTTPCancellation.runBlocking("OFREPServerValuesSource.fetch") { cancellation in
            Self.transfer(prepared, transport: transport, cancellation)
        }
        let (head, body) = try exchanged.get()
        let received = ServerValuesValidators(etag: head.header("ETag"))
        if head.status == 200 || head.status == 304 {
            let offers = head.header("Link")?.contains(#"rel="\#(Self.changeStreamRelation)""#) == true
            offersChangeStream.withLock { $0 = offers }
        }
        switch head.status {
        case 200:
            if let reason = ServerValuesFormat.json.refusal(ofContentType: head.header("Content-Type")) {
                throw ServerSyncError(kind: .invalidResponse, reason: reason)
            }
            let (values, evaluations) = try decode(body)
            return .evaluated(values, evaluations: evaluations, validators: received)
        case 304 where validators.etag == nil:
            throw ServerSyncError(
                kind: .invalidResponse,
                reason: "HTTP 304 (not modified) to a request that named no version (no If-None-Match); nothing was "
                    + "stored")
        case 304:
            return .notModified(validators: received.filling(from: validators))
        default:
            throw Self.failure(head, body: body)
        }
    }

    /// One exchange on the calling thread: the head and the whole body (bounded by the request), whatever the status,
    /// so a 400's error code can be reported.
    private static func transfer(
        _ request: HTTPRequest, transport: any HTTPTransport, _ cancellation: HTTPCancellation
    ) -> Result<(HTTPResponseHead, [UInt8]), ServerSyncError> {
        var body: [UInt8] = []
        let receiver = HTTPReceiver(
            head: { head in
                if let length = head.header("Content-Length").flatMap(Int.init) {
                    body.reserveCapacity(min(length, 16 << 20))
                }
                return true
            },
            body: { bytes in
                body.append(contentsOf: bytes)
                return true
            })
        do {
            let head = try transport.send(request, cancellation: cancellation, receiver: receiver)
            return .success((head, body))
        } catch {
            return .failure(HTTPServerValuesSource.syncError(error))
        }
    }

    /// The failure a status other than 200 or 304 is: its words, the OFREP error code and details a 400 carries,
    /// and the `Retry-After` of a 429 or 503.
    static func failure(_ head: HTTPResponseHead, body: [UInt8]) -> ServerSyncError {
        var reason = head.statusDescription
        if case .object(let members)? = try? StrictJSON.parse(body) {
            var code: String?
            var details: String?
            for member in members {
                if member.key == "errorCode", case .string(let text) = member.value { code = text }
                if member.key == "errorDetails", case .string(let text) = member.value { details = text }
            }
            let said = [code, details].compactMap { $0.map { VisibleText.escaped(String($0.prefix(200))) } }
            if !said.isEmpty { reason += ": " + said.joined(separator: ": ") }
        }
        var retryAfter: Duration?
        // The OFREP OpenAPI file names the 429 header `Retry-Later` with an ISO 8601 time; servers and the
        // OpenFeature SDKs use HTTP's `Retry-After`. Both are read.
        if head.status == 429 || head.status == 503,
            let header = head.header("Retry-After") ?? head.header("Retry-Later")
        {
            retryAfter = Self.retryAfter(header, now: Date())
            if let retryAfter {
                reason += "; the server asks to wait \(retryAfter.components.seconds) s (Retry-After)"
            }
        }
        return ServerSyncError(kind: .httpStatus, reason: reason, statusCode: head.status, retryAfter: retryAfter)
    }

    /// A `Retry-After` value: a number of seconds, or an HTTP date or ISO 8601 time (the time until then); `nil`
    /// when it is none of these.
    package static func retryAfter(_ text: String, now: Date) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Int64(trimmed), seconds >= 0 {
            return .seconds(min(seconds, ServerSyncError.longestRetryAfter.components.seconds))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) ?? ISO8601DateFormatter().date(from: trimmed) else {
            return nil
        }
        return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
    }

    /// The values and evaluations of a bulk evaluation's body, or why it is refused whole.
    package func decode(_ body: [UInt8]) throws(ServerSyncError) -> ([String: String], [String: ServerValueEvaluation])
    {
        func refuse(_ reason: String) -> ServerSyncError {
            ServerSyncError(kind: .invalidResponse, reason: "not an OFREP bulk evaluation: " + reason)
        }
        let root: JSONValue
        do {
            root = try StrictJSON.parse(body)
        } catch {
            throw ServerSyncError(kind: .invalidResponse, reason: "not JSON: \(error)")
        }
        guard case .object(let members) = root else {
            throw refuse("expected a JSON object, found \(root.typeDescription)")
        }
        guard let flagsMember = members.first(where: { $0.key == "flags" }) else {
            throw refuse("no \"flags\" array")
        }
        guard case .array(let flags) = flagsMember.value else {
            throw refuse("\"flags\" must be an array, found \(flagsMember.value.typeDescription)")
        }
        var values: [String: String] = [:]
        var evaluations: [String: ServerValueEvaluation] = [:]
        values.reserveCapacity(flags.count)
        evaluations.reserveCapacity(flags.count)
        for (index, flag) in flags.enumerated() {
            guard case .object(let fields) = flag else {
                throw refuse("flag \(index + 1) must be an object, found \(flag.typeDescription)")
            }
            var key: String?
            var value: JSONValue?
            var evaluation = ServerValueEvaluation()
            for field in fields {
                switch field.key {
                case "key", "variant", "reason", "errorCode", "errorDetails":
                    guard case .string(let text) = field.value else {
                        if case .null = field.value, field.key != "key" { continue }
                        throw refuse(
                            "\"\(field.key)\" of flag \(index + 1) must be a string, found \(field.value.typeDescription)"
                        )
                    }
                    switch field.key {
                    case "key": key = text
                    case "variant": evaluation.variant = text
                    case "reason": evaluation.reason = text
                    case "errorCode": evaluation.errorCode = text
                    default: evaluation.errorDetails = text
                    }
                case "value": value = field.value
                default: break
                }
            }
            guard let key, !key.isEmpty else { throw refuse("flag \(index + 1) has no \"key\"") }
            guard evaluations[key] == nil else {
                throw refuse("the flag \(VisibleText.escaped(String(key.prefix(80)))) is evaluated twice")
            }
            if evaluation.errorCode == nil {
                guard let value else {
                    throw refuse(
                        "the flag \(VisibleText.escaped(String(key.prefix(80)))) has neither a \"value\" nor an "
                            + "\"errorCode\"")
                }
                switch wireString(of: value, for: key) {
                case .success(let string): values[key] = string
                case .failure(let mismatch):
                    evaluation.errorCode = "TYPE_MISMATCH"
                    evaluation.errorDetails = mismatch.reason
                }
            }
            evaluations[key] = evaluation
        }
        return (values, evaluations)
    }

    /// Why a typed value cannot become a key's wire string.
    struct TypeMismatch: Error {
        var reason: String
    }

    /// The wire string `value` becomes for the key `name`, through the key's codec, or why its type does not fit.
    func wireString(of value: JSONValue, for name: String) -> Result<String, TypeMismatch> {
        let kind = keyKinds[name]
        switch value {
        case .bool(let bool):
            guard let kind else { return .success(bool ? "Y" : "N") }
            guard let strings = kind.toggleStrings else {
                return .failure(TypeMismatch(reason: "the server sent a boolean; the key holds \(kind.typeName)"))
            }
            return .success(bool ? strings.on : strings.off)
        case .number(let text):
            if let kind, kind.toggleStrings != nil {
                return .failure(TypeMismatch(reason: "the server sent the number \(text); the key holds a Bool"))
            }
            return .success(Self.decimal(text))
        case .string(let text):
            return .success(text)
        case .array, .object:
            if let kind, kind.toggleStrings != nil || kind.isNumber {
                return .failure(
                    TypeMismatch(reason: "the server sent \(value.typeDescription); the key holds \(kind.typeName)"))
            }
            let compact = JSONWriter.string(value, indent: nil)
            return .success((try? ConfigurationJSONValue(configurationJSON: compact).configurationJSON()) ?? compact)
        case .null:
            return .failure(TypeMismatch(reason: "the server sent null"))
        }
    }

    /// A JSON number as decimal text: as written when it has no exponent (`42`, `-0.5`), else the value in decimal
    /// (`1e3` is `1000`, `2.5E-1` is `0.25`).
    package static func decimal(_ text: String) -> String {
        guard text.contains(where: { $0 == "e" || $0 == "E" }), let value = Double(text), value.isFinite else {
            return text
        }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return value.description
    }

    /// What the source needs to know of a key to turn a typed value into its wire string.
    struct KeyKind: Sendable {
        /// The key's Bool strings, for a Bool key.
        var toggleStrings: ConfigurationKeyDescriptor.ToggleStrings?
        /// Whether the key holds a number.
        var isNumber: Bool
        /// The value type's name, for messages.
        var typeName: String

        init(_ descriptor: ConfigurationKeyDescriptor) {
            var isBool = descriptor.valueTypeName == "Bool"
            var isNumber = false
            switch descriptor.control {
            case .toggle: isBool = true
            case .number: isNumber = true
            default: break
            }
            toggleStrings = isBool ? descriptor.toggleStrings : nil
            self.isNumber = isNumber
            typeName = descriptor.valueTypeName
        }
    }
}
