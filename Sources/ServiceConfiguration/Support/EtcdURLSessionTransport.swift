import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTPS to etcd's JSON gateway (`etcds://`) with Foundation's `URLSession`, which brings TLS and the system's
/// certificate authorities.
///
/// Only where URLSession can be trusted with etcd's answers: on Linux, FoundationNetworking stops the process on
/// the HTTP trailers etcd 3.4 sends with every error answer (see ``EtcdSocketTransport``), so ``EtcdEndpoint``
/// refuses `etcds://` there.
final class EtcdURLSessionTransport: EtcdTransport {
    private let baseURL: URL
    private let session: URLSession
    private let delegate = EtcdTransferDelegate()

    init(baseURL: URL) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForResource = 1e6
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    private func request(_ path: String, body: [UInt8], token: String?, timeout: Double) -> URLRequest {
        var request = URLRequest(url: baseURL.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = "POST"
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = timeout
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue(token, forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(body)
        return request
    }

    func post(
        _ path: String, body: [UInt8], token: String?, timeout: Double, limit: Int, cancellation: EtcdCancellation?
    ) throws(EtcdError) -> (status: Int, body: [UInt8]) {
        let task = session.dataTask(with: request(path, body: body, token: token, timeout: timeout + 1))
        let outcome = Locked<EtcdTransferOutcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        delegate.follow(task, limit: limit) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        let id = cancellation?.attach { EtcdTransferDelegate.cancelLater(task) }
        guard cancellation == nil || id != nil else {
            delegate.refuse(task, .cancelled)
            throw .cancelled
        }
        defer { cancellation?.detach(id) }
        task.resume()
        let late = EtcdError(.timedOut, "etcd did not answer within \(Int(timeout.rounded())) s")
        if done.wait(timeout: .now() + timeout) == .timedOut {
            delegate.refuse(task, late)
            // The cancelled transfer reports its end at once; never wait long for it.
            _ = done.wait(timeout: .now() + 2)
        }
        switch outcome.withLock({ $0 }) ?? .failure(late) {
        case .failure(let error): throw error
        case .answer(let status, let body): return (status, body)
        }
    }

    func stream(
        _ path: String, body: [UInt8], token: String?, limit: Int, silenceLimit: Double,
        cancellation: EtcdCancellation, onLine: @escaping @Sendable ([UInt8]) -> Void,
        onEnd: @escaping @Sendable (EtcdTransferOutcome) -> Void
    ) {
        // URLSession's request timeout is the longest silence between two pieces of the answer.
        let task = session.dataTask(with: request(path, body: body, token: token, timeout: silenceLimit))
        delegate.follow(task, limit: limit, onLine: onLine, onEnd: onEnd)
        if cancellation.attach({ EtcdTransferDelegate.cancelLater(task) }) != nil { task.resume() }
    }
}
