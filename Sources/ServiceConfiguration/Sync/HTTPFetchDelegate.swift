import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one HTTP fetch ended with.
enum HTTPFetchResult: Sendable {
    /// A 200 or 304 with its validators and (for a 200) the whole body.
    case response(status: Int, etag: String?, lastModified: String?, body: Data)
    /// A refusal or a transport failure.
    case failure(ServerSyncError)
}

/// Receives the URLSession callbacks of an ``HTTPServerValuesSource``'s fetches and enforces the limits while the
/// body arrives: a status other than 200/304, a refused content type or a `Content-Length` over the limit cancels
/// the transfer before any body is kept; a body that grows past the limit is dropped and the transfer cancelled.
///
/// On Linux, URLSession ignores the disposition passed to the response callback (the transfer goes on) and
/// delivers the body as fast as the network gives it, so the limit is enforced here, by keeping nothing past it.
final class HTTPFetchDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer: Sendable {
        var continuation: CheckedContinuation<HTTPFetchResult, Never>
        let limit: Int
        let format: ServerValuesFormat
        var status = 0
        var etag: String?
        var lastModified: String?
        var body = Data()
        var refusal: ServerSyncError?
    }

    private let transfers = Locked<[Int: Transfer]>([:])

    /// Runs `request` as a task of `session` (whose delegate is this object) and returns how it ended. The task
    /// is cancelled after `timeout`, or when the calling task is cancelled.
    func fetch(
        _ request: URLRequest, in session: URLSession, limit: Int, format: ServerValuesFormat, timeout: Duration
    ) async -> HTTPFetchResult {
        let task = session.dataTask(with: request)
        let identifier = task.taskIdentifier
        // At most a million seconds: a longer wait is no limit, and would overflow the dispatch clock.
        let seconds = min(
            1e6, max(0.001, Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18))
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfers.withLock {
                    $0[identifier] = Transfer(continuation: continuation, limit: limit, format: format)
                }
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
                    let reason = "no complete answer within \(Self.format(seconds: seconds))"
                    if self?.refuse(identifier, ServerSyncError(kind: .timedOut, reason: reason)) == true {
                        task.cancel()
                    }
                }
                if Task.isCancelled, refuse(identifier, .stopped) { Self.cancelLater(task) }
            }
        } onCancel: {
            if refuse(identifier, .stopped) { Self.cancelLater(task) }
        }
    }

    /// Records the first reason to refuse a transfer still running; true when this call recorded it.
    private func refuse(_ identifier: Int, _ error: ServerSyncError) -> Bool {
        transfers.withLock { transfers in
            guard transfers[identifier] != nil, transfers[identifier]!.refusal == nil else { return false }
            transfers[identifier]!.refusal = error
            transfers[identifier]!.body = Data()
            return true
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        let refusal = transfers.withLock { transfers -> ServerSyncError? in
            guard var transfer = transfers[dataTask.taskIdentifier], transfer.refusal == nil else { return nil }
            transfer.status = status
            transfer.etag = http?.value(forHTTPHeaderField: "ETag")
            transfer.lastModified = http?.value(forHTTPHeaderField: "Last-Modified")
            if status != 200 && status != 304 {
                let phrase = HTTPURLResponse.localizedString(forStatusCode: status).lowercased()
                transfer.refusal = ServerSyncError(
                    kind: .httpStatus, reason: "HTTP \(status)" + (phrase.isEmpty ? "" : " (\(phrase))"),
                    statusCode: status)
            } else if status == 200,
                let reason = transfer.format.refusal(ofContentType: http?.value(forHTTPHeaderField: "Content-Type"))
            {
                transfer.refusal = ServerSyncError(kind: .invalidResponse, reason: reason)
            } else if response.expectedContentLength > Int64(transfer.limit) {
                transfer.refusal = Self.tooLarge(transfer.limit, announced: response.expectedContentLength)
            }
            transfers[dataTask.taskIdentifier] = transfer
            return transfer.refusal
        }
        // Linux ignores the disposition; the cancel is what stops the transfer.
        completionHandler(refusal == nil ? .allow : .cancel)
        if refusal != nil { Self.cancelLater(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let cancel = transfers.withLock { transfers -> Bool in
            guard var transfer = transfers[dataTask.taskIdentifier], transfer.refusal == nil else { return false }
            transfers[dataTask.taskIdentifier] = nil  // no copy of the body while it grows
            defer { transfers[dataTask.taskIdentifier] = transfer }
            guard transfer.body.count + data.count <= transfer.limit else {
                transfer.body = Data()
                transfer.refusal = Self.tooLarge(transfer.limit, announced: nil)
                return true
            }
            transfer.body.append(data)
            return false
        }
        if cancel { Self.cancelLater(dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let result: HTTPFetchResult
        if let refusal = transfer.refusal {
            result = .failure(refusal)
        } else if let error {
            result = .failure(Self.describe(error))
        } else {
            result = .response(
                status: transfer.status, etag: transfer.etag, lastModified: transfer.lastModified, body: transfer.body)
        }
        transfer.continuation.resume(returning: result)
    }

    /// Cancels `task` from another thread. On Linux, `cancel()` waits until the transfer's work queue is free,
    /// which on a fast link is when the whole body has arrived; called here, it would stop this delegate queue,
    /// and every chunk arriving meanwhile would wait in memory for it. From elsewhere, the queue keeps dropping
    /// the chunks of a refused body as they come.
    private static func cancelLater(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    private static func tooLarge(_ limit: Int, announced: Int64?) -> ServerSyncError {
        let size = announced.map { " (\($0 >> 20) MiB announced)" } ?? ""
        return ServerSyncError(
            kind: .tooLarge, reason: "the response is larger than the \(limit >> 20) MiB limit\(size); refused")
    }

    private static func format(seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }

    /// A transport error as a short reason.
    static func describe(_ error: any Error) -> ServerSyncError {
        let nsError = error as NSError
        let detail = (nsError.userInfo[NSLocalizedDescriptionKey] as? String).map { ": \($0)" } ?? ""
        guard nsError.domain == NSURLErrorDomain else {
            return ServerSyncError(kind: .unreachable, reason: "network error\(detail)")
        }
        switch nsError.code {
        case NSURLErrorCannotConnectToHost: return ServerSyncError(kind: .unreachable, reason: "connection refused")
        case NSURLErrorNetworkConnectionLost:
            return ServerSyncError(kind: .unreachable, reason: "connection reset by the server")
        case NSURLErrorTimedOut: return ServerSyncError(kind: .timedOut, reason: "no answer in time")
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return ServerSyncError(kind: .unreachable, reason: "unknown host\(detail)")
        case NSURLErrorNotConnectedToInternet: return ServerSyncError(kind: .unreachable, reason: "no network")
        case NSURLErrorCancelled: return .stopped
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted,
            NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateNotYetValid,
            NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorClientCertificateRejected:
            return ServerSyncError(kind: .unreachable, reason: "TLS failure\(detail)")
        case NSURLErrorUnsupportedURL:
            return ServerSyncError(kind: .invalidResponse, reason: "unsupported URL or response\(detail)")
        case NSURLErrorUnknown where detail.contains("remaining to read"):
            return ServerSyncError(kind: .invalidResponse, reason: "the response was cut short\(detail)")
        default: return ServerSyncError(kind: .unreachable, reason: "network error \(nsError.code)\(detail)")
        }
    }
}
