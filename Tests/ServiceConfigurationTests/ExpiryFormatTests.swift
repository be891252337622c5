import Foundation
import Testing

@testable import ServiceConfiguration
@testable import ServiceConfigurationFileStore

@Suite("Expiry in the store file: format version 1 keeps its readers")
struct ExpiryFormatTests {
    let expiring = OverrideEntry(
        value: "Y", setAt: Date(timeIntervalSince1970: 1_764_425_100), serverValueWhenSet: "N", note: "QA 12",
        expiry: OverrideExpiry(
            expiresAt: Date(timeIntervalSince1970: 1_764_432_300), untilServerChanges: true,
            untilVersion: ProgramVersion("14.2")))

    @Test("an entry with expiry is written as optional fields of version 1; one without is byte for byte as before")
    func written() throws {
        var document = OverrideDocument(entries: ["a": expiring, "b": OverrideEntry(value: "1", setAt: nil)])
        let text = String(decoding: document.encodedBytes(), as: UTF8.self)
        #expect(text.contains(#""version": 1,"#))
        #expect(
            text.contains(
                #""a": {"expiresAt": "2025-11-29T16:05:00.000Z", "note": "QA 12", "serverValueWhenSet": "N", "setAt": "2025-11-29T14:05:00.000Z", "untilServerChanges": true, "untilVersion": "14.2", "value": "Y"}"#
            ))
        #expect(text.contains(#""b": {"value": "1"}"#))
        let read = try OverrideDocument(parsing: Array(text.utf8))
        #expect(read.entries["a"] == expiring)
        #expect(read.problems.isEmpty)
    }

    @Test("a file written with expiry reads on the reader path of builds before expiry, and survives their writes")
    func readByEarlierBuilds() throws {
        var document = OverrideDocument(entries: ["a": expiring])
        let written = document.encodedBytes()
        // The reader of builds before expiry: the three fields are unknown to it, so they are kept as found.
        var old = try OverrideDocument(parsing: written, understandingExpiry: false)
        #expect(old.problems.isEmpty, "nothing refused, nothing quarantined")
        let entry = try #require(old.entries["a"])
        #expect(entry.value == "Y", "the override applies there (without its expiry)")
        #expect(entry.setAt == expiring.setAt)
        #expect(entry.note == "QA 12")
        #expect(entry.expiry.isNever)
        #expect(
            entry.preservedFields == [
                "expiresAt": #""2025-11-29T16:05:00.000Z""#, "untilServerChanges": "true", "untilVersion": #""14.2""#,
            ])
        // Their writer writes the entry back unchanged (another key changed), and this build reads the rule again.
        old["other"] = OverrideEntry(value: "2", setAt: nil)
        let rewritten = old.encodedBytes()
        let again = try OverrideDocument(parsing: rewritten)
        #expect(again.entries["a"] == expiring)
    }

    @Test("expiry fields that cannot be read are kept as found and reported; the override applies without expiry")
    func unreadableFields() throws {
        let text = storeText(
            #""a": {"expiresAt": "tomorrow", "untilServerChanges": "yes", "untilVersion": "14.2-beta", "value": "Y"}"#)
        let document = try OverrideDocument(parsing: Array(text.utf8))
        let entry = try #require(document.entries["a"])
        #expect(entry.expiry.isNever)
        #expect(Set(document.problems.compactMap(\.field)) == ["expiresAt", "untilServerChanges", "untilVersion"])
        #expect(document.problems.allSatisfy { $0.isApplied })
        var copy = document
        #expect(
            String(decoding: copy.encodedBytes(), as: UTF8.self).contains(
                #""a": {"expiresAt": "tomorrow", "untilServerChanges": "yes", "untilVersion": "14.2-beta", "value": "Y"}"#
            ))
    }

    @Test("a file written by a FileOverrideStore with expiry has format version 1 and reloads equal")
    func throughTheStore() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.modify { $0["a"] = expiring }
        let text = try String(contentsOf: folder.storeURL(), encoding: .utf8)
        #expect(text.hasPrefix("{\n  \"format\": \"service-configuration-overrides\",\n  \"version\": 1,\n"))
        let fresh = FileOverrideStore(url: folder.storeURL())
        #expect(fresh.reload() == nil)
        #expect(fresh.entries["a"] == expiring)
    }
}
