package import Foundation
package import ServiceConfigurationFiles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The snapshot file: read with the override store's checks (a regular file this user owns, not writable by
/// others, in a folder others cannot write), written atomically through ``StoreFile/replace(with:)`` (a new file
/// with mode 0600 in the same folder, flushed, renamed over the old one).
///
/// Server values change how a program behaves, so a snapshot another user could have written is refused like a
/// loose override store.
package struct ServerSnapshotFile: Sendable {
    package let file: StoreFile

    /// The snapshot at `url`; `confinedTo` a folder another program owns (see ``StoreFile``), no link inside it is
    /// followed.
    package init(url: URL, faults: StoreFaultInjector? = nil, confinedTo confinement: URL? = nil) {
        file = StoreFile(url: url.standardizedFileURL, faults: faults, confinedTo: confinement)
    }

    package var url: URL { file.url }

    /// The snapshot, `nil` when there is no file, or why it cannot be used.
    package func load() -> Result<ServerValuesSnapshot?, SnapshotProblem> {
        let bytes: [UInt8]
        switch readBytes() {
        case .success(nil): return .success(nil)
        case .success(let read?): bytes = read
        case .failure(let problem): return .failure(problem)
        }
        do {
            return .success(try ServerValuesSnapshot(parsing: bytes))
        } catch {
            return .failure(SnapshotProblem("\(url.path): \(error.description)"))
        }
    }

    /// Saves `bytes` atomically. A snapshot larger than the reader accepts is not written.
    package func save(_ bytes: [UInt8]) -> SnapshotProblem? {
        guard bytes.count <= ServerValuesSnapshot.maximumFileSize else {
            return SnapshotProblem(
                "\(url.path): the snapshot would be \(bytes.count >> 20) MiB, over the "
                    + "\(ServerValuesSnapshot.maximumFileSize >> 20) MiB limit; not saved")
        }
        do throws(StoreFile.Failure) {
            let target = try file.target()
            try file.ensureFolder(of: target)
            try file.checkFolderPermissions(StoreFile.folder(of: target))
            _ = try file.replace(target, with: bytes)
            return nil
        } catch {
            return SnapshotProblem("\(url.path): \(error.problem)")
        }
    }

    private func readBytes() -> Result<[UInt8]?, SnapshotProblem> {
        do throws(StoreFile.Failure) {
            try file.checkConfined(file.path)
        } catch {
            return .failure(SnapshotProblem(error.problem))
        }
        let limit = ServerValuesSnapshot.maximumFileSize
        let options = BoundedFileReader.Options(
            limit: limit, followsFinalLink: file.confinement == nil, missingIsNil: true)
        let opened: BoundedFileReader.OpenFile?
        do throws(BoundedFileReader.Failure) {
            opened = try BoundedFileReader.open(file.path, options)
        } catch {
            return .failure(problem(error))
        }
        guard let snapshot = opened else { return .success(nil) }
        let info = snapshot.info
        guard info.st_uid == geteuid() else {
            return .failure(
                SnapshotProblem(
                    "\(url.path): belongs to another user (uid \(info.st_uid)); server values change how programs "
                        + "behave, so it is refused. Fix: delete it (the next sync writes a new one)"))
        }
        guard info.st_mode & 0o022 == 0 else {
            return .failure(
                SnapshotProblem(
                    "\(url.path): writable by other users (mode \(String(info.st_mode & 0o7777, radix: 8))); refused. "
                        + "Fix: chmod 600 \(url.path)"))
        }
        do throws(StoreFile.Failure) {
            try file.checkFolderPermissions(StoreFile.folder(of: file.path))
        } catch {
            return .failure(SnapshotProblem(error.problem))
        }
        do throws(BoundedFileReader.Failure) {
            return .success(try snapshot.read())
        } catch {
            return .failure(problem(error))
        }
    }

    /// The snapshot's own words for why the reader refused the file.
    private func problem(_ error: BoundedFileReader.Failure) -> SnapshotProblem {
        let limit = ServerValuesSnapshot.maximumFileSize >> 20
        return switch error.reason {
        case .folder, .notRegularFile: SnapshotProblem("\(url.path): not a regular file; refused")
        case .tooLarge(let size?, _):
            SnapshotProblem("\(url.path): \(size >> 20) MiB, over the \(limit) MiB limit; refused")
        case .tooLarge(nil, _): SnapshotProblem("\(url.path): grew past the \(limit) MiB limit while read; refused")
        case .system(let action, let code):
            SnapshotProblem("\(url.path): \(action): \(String(cString: strerror(code)))")
        case .missing, .symbolicLink: SnapshotProblem(error.description)
        }
    }
}

/// Why a snapshot could not be read or saved: a sentence naming the file.
package struct SnapshotProblem: Error, Sendable, Hashable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
