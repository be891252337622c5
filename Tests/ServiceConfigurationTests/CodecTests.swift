import Foundation
import ServiceConfiguration
import Testing

@Suite("Codecs chosen by value type")
struct CodecTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("Bool decodes exactly Y and N")
    func boolYN() throws {
        #expect(try Fixture.FlagKey.decode(from: "Y") == true)
        #expect(try Fixture.FlagKey.decode(from: "N") == false)
        #expect(try Fixture.FlagKey.encode(true) == "Y")
        #expect(try Fixture.FlagKey.encode(false) == "N")
    }

    @Test("Bool rejects near misses with a reason", arguments: ["y", "n", "true", "false", "1", "", " Y", "YES"])
    func boolRejects(raw: String) {
        #expect {
            try Fixture.FlagKey.decode(from: raw)
        } throws: { error in
            "\(error)" == "expected Y or N, got \"\(raw)\""
        }
    }

    @Test("integers, floating point and strings")
    func scalars() throws {
        #expect(try Fixture.CountKey.decode(from: "42") == 42)
        #expect(try Fixture.CountKey.decode(from: "-7") == -7)
        #expect(throws: ConfigurationDecodingError.self) { try Fixture.CountKey.decode(from: "4.2") }
        #expect(throws: ConfigurationDecodingError.self) { try Fixture.CountKey.decode(from: "1,000") }
        #expect(throws: ConfigurationDecodingError.self) { try Fixture.CountKey.decode(from: "99999999999999999999") }
        #expect(try Fixture.RatioKey.decode(from: "0.25") == 0.25)
        #expect(try Fixture.RatioKey.decode(from: "3") == 3)
        #expect(try Fixture.RatioKey.encode(0.7) == "0.7")
        #expect(throws: ConfigurationDecodingError.self) { try Fixture.RatioKey.decode(from: "nan") }
        #expect(throws: ConfigurationDecodingError.self) { try Fixture.RatioKey.decode(from: "inf") }
        #expect(try Fixture.GreetingKey.decode(from: "") == "")
        #expect(try Fixture.GreetingKey.decode(from: "日本語 ✓") == "日本語 ✓")
    }

    @Test("integer error names the range")
    func integerMessage() {
        let error = #expect(throws: ConfigurationDecodingError.self) { try Fixture.CountKey.decode(from: "lots") }
        #expect(error?.description == "expected an integer, got \"lots\"")
        #expect(throws: ConfigurationDecodingError(expected: "an integer from -128 to 127", got: "200")) {
            try Int8.decodeConfigurationValue("200")
        }
        #expect(
            throws: ConfigurationDecodingError(expected: "a whole number from 0 to 18446744073709551615", got: "-1")
        ) {
            try UInt.decodeConfigurationValue("-1")
        }
        #expect(throws: ConfigurationDecodingError(expected: "a whole number (0 or more)", got: "1.5")) {
            try UInt.decodeConfigurationValue("1.5")
        }
        // A whole number past a 64-bit type's range is refused naming the range, not as if it were not a number.
        let past = "9223372036854775808"
        #expect(
            throws: ConfigurationDecodingError(
                expected: "an integer from -9223372036854775808 to 9223372036854775807", got: past)
        ) { try Int.decodeConfigurationValue(past) }
        #expect(throws: ConfigurationDecodingError(expected: "an integer", got: "-")) {
            try Int.decodeConfigurationValue("-")
        }
    }

    @Test("string and integer raw-value enums")
    func enums() throws {
        #expect(try Fixture.ModeKey.decode(from: "manual") == .manual)
        #expect(try Fixture.ModeKey.encode(.off) == "off")
        let error = #expect(throws: ConfigurationDecodingError.self) { try Fixture.ModeKey.decode(from: "Manual") }
        #expect(error?.description == "expected one of: automatic, manual, off, got \"Manual\"")
        #expect(try Fixture.LevelKey.decode(from: "2") == .high)
        #expect(try Fixture.LevelKey.encode(.low) == "1")
        #expect(throws: ConfigurationDecodingError.self) { try Fixture.LevelKey.decode(from: "3") }
    }

    @Test("custom string value uses its own format in messages")
    func customValue() throws {
        #expect(try Fixture.SizeKey.decode(from: "16x9") == FixtureSize(width: 16, height: 9))
        #expect(try Fixture.SizeKey.encode(FixtureSize(width: 1, height: 2)) == "1x2")
        let error = #expect(throws: ConfigurationDecodingError.self) { try Fixture.SizeKey.decode(from: "16:9") }
        #expect(error?.description == "expected WIDTHxHEIGHT such as 4x3, got \"16:9\"")
    }

    @Test("JSON values round-trip with sorted keys and explain failures")
    func json() throws {
        let policy = FixturePolicy(limit: 5, tags: ["x", "y"])
        let encoded = try #require(try Fixture.PolicyKey.encode(policy))
        #expect(encoded == #"{"limit":5,"tags":["x","y"]}"#)
        #expect(try Fixture.PolicyKey.decode(from: encoded) == policy)

        let wrongType = #expect(throws: ConfigurationDecodingError.self) {
            try Fixture.PolicyKey.decode(from: #"{"limit":"5","tags":[]}"#)
        }
        #expect(wrongType?.description == "invalid JSON value: at limit: expected an integer")
        let missing = #expect(throws: ConfigurationDecodingError.self) {
            try Fixture.PolicyKey.decode(from: #"{"limit":5}"#)
        }
        #expect(missing?.description == "invalid JSON value: missing key \"tags\"")
        let nested = #expect(throws: ConfigurationDecodingError.self) {
            try Fixture.PolicyKey.decode(from: #"{"limit":5,"tags":["a",7]}"#)
        }
        #expect(nested?.description == "invalid JSON value: at tags[1]: expected a string")
        let broken = #expect(throws: ConfigurationDecodingError.self) { try Fixture.PolicyKey.decode(from: "{limit") }
        #expect(broken?.description.hasPrefix("not valid JSON") == true)
    }

    @Test("arrays and dictionaries of Codable values are JSON values")
    func collections() throws {
        enum ListKey: ConfigurationKey {
            static let name = "test.list"
            static let defaultValue = ["a"]
        }
        enum MapKey: ConfigurationKey {
            static let name = "test.map"
            static let defaultValue = ["k": 1]
        }
        #expect(try ListKey.decode(from: #"["x","y"]"#) == ["x", "y"])
        #expect(try MapKey.encode(["b": 2, "a": 1]) == #"{"a":1,"b":2}"#)
        guard case .json = ListKey.debugControlType else {
            Issue.record("arrays should get the JSON editor")
            return
        }
    }

    @Test("error messages quote and shorten hostile input")
    func quoting() {
        let long = String(repeating: "x", count: 500)
        #expect(ConfigurationDecodingError(expected: "Y or N", got: long).description.count < 90)
        #expect(
            ConfigurationDecodingError(expected: "Y or N", got: "a\nb\"c").description
                == #"expected Y or N, got "a\nb\"c""#)
    }
}
