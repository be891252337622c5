import Foundation
import ServiceConfigurationFiles
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("BoundedFileReader: the one reader of whole files, on regular files, links, folders, FIFOs and limits")
struct BoundedFileReaderTests {
    let folder = TemporaryFolder()

    /// Writes `bytes` to `name` in the folder and returns its path.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = folder.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The reason the reader refused `path` with `options`, or `nil` when it read it.
    func reason(_ path: String, _ options: BoundedFileReader.Options) -> BoundedFileReader.Failure.Reason? {
        do throws(BoundedFileReader.Failure) {
            _ = try BoundedFileReader.read(path, options)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("a regular file is read whole; invalid UTF-8 comes back byte for byte")
    func regular() throws {
        let bytes: [UInt8] = [0x7B, 0x22, 0xFF, 0xFE, 0xC0, 0x80, 0x22, 0x7D, 0x00, 0x0A]
        let path = try file("bytes.json", bytes)
        #expect(try BoundedFileReader.read(path, .init(limit: 1 << 20)) == bytes)
        guard let opened = try BoundedFileReader.open(path, .init(limit: 1 << 20)) else {
            Issue.record("the file was not opened")
            return
        }
        #expect(opened.isRegularFile && opened.fingerprint.size == Int64(bytes.count))
    }

    @Test("an empty file is no bytes, even with a limit of zero")
    func empty() throws {
        let path = try file("empty.json", [])
        #expect(try BoundedFileReader.read(path, .init(limit: 0)) == [])
        #expect(try BoundedFileReader.read(path, .init(limit: 10)) == [])
    }

    @Test("a missing file is nil when asked, otherwise a failure naming it")
    func missing() throws {
        let path = folder.url.appendingPathComponent("missing.json").path
        #expect(try BoundedFileReader.read(path, .init(limit: 10, missingIsNil: true)) == nil)
        #expect(reason(path, .init(limit: 10)) == .missing)
        #expect(
            BoundedFileReader.Failure(path: path, reason: .missing).description == "\(path) does not exist")
    }

    @Test("a folder is refused as a folder, whatever the options")
    func folderRefused() throws {
        let path = folder.url.appendingPathComponent("dir").path
        #expect(mkdir(path, 0o700) == 0)
        #expect(reason(path, .init(limit: 10)) == .folder)
        #expect(reason(path, .init(limit: 10, readsStreams: true)) == .folder)
        #expect(
            BoundedFileReader.Failure(path: path, reason: .folder).description == "\(path) is a folder, not a file")
    }

    @Test("a FIFO is refused at once, without waiting for a writer that never comes", .timeLimit(.minutes(1)))
    func fifo() throws {
        let path = folder.url.appendingPathComponent("fifo.json").path
        #expect(mkfifo(path, 0o600) == 0)
        let start = ContinuousClock.now
        #expect(reason(path, .init(limit: 10)) == .notRegularFile(kind: "a FIFO"))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(
            BoundedFileReader.Failure(path: path, reason: .notRegularFile(kind: "a FIFO")).description
                == "\(path) is a FIFO, not a regular file")
    }

    @Test("a stream is read like cat reads it when asked, and refused once it passes the limit")
    func stream() throws {
        let path = folder.url.appendingPathComponent("stream").path
        #expect(mkfifo(path, 0o600) == 0)
        for (count, limit) in [(100, 100), (101, 100)] {
            let writer = try ChildProcess(
                "/bin/sh", ["-c", "head -c \(count) /dev/zero > '\(path)'"], standardInput: .null,
                standardOutput: .discard)
            defer {
                writer.signal(SIGTERM)
                _ = writer.waitUntilExit()
            }
            if count <= limit {
                #expect(try BoundedFileReader.read(path, .init(limit: limit, readsStreams: true))?.count == count)
            } else {
                #expect(
                    reason(path, .init(limit: limit, readsStreams: true)) == .tooLarge(size: nil, limit: limit))
            }
        }
    }

    @Test("a symbolic link is followed by default, and refused as a link when links are not followed")
    func symbolicLink() throws {
        let target = try file("target.json", Array("{}".utf8))
        let link = folder.url.appendingPathComponent("link.json").path
        #expect(symlink(target, link) == 0)
        #expect(try BoundedFileReader.read(link, .init(limit: 10)) == Array("{}".utf8))
        #expect(reason(link, .init(limit: 10, followsFinalLink: false)) == .symbolicLink)
        #expect(reason(link, .init(limit: 10, followsFinalLink: false, missingIsNil: true)) == .symbolicLink)
        #expect(
            BoundedFileReader.Failure(path: link, reason: .symbolicLink).description
                == "\(link) is a symbolic link, which is not followed here")
        // A dangling link is a missing file when followed, and still a link when not.
        let dangling = folder.url.appendingPathComponent("dangling.json").path
        #expect(symlink(folder.url.appendingPathComponent("nowhere").path, dangling) == 0)
        #expect(try BoundedFileReader.read(dangling, .init(limit: 10, missingIsNil: true)) == nil)
        #expect(reason(dangling, .init(limit: 10, followsFinalLink: false)) == .symbolicLink)
    }

    @Test("a file at exactly the limit is read; one byte more is refused on its size, unread")
    func limit() throws {
        let path = try file("sized.json", [UInt8](repeating: 0x61, count: 4096))
        #expect(try BoundedFileReader.read(path, .init(limit: 4096))?.count == 4096)
        #expect(reason(path, .init(limit: 4095)) == .tooLarge(size: 4096, limit: 4095))
        let huge = folder.url.appendingPathComponent("huge.json").path
        #expect(creat(huge, 0o600) >= 0)
        #expect(truncate(huge, 300 << 20) == 0)
        let failure = BoundedFileReader.Failure(path: huge, reason: .tooLarge(size: 300 << 20, limit: 16 << 20))
        #expect(reason(huge, .init(limit: 16 << 20)) == failure.reason)
        #expect(failure.description == "\(huge) is 300 MiB, more than the 16 MiB limit")
    }

    @Test("a file that grows past the limit after it was opened is refused while it is read")
    func growing() throws {
        let path = try file("growing.json", [UInt8](repeating: 0x61, count: 100))
        func append(_ count: Int) throws {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 0x62, count: count))
            try handle.close()
        }
        guard let opened = try BoundedFileReader.open(path, .init(limit: 150)) else {
            Issue.record("the file was not opened")
            return
        }
        #expect(opened.info.st_size == 100)
        try append(51)
        do throws(BoundedFileReader.Failure) {
            _ = try opened.read()
            Issue.record("a file grown past the limit was read")
        } catch {
            #expect(error == BoundedFileReader.Failure(path: path, reason: .tooLarge(size: nil, limit: 150)))
        }
        // Growing within the limit is read to the new end.
        guard let again = try BoundedFileReader.open(path, .init(limit: 300)) else {
            Issue.record("the file was not opened")
            return
        }
        try append(49)
        // Byte for byte: the read starts into storage it does not zero first.
        #expect(try again.read() == [UInt8](repeating: 0x61, count: 100) + [UInt8](repeating: 0x62, count: 100))
    }

    @Test("reading from an offset reads the rest, and the limit counts only the rest")
    func offset() throws {
        let path = try file("log.jsonl", Array("first\nsecond\n".utf8))
        #expect(try BoundedFileReader.read(path, .init(limit: 7, offset: 6)) == Array("second\n".utf8))
        #expect(reason(path, .init(limit: 6, offset: 6)) == .tooLarge(size: 7, limit: 6))
        #expect(try BoundedFileReader.read(path, .init(limit: 7, offset: 13)) == [])
    }

    @Test(
        "a file without read permission is refused with the system's reason",
        .enabled(if: geteuid() != 0, "root reads any file, so this cannot be checked as root"))
    func unreadable() throws {
        let path = try file("private.json", Array("{}".utf8))
        #expect(chmod(path, 0) == 0)
        #expect(reason(path, .init(limit: 10)) == .system(action: "cannot open", code: EACCES))
    }
}
