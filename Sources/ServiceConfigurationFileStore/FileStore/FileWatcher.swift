import Foundation
package import ServiceConfigurationCore
package import ServiceConfigurationFiles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Watches one file from a background thread and calls `onChange` when it may have changed.
///
/// With inotify it watches the file's folder (and, for a symbolic link, the target's folder too). When a folder is
/// deleted it watches the nearest existing ancestor instead and moves back down as folders reappear, so live reload
/// survives `rm -rf D; mkdir D`. If inotify cannot be used at all it polls, and ``problem`` says so.
package final class FileWatcher: Sendable {
    private let stopPipe: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)
    /// The watcher thread, so a stop requested from that thread (the store released inside its own reload) does
    /// not wait for itself.
    private let thread = Locked<pthread_t?>(nil)
    /// Set when the thread itself was asked to stop: it then closes the stop pipe on its way out.
    private let closePipeOnExit = Locked(false)
    private let status: Locked<String?>
    /// The mechanism actually in use (after any fallback), for tests and diagnostics.
    package let mechanism: String

    /// Why live reload is degraded, or `nil` when it works as asked.
    package var problem: String? { status.withLock { $0 } }

    package init(file: StoreFile, mode: OverrideStoreWatchMode, onChange: @escaping @Sendable () -> Void) {
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
        let pollMilliseconds = max(
            1, Int32(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000))
        var initialProblem: String?
        #if os(Linux)
            var inotifyDescriptor: Int32 = -1
            if useInotify {
                inotifyDescriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
                if inotifyDescriptor < 0 {
                    initialProblem =
                        "inotify is unavailable (\(String(cString: strerror(errno)))); polling every "
                        + "\(pollMilliseconds) ms instead"
                }
            }
        #else
            let inotifyDescriptor: Int32 = -1
            if case .inotify = mode { initialProblem = "inotify is not available on this system; polling instead" }
        #endif
        if stopDescriptor < 0 { initialProblem = "cannot create the watcher's stop pipe; live reload is off" }
        let status = Locked<String?>(initialProblem)
        self.status = status
        mechanism = inotifyDescriptor >= 0 ? "inotify" : "polling"
        let watchDescriptor = inotifyDescriptor

        let threadID = self.thread
        let closePipeOnExit = self.closePipeOnExit
        let pipeEnds = stopPipe
        let thread = Thread {
            threadID.withLock { $0 = pthread_self() }
            defer {
                if watchDescriptor >= 0 { close(watchDescriptor) }
                if closePipeOnExit.withLock({ $0 }) {
                    close(pipeEnds.read)
                    close(pipeEnds.write)
                }
                finished.signal()
            }
            guard stopDescriptor >= 0 else { return }
            #if os(Linux)
                if watchDescriptor >= 0 {
                    var watch = InotifyWatch(descriptor: watchDescriptor, file: file)
                    if watch.run(stop: stopDescriptor, onChange: onChange) { return }
                    // Not even "/" could be watched: poll instead.
                    status.withLock {
                        $0 =
                            "inotify cannot watch \(StoreFile.folder(of: file.path)) (\(String(cString: strerror(errno)))); "
                            + "polling every \(pollMilliseconds) ms instead"
                    }
                }
            #endif
            Self.runPolling(file: file, every: pollMilliseconds, stop: stopDescriptor, onChange: onChange)
        }
        thread.name = "FileOverrideStore watcher"
        thread.start()
    }

    /// Stops the thread and waits for it to finish (unless called on that thread, which then ends on its own).
    package func stop() {
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
    fileprivate static func waitForStop(_ stop: Int32, extra: Int32 = -1, milliseconds: Int32) -> (
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
        // The thread starts after the store started watching: a change made in between (the file or its folder
        // deleted, say) would be this loop's first fingerprint and never differ from it, so look once now, as the
        // inotify side does (an unchanged file costs one stat).
        onChange()
        while !waitForStop(stop, milliseconds: milliseconds).stop {
            let current = file.fingerprint()
            if current != last {
                last = current
                onChange()
            }
        }
    }
}

#if os(Linux)
    /// The inotify side of ``FileWatcher``: which folders are watched, and moving the watches when folders come and
    /// go.
    private struct InotifyWatch {
        /// What one watch descriptor is for.
        struct Purpose {
            /// It watches one of the file's own folders (the path's or its target's).
            var isOwn = false
            /// It watches an ancestor of a missing folder: the names of the missing children it waits for.
            var awaited: Set<String> = []
        }

        let descriptor: Int32
        let file: StoreFile
        var watches: [Int32: Purpose] = [:]
        /// The names that matter in the file's own folders: the path's and its target's.
        var names: Set<String> = []
        var armedTarget = ""

        init(descriptor: Int32, file: StoreFile) {
            self.descriptor = descriptor
            self.file = file
        }

        /// Whether every folder of interest is watched itself (not through an ancestor).
        var complete: Bool { !watches.isEmpty && watches.values.allSatisfy { $0.awaited.isEmpty } }

        /// Watches the file's folder and its target's folder, or their nearest existing ancestors. New watches are
        /// added before old ones are removed, so no event falls between them. False when nothing could be watched.
        mutating func arm() -> Bool {
            let target = (try? file.target()) ?? file.path
            armedTarget = target
            names = [(file.path as NSString).lastPathComponent, (target as NSString).lastPathComponent]
            // One mask for every watch: a folder can be one file's own folder and another's ancestor.
            let mask = UInt32(
                IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF
                    | IN_MOVE_SELF | IN_ONLYDIR)
            var wanted: [Int32: Purpose] = [:]
            for folder in Set([StoreFile.folder(of: file.path), StoreFile.folder(of: target)]) {
                var current = folder
                var child: String?
                while true {
                    let watch = inotify_add_watch(descriptor, current, mask)
                    if watch >= 0 {
                        if let child {
                            wanted[watch, default: Purpose()].awaited.insert(child)
                        } else {
                            wanted[watch, default: Purpose()].isOwn = true
                        }
                        break
                    }
                    let parent = (current as NSString).deletingLastPathComponent
                    guard parent != current, !parent.isEmpty else { break }
                    child = (current as NSString).lastPathComponent
                    current = parent
                }
            }
            for watch in watches.keys where wanted[watch] == nil { inotify_rm_watch(descriptor, watch) }
            watches = wanted
            return !watches.isEmpty
        }

        /// Runs until stopped (true) or until nothing can be watched (false).
        mutating func run(stop: Int32, onChange: @Sendable () -> Void) -> Bool {
            guard arm() else { return false }
            // The watches are armed on this thread, after the store started watching: a change made in between
            // raised no event, so look once now (an unchanged file costs one stat).
            onChange()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let headerSize = MemoryLayout<inotify_event>.size
            while true {
                // While a folder is missing, look again every 250 ms as well: a safety net for races between a
                // folder's creation and the watch moving down to it.
                let (stopping, ready) = FileWatcher.waitForStop(
                    stop, extra: descriptor, milliseconds: complete ? -1 : 250)
                if stopping { return true }
                var relevant = false
                var rearm = !ready && !complete
                while ready {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                    guard count > 0 else { break }
                    var offset = 0
                    while offset + headerSize <= count {
                        let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                            let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                            return (event.wd, event.mask, Int(event.len))
                        }
                        let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + length)]
                        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                        offset += headerSize + length
                        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                            (rearm, relevant) = (true, true)
                            continue
                        }
                        // Events of watches already removed (their IN_IGNORED) are not about the current ones.
                        guard let purpose = watches[watch] else { continue }
                        if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0
                            || purpose.awaited.contains(name)
                        {
                            rearm = true
                        }
                        if purpose.isOwn, names.contains(name) { relevant = true }
                    }
                }
                if relevant, ((try? file.target()) ?? file.path) != armedTarget { rearm = true }
                if rearm {
                    let wasComplete = complete
                    guard arm() else { return false }
                    if complete || wasComplete { relevant = true }
                }
                if relevant { onChange() }
            }
        }
    }
#endif
