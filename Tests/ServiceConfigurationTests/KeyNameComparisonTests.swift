import Foundation
import ServiceConfigurationFileStore
import Testing

@testable import ServiceConfiguration
@testable import ServiceConfigurationSync

/// Key names that look alike: one name written two ways is one key, and a document naming it twice is refused
/// with both spellings shown, so nothing is silently kept or dropped.
@Suite("Unicode-equivalent key names in one document")
struct KeyNameComparisonTests {
    let precomposed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"

    @Test("a server body naming café precomposed and decomposed is refused whole, both spellings shown")
    func serverBody() throws {
        #expect(precomposed == decomposed, "Swift compares them equal: one dictionary key")
        let body = Data("{\"\(precomposed)\": \"1\", \"\(decomposed)\": \"2\"}".utf8)
        let error = #expect(throws: ServerSyncError.self) { try ServerValuesFormat.decodeJSONObject(body) }
        let reason = try #require(error?.reason)
        #expect(
            reason.contains(#"duplicate key "cafe\u{0301}" (another spelling of "caf\u{00E9}" at line 1"#), "\(reason)")
        #expect(!reason.unicodeScalars.contains("\u{301}"), "the spellings are told apart, not shown alike")
        // The same spelling twice is the plain duplicate it always was; different names are two keys.
        let twice = #expect(throws: ServerSyncError.self) {
            try ServerValuesFormat.decodeJSONObject(Data("{\"a\": \"1\", \"a\": \"2\"}".utf8))
        }
        #expect(twice?.reason.contains("duplicate key \"a\" at line 1") == true)
        #expect(
            try ServerValuesFormat.decodeJSONObject(Data("{\"\(precomposed)\": \"1\", \"cafe\": \"2\"}".utf8)).count
                == 2)
    }

    @Test("a store file naming café both ways is refused the same way, and left as it is")
    func storeFile() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let text = storeText(#""\#(precomposed)": {"value": "1"}, "\#(decomposed)": {"value": "2"}"#)
        try writeStore(text, at: url)
        let store = FileOverrideStore(url: url)
        let error = try #require(store.reload())
        #expect(error.kind == .corrupt)
        #expect(error.problem.contains(#"another spelling of "caf\u{00E9}""#), "\(error.problem)")
        #expect(try String(contentsOf: url, encoding: .utf8) == text)
    }
}
