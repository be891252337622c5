import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How a ``FileOverrideStore`` notices that another process changed its file.
public enum OverrideStoreWatchMode: Sendable, Hashable {
    /// inotify where available (Linux), otherwise polling every 250 ms.
    case automatic
    /// inotify on the store's folder (Linux only; elsewhere this falls back to polling every 250 ms).
    case inotify
    /// `stat` the file every `interval` and reload when its identity changes.
    case polling(interval: Duration)
}

/// Watches one file from a background thread and calls `onChange` when it may have changed.
final class FileWatcher: Sendable {
    private let stopPipe: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)
    /// The watcher thread, so a stop requested from that thread (the store released inside its own reload) does
    /// not wait for itself.
    private let thread = Locked<pthread_t?>(nil)
    /// Set when the thread itself was asked to stop: it then closes the stop pipe on its way out.
    private let closePipeOnExit = Locked(false)
    /// The mechanism actually in use (after any fallback), for tests and diagnostics.
    let mechanism: String

    init(file: StoreFile, mode: OverrideStoreWatchMode, onChange: @escaping @Sendable () -> Void) {
        var descriptors: [Int32] = [0, 0]
        if pipe(&descriptors) != 0 { descriptors = [-1, -1] }
        for descriptor in descriptors where descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        stopPipe = (descriptors[0], descriptors[1])
        let stopDescriptor = descriptors[0]
        let finished = self.finished

        var interval = Duration.milliseconds(250)
        var useInotify = false
        switch mode {
        case .automatic, .inotify:
            #if os(Linux)
                useInotify = true
            #endif
        case .polling(let every):
            interval = every
        }
        #if os(Linux)
            let inotifyDescriptor = useInotify ? Self.startInotify(on: file) : -1
        #else
            let inotifyDescriptor: Int32 = -1
        #endif
        mechanism = inotifyDescriptor >= 0 ? "inotify" : "polling"
        let pollMilliseconds = Int32(
            interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)

        let threadID = self.thread
        let closePipeOnExit = self.closePipeOnExit
        let pipeEnds = stopPipe
        let thread = Thread {
            threadID.withLock { $0 = pthread_self() }
            defer {
                if inotifyDescriptor >= 0 { close(inotifyDescriptor) }
                if closePipeOnExit.withLock({ $0 }) {
                    close(pipeEnds.read)
                    close(pipeEnds.write)
                }
                finished.signal()
            }
            if inotifyDescriptor >= 0 {
                Self.runInotify(
                    inotifyDescriptor, stop: stopDescriptor, name: file.url.lastPathComponent, onChange: onChange)
            } else {
                Self.runPolling(file: file, every: max(1, pollMilliseconds), stop: stopDescriptor, onChange: onChange)
            }
        }
        thread.name = "FileOverrideStore watcher"
        thread.start()
    }

    /// Stops the thread and waits for it to finish (unless called on that thread, which then ends on its own).
    func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        if let watcher = thread.withLock({ $0 }), pthread_equal(watcher, pthread_self()) != 0 {
            closePipeOnExit.withLock { $0 = true }
            return
        }
        finished.wait()
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// Waits up to `milliseconds` for the stop pipe; true when stopping.
    private static func waitForStop(_ stop: Int32, extra: Int32 = -1, milliseconds: Int32) -> (
        stop: Bool, extraReady: Bool
    ) {
        var descriptors = [pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        if extra >= 0 { descriptors.append(pollfd(fd: extra, events: Int16(POLLIN), revents: 0)) }
        let result = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        guard result > 0 else { return (false, false) }
        return (descriptors[0].revents != 0, descriptors.count > 1 && descriptors[1].revents != 0)
    }

    private static func runPolling(
        file: StoreFile, every milliseconds: Int32, stop: Int32, onChange: @Sendable () -> Void
    ) {
        var last = file.fingerprint()
        while !waitForStop(stop, milliseconds: milliseconds).stop {
            let current = file.fingerprint()
            if current != last {
                last = current
                onChange()
            }
        }
    }

    #if os(Linux)
        private static func startInotify(on file: StoreFile) -> Int32 {
            try? file.ensureFolder()
            let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard descriptor >= 0 else { return -1 }
            let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
            guard inotify_add_watch(descriptor, file.folder, events) >= 0 else {
                close(descriptor)
                return -1
            }
            return descriptor
        }

        private static func runInotify(_ descriptor: Int32, stop: Int32, name: String, onChange: @Sendable () -> Void) {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let headerSize = MemoryLayout<inotify_event>.size
            while true {
                let (stopping, ready) = waitForStop(stop, extra: descriptor, milliseconds: -1)
                if stopping { return }
                guard ready else { continue }
                var relevant = false
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                    guard count > 0 else { break }
                    var offset = 0
                    while offset + headerSize <= count {
                        let (mask, length) = buffer.withUnsafeBytes { raw in
                            let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                            return (event.mask, Int(event.len))
                        }
                        let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + length)]
                        let eventName = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                        if eventName == name || mask & UInt32(IN_Q_OVERFLOW) != 0 || mask & UInt32(IN_IGNORED) != 0 {
                            relevant = true
                        }
                        offset += headerSize + length
                    }
                }
                if relevant { onChange() }
            }
        }
    #endif
}
