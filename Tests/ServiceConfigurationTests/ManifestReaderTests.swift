import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationCore
import SharedTestSupport
import Testing

/// The manifest has two readers: a fast one for the plain form and Foundation's `JSONDecoder` for everything else.
/// A document that starts with a UTF-8 byte-order mark is one the fast reader never takes (the decoder accepts the
/// mark), so reading a document with and without one compares the two readers from outside.
@Suite("Manifest reading: the fast reader accepts exactly what the decoder accepts, with the same result")
struct ManifestReaderTests {
    /// What reading `bytes` gave: the catalog's own manifest when accepted, else that it was refused.
    private static func outcome(_ bytes: [UInt8]) -> String {
        do {
            return String(decoding: try ConfigurationCatalog(manifest: Data(bytes)).manifestJSON(), as: UTF8.self)
        } catch {
            return "refused"
        }
    }

    private static func outcomes(_ text: [UInt8]) -> (fast: String, decoder: String) {
        (outcome(text), outcome([0xEF, 0xBB, 0xBF] + text))
    }

    @Test("the compact form, an indented one and one with unknown members read to the same catalog")
    func layouts() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let compact = [UInt8](catalog.manifestJSON())
        var tree = Tree(try StrictJSON.parse(compact))
        let indented = tree.text(indent: 4)
        let expected = String(decoding: compact, as: UTF8.self)
        #expect(Self.outcomes(compact) == (expected, expected))
        #expect(Self.outcomes(indented) == (expected, expected))
        tree.addUnknownMembers()
        let unknown = tree.text(indent: 2)
        #expect(Self.outcomes(unknown) == (expected, expected))
    }

    @Test(
        "documents only the decoder takes, or nobody takes, give the decoder's answer",
        arguments: [
            #"{"format":"service-configuration-manifest","version":1.0,"scopes":[]}"#,
            #"{"format":"service-configuration-manifest","version":1,"scopes":[],"scopes":[{"name":"A","keys":[]}]}"#,
            #"{"format":"service-configuration-manifest","version":1,"scopes":[{"name":"A","keys":[{"name":"k","title":null,"control":{"kind":"text"}}]}]}"#,
            #"{"format":"service-configuration-manifest","version":1,"scopes":[{"name":"A","keys":[{"name":"k","control":{"kind":"text","x":[1,2,{"y":-0.5e+3}]}}]}]}"#,
            #"{"format":"service-configuration-manifest","version":1,"scopes":[{"name":"A\ud83d\ude00","keys":[]}]}"#,
            #"{"format":"service-configuration-manifest","version":1,"scopes":[{"name":"A\ud83d","keys":[]}]}"#,
            #"{"format":"service-configuration-manifest","version":1,"scopes":[{"name":"A","keys":[]}]} x"#,
            #"{"format":"service-configuration-manifest","version":01,"scopes":[]}"#,
            #"{"format":"service-configuration-manifest","version":1,"scopes":[{"name":7,"keys":[]}]}"#,
            #"{"format":"other","version":1,"scopes":[]}"#,
            #"{"format":"service-configuration-manifest","version":2,"scopes":[]}"#,
            "{\"format\":\"service-configuration-manifest\",\"version\":1,\"scopes\":[{\"name\":\"A\u{1}\",\"keys\":[]}]}",
        ]
    )
    func oddDocuments(text: String) {
        let (fast, decoder) = Self.outcomes(Array(text.utf8))
        #expect(fast == decoder)
    }

    @Test("invalid UTF-8 inside a string is refused by both readers")
    func invalidUTF8() {
        var text = Array(#"{"format":"service-configuration-manifest","version":1,"scopes":[{"name":"A"#.utf8)
        text += [0xC3, 0x28] + Array(#"","keys":[]}]}"#.utf8)
        #expect(Self.outcomes(text) == ("refused", "refused"))
    }

    @Test("seeded fuzz: random layouts, escapes, unknown members and byte edits read the same both ways")
    func fuzz() throws {
        let base = Tree(try StrictJSON.parse([UInt8](try DemoConfiguration.makeCatalog().manifestJSON())))
        var generator = SeededGenerator(seed: 0x4D41_4E49_4645_5354)
        var accepted = 0
        for iteration in 0..<fuzzIterations(default: 300) {
            var tree = base
            tree.shuffleMembers(using: &generator)
            if Bool.random(using: &generator) { tree.addUnknownMembers() }
            // A reader that decoded escapes wrongly would misread escaped member names too, miss a required member
            // and hand the document to the decoder, hiding its mistake: names are escaped in half the documents only.
            var text = tree.text(
                indent: Int.random(in: 0...3, using: &generator), escaping: &generator,
                escapesNames: Bool.random(using: &generator))
            for _ in 0..<Int.random(in: 0...2, using: &generator) where !text.isEmpty {
                let place = Int.random(in: 0..<text.count, using: &generator)
                switch Int.random(in: 0...2, using: &generator) {
                case 0: text.remove(at: place)
                case 1: text.insert(Array(#"{}[],:"\ 0-e.n"#.utf8).randomElement(using: &generator)!, at: place)
                default: text[place] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            let (fast, decoder) = Self.outcomes(text)
            #expect(fast == decoder, "iteration \(iteration): \(String(decoding: text.prefix(300), as: UTF8.self))")
            if fast != "refused" { accepted += 1 }
        }
        #expect(accepted > 0, "some documents were accepted, so the comparison covered catalogs too")
    }
}

/// A JSON value that keeps member order, written with a chosen layout and escaping.
private indirect enum Tree {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([Tree])
    case object([(String, Tree)])

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text): self = .number(text)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(Tree.init))
        case .object(let members): self = .object(members.map { ($0.key, Tree($0.value)) })
        }
    }

    mutating func shuffleMembers(using generator: inout SeededGenerator) {
        switch self {
        case .array(let elements):
            self = .array(
                elements.map { element in
                    var copy = element
                    copy.shuffleMembers(using: &generator)
                    return copy
                })
        case .object(let members):
            var shuffled = members.shuffled(using: &generator)
            for index in shuffled.indices { shuffled[index].1.shuffleMembers(using: &generator) }
            self = .object(shuffled)
        default: break
        }
    }

    /// Adds members this format does not define to every object, holding every kind of JSON value.
    mutating func addUnknownMembers() {
        switch self {
        case .array(let elements):
            self = .array(
                elements.map { element in
                    var copy = element
                    copy.addUnknownMembers()
                    return copy
                })
        case .object(let members):
            var changed = members.map { member -> (String, Tree) in
                var value = member.1
                value.addUnknownMembers()
                return (member.0, value)
            }
            changed.append(
                (
                    "x-extra",
                    .array([.null, .bool(true), .number("-12.5e-3"), .string("a\"b"), .object([("k", .array([]))])])
                ))
            self = .object(changed)
        default: break
        }
    }

    func text(indent: Int) -> [UInt8] {
        var generator = SeededGenerator(seed: 1)
        var out: [UInt8] = []
        write(to: &out, indent: indent, depth: 0, generator: &generator, plain: true, plainNames: true)
        return out
    }

    /// The text with `indent` spaces a level (0: on one line), characters of values escaped at random, and of member
    /// names too when `escapesNames`.
    func text(indent: Int, escaping generator: inout SeededGenerator, escapesNames: Bool) -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, indent: indent, depth: 0, generator: &generator, plain: false, plainNames: !escapesNames)
        return out
    }

    private func write(
        to out: inout [UInt8], indent: Int, depth: Int, generator: inout SeededGenerator, plain: Bool, plainNames: Bool
    ) {
        func newline(_ level: Int) {
            guard indent > 0 else { return }
            out.append(0x0A)
            out += Array(repeating: 0x20, count: indent * level)
        }
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): Self.string(text, to: &out, generator: &generator, plain: plain)
        case .array(let elements):
            out.append(0x5B)
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(0x2C) }
                newline(depth + 1)
                element.write(
                    to: &out, indent: indent, depth: depth + 1, generator: &generator, plain: plain,
                    plainNames: plainNames)
            }
            if !elements.isEmpty { newline(depth) }
            out.append(0x5D)
        case .object(let members):
            out.append(0x7B)
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(0x2C) }
                newline(depth + 1)
                Self.string(member.0, to: &out, generator: &generator, plain: plainNames)
                out += indent > 0 ? [0x3A, 0x20] : [0x3A]
                member.1.write(
                    to: &out, indent: indent, depth: depth + 1, generator: &generator, plain: plain,
                    plainNames: plainNames)
            }
            if !members.isEmpty { newline(depth) }
            out.append(0x7D)
        }
    }

    /// A JSON string, each character written plainly or (at random, unless `plain`) as an escape.
    private static func string(_ text: String, to out: inout [UInt8], generator: inout SeededGenerator, plain: Bool) {
        out.append(0x22)
        for scalar in text.unicodeScalars {
            let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            if mustEscape || (!plain && Int.random(in: 0..<8, using: &generator) == 0) {
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                }
            } else {
                out += Array(String(scalar).utf8)
            }
        }
        out.append(0x22)
    }
}
