import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@Suite("Debug titles and controls")
struct DebugMetadataTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test(
        "titles derived from wire names",
        arguments: [
            ("function.album.like.enabled", "Like Enabled"),
            ("function.media.image_medium", "Image Medium"),
            ("function.chat.typing_interval_ms", "Typing Interval (ms)"),
            ("function.network.timeout_sec", "Network Timeout (s)"),
            ("function.network.http3.enabled", "HTTP/3 Enabled"),
            ("ab.album.like_button", "Like Button"),
            ("function.stickers.cdn_base_url", "CDN Base URL"),
            ("chat.maxUploadSize", "Max Upload Size"),
            ("enabled", "Enabled"),
            ("feature.mode", "Mode"),
            ("a..b", "B"),
            ("function.profile.bio.max_length", "Bio Max Length"),
            ("function.checkout.cart.max_items", "Cart Max Items"),
            ("function.checkout.max.length", "Checkout Max Length"),
            ("function.chat.message_max_length", "Message Max Length"),
            ("function.media.video_max_duration_sec", "Video Max Duration (s)"),
            ("function.session.ttl_sec", "Session TTL (s)"),
            ("", ""),
            ("...", "..."),
        ]
    )
    func titles(name: String, title: String) {
        #expect(ConfigurationDebugTitle.derive(from: name) == title)
    }

    @Test("a key can set its own title")
    func customTitle() {
        enum Key: ConfigurationKey {
            static let name = "x.y.z"
            static let defaultValue = 1
            static let debugTitle = "Custom"
        }
        #expect(Key.debugTitle == "Custom")
        #expect(ConfigurationKeyDescriptor(Key.self).title == "Custom")
    }

    @Test("controls chosen from the value type")
    func controls() {
        #expect(fixtureDescriptor(Fixture.FlagKey.self).control == .toggle)
        #expect(
            fixtureDescriptor(Fixture.CountKey.self).control
                == .number(
                    .integer, ConfigurationNumberRange(minimum: String(Int.min), maximum: String(Int.max), step: "1")),
            "an integer key accepts its type's range")
        #expect(fixtureDescriptor(Fixture.RatioKey.self).control == .number(.floatingPoint))
        #expect(fixtureDescriptor(Fixture.GreetingKey.self).control == .text)
        #expect(fixtureDescriptor(Fixture.SizeKey.self).control == .text)
        #expect(fixtureDescriptor(Fixture.PolicyKey.self).control == .json)
        #expect(
            fixtureDescriptor(Fixture.ModeKey.self).control
                == .picker([
                    .init(value: "automatic", title: "automatic"), .init(value: "manual", title: "manual"),
                    .init(value: "off", title: "off"),
                ])
        )
        #expect(
            fixtureDescriptor(Fixture.LevelKey.self).control
                == .picker([.init(value: "1", title: "low"), .init(value: "2", title: "high")]),
            "an Int-backed enum is titled with its case names")
    }

    @Test("A/B keys list every variant and mark the enabled ones")
    func experiment() {
        #expect(
            fixtureDescriptor(Fixture.ExperimentKey.self).control
                == .picker([
                    .init(value: "none", title: "none", isEnabled: false),
                    .init(value: "off", title: "off", isEnabled: false),
                    .init(value: "on", title: "on (enabled)", isEnabled: true),
                ])
        )
        #expect(ConfigurationABTest.on.isEnabled)
        #expect(!ConfigurationABTest.off.isEnabled)
        #expect(!ConfigurationABTest.none.isEnabled)
    }

    @Test("a key can choose another control, such as a picker over fixed values")
    func customControl() {
        enum SizeKey: ConfigurationKey {
            static let name = "test.thumbnail_size"
            static let defaultValue = 256
            static var debugControlType: ConfigurationDebugControlType<Int> {
                .picker([.init(128), .init(256), .init(512, title: "512 (retina)")])
            }
        }
        #expect(
            ConfigurationKeyDescriptor(SizeKey.self).control
                == .picker([
                    .init(value: "128", title: "128"), .init(value: "256", title: "256"),
                    .init(value: "512", title: "512 (retina)"),
                ])
        )
    }

    @Test("descriptor carries default, type name and a validator returning canonical strings")
    func descriptor() throws {
        let count = fixtureDescriptor(Fixture.CountKey.self)
        #expect(count.defaultValueString == "3")
        #expect(count.valueTypeName == "Int")
        #expect(try count.validate("007") == "7")
        #expect(throws: ConfigurationDecodingError.self) { try count.validate("seven") }
        let size = fixtureDescriptor(Fixture.SizeKey.self)
        #expect(size.valueTypeName == "FixtureSize")
        #expect(size.defaultValueString == "4x3")
    }
}

@Suite("Value sources print as the menu shows them and debug-print as Swift writes them")
struct ValueSourceTests {
    @Test("description is the menu's capitals, debugDescription the case")
    func spelling() {
        #expect(ValueOrigin.allCases.map(\.description) == ["LAUNCH", "OVERRIDDEN", "SERVER", "DEFAULT"])
        #expect(ValueOrigin.allCases.map(\.debugDescription) == [".launch", ".overridden", ".server", ".default"])
        var dumped = ""
        dump(ValueOrigin.default, to: &dumped)
        #expect(dumped.contains(".default"))
    }
}
