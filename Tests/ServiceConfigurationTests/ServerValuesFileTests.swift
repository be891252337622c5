import Foundation
import ServiceConfiguration
import Testing

@Suite("Files of server values: a JSON object of strings, refused with the file and the key")
struct ServerValuesFileTests {
    let folder = TemporaryFolder()

    func write(_ text: String, name: String = "values.json") throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("write then read gives the same values, unicode and control characters included")
    func roundTrip() throws {
        let values = ["a": "Y", "b.c": #"{"x":[1,2]}"#, "日本": "é\n\u{1}/", "": ""]
        let url = folder.url.appendingPathComponent("sync.json")
        try ServerValuesFile.write(values, to: url)
        #expect(try ServerValuesFile.read(from: url) == values)
    }

    @Test(
        "what is not an object of strings is refused, naming the file and the key",
        arguments: [
            ("[1, 2]", "expected a JSON object of key names to strings, found an array"),
            ("\"text\"", "expected a JSON object of key names to strings, found a string"),
            (
                #"{"a": "Y", "b": 4}"#,
                #"the value of "b" must be a string (wire format), found a number; write it in quotes"#
            ),
            (
                #"{"flag": true}"#,
                #"the value of "flag" must be a string (wire format), found true or false; write it in quotes"#
            ),
            (#"{"x": null}"#, #"the value of "x" must be a string (wire format), found null; write it in quotes"#),
            ("{", "not valid JSON: unexpected end of file during JSON parse"),
            ("", "not valid JSON: unexpected end of file during JSON parse"),
        ]
    )
    func refused(text: String, problem: String) throws {
        let url = try write(text)
        #expect(throws: ServerValuesFileError(url: url, problem: problem)) { try ServerValuesFile.read(from: url) }
    }

    @Test("a missing file, a directory and invalid UTF-8 are refused, never read as empty")
    func unreadable() throws {
        let missing = folder.url.appendingPathComponent("missing.json")
        let error = #expect(throws: ServerValuesFileError.self) { try ServerValuesFile.read(from: missing) }
        #expect(error?.description.hasPrefix("\(missing.path): cannot read the server values") == true)
        let directory = folder.url.appendingPathComponent("dir")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(throws: ServerValuesFileError.self) { try ServerValuesFile.read(from: directory) }
        let invalid = folder.url.appendingPathComponent("bytes.json")
        try Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]).write(to: invalid)
        #expect(throws: ServerValuesFileError.self) { try ServerValuesFile.read(from: invalid) }
    }

    @Test("a file over the size limit is refused without reading it whole")
    func huge() throws {
        let url = folder.url.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(ServerValuesFile.sizeLimit + 10))
        try handle.close()
        #expect(
            throws: ServerValuesFileError(url: url, problem: "larger than 64 MiB; this is not a file of server values")
        ) {
            try ServerValuesFile.read(from: url)
        }
    }
}

@Suite("Error messages never carry a raw control character from a file")
struct HostileNameTests {
    @Test("a key name, a path, a pattern's format and a picker choice are shown escaped")
    func escaped() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("sync\u{1B}]0;x\u{07}.json")
        try Data(#"{"bad\u001b[2J": 1}"#.utf8).write(to: url)
        let error = #expect(throws: ServerValuesFileError.self) { try ServerValuesFile.read(from: url) }
        let message = try #require(error?.description)
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 }, "\(message.debugDescription)")
        #expect(message.contains(#"sync\u{001B}]0;x\u{0007}.json"#) && message.contains(#"bad\u{001B}[2J"#))

        let manifest = Data(
            #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [{"name": "k\u001b", "control": {"kind": "picker", "choices": [{"value": "a\u0007"}]}}, {"name": "t", "control": {"kind": "text"}, "pattern": "x", "format": "X\u001b[31m"}]}]}"#
                .utf8)
        let catalog = try ConfigurationCatalog(manifest: manifest)
        for (name, value) in [("k\u{1B}", "b"), ("t", "y")] {
            let problem = outcome { try catalog.descriptor(named: name)!.validate(value) }
            #expect(!problem.unicodeScalars.contains { $0.value < 0x20 }, "\(problem.debugDescription)")
        }
        let unknown = ConfigurationError.unknownKey("k\u{1B}[2J", suggestions: ["s\u{07}"]).description
        #expect(!unknown.unicodeScalars.contains { $0.value < 0x20 })
    }
}
