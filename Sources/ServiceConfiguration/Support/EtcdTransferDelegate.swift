import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives the URLSession callbacks of an ``EtcdURLSessionTransport``: a call's whole answer (up to a limit), a
/// watch stream's lines one by one as they arrive.
///
/// Callbacks run on the session's serial delegate queue, which must never wait for anything: a stream's lines are
/// handed to the watch's own queue, and a call's end to a waiting thread or continuation.
final class EtcdTransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer: Sendable {
        let limit: Int
        /// For a stream: receives each complete line of a 200 answer.
        let onLine: (@Sendable ([UInt8]) -> Void)?
        let onEnd: @Sendable (EtcdTransferOutcome) -> Void
        var status = 0
        var body: [UInt8] = []
        /// How much of `body` holds no newline (so a long line is not scanned again with every chunk).
        var scanned = 0
        var refusal: EtcdError?
    }

    private let transfers = Locked<[Int: Transfer]>([:])

    /// Follows `task` (not yet resumed): its answer up to `limit` bytes (for a stream: each line up to `limit`),
    /// and its end.
    func follow(
        _ task: URLSessionTask, limit: Int, onLine: (@Sendable ([UInt8]) -> Void)? = nil,
        onEnd: @escaping @Sendable (EtcdTransferOutcome) -> Void
    ) {
        transfers.withLock { $0[task.taskIdentifier] = Transfer(limit: limit, onLine: onLine, onEnd: onEnd) }
    }

    /// Ends a transfer still running with `error` and cancels its task; true when this call ended it.
    @discardableResult
    func refuse(_ task: URLSessionTask, _ error: EtcdError) -> Bool {
        let refused = transfers.withLock { transfers -> Bool in
            guard transfers[task.taskIdentifier] != nil, transfers[task.taskIdentifier]!.refusal == nil else {
                return false
            }
            transfers[task.taskIdentifier]!.refusal = error
            transfers[task.taskIdentifier]!.body = []
            return true
        }
        if refused { Self.cancelLater(task) }
        return refused
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        transfers.withLock { $0[dataTask.taskIdentifier]?.status = status }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var lines: [[UInt8]] = []
        var onLine: (@Sendable ([UInt8]) -> Void)?
        let tooLarge = transfers.withLock { transfers -> Bool in
            guard var transfer = transfers[dataTask.taskIdentifier], transfer.refusal == nil else { return false }
            transfers[dataTask.taskIdentifier] = nil  // no copy of the body while it grows
            defer { transfers[dataTask.taskIdentifier] = transfer }
            transfer.body.append(contentsOf: data)
            if transfer.status == 200, let handler = transfer.onLine {
                onLine = handler
                var start = 0
                var index = transfer.scanned
                while index < transfer.body.count {
                    if transfer.body[index] == 0x0A {
                        if index > start { lines.append(Array(transfer.body[start..<index])) }
                        start = index + 1
                    }
                    index += 1
                }
                if start > 0 { transfer.body.removeFirst(start) }
                transfer.scanned = transfer.body.count
            }
            guard transfer.body.count <= transfer.limit else {
                transfer.body = []
                transfer.refusal = EtcdError(
                    .tooLarge,
                    "etcd's answer is larger than the \(ByteCount.describe(transfer.limit)) limit; refused")
                return true
            }
            return false
        }
        if let onLine {
            for line in lines { onLine(line) }
        }
        if tooLarge { Self.cancelLater(dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let refusal = transfer.refusal {
            transfer.onEnd(.failure(refusal))
        } else if let error {
            let described = HTTPFetchDelegate.describe(error)
            switch described.kind {
            case .cancelled: transfer.onEnd(.failure(.cancelled))
            case .timedOut: transfer.onEnd(.failure(EtcdError(.timedOut, described.reason)))
            default: transfer.onEnd(.failure(EtcdError(.unreachable, described.reason)))
            }
        } else {
            transfer.onEnd(.answer(status: transfer.status, body: transfer.body))
        }
    }

    /// Cancels `task` from another thread (on Linux, `cancel()` waits for the transfer's queue; see
    /// ``HTTPFetchDelegate``).
    static func cancelLater(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }
}
