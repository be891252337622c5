// swift-format-ignore-file: DoNotUseSemicolons

// (The declarations below are kept exactly as the issue and the README write them.)
// This target plays the part of a feature module: it sees only the public API of ServiceConfiguration, exactly as
// a module that owns its keys would. The declarations below are the ones from the README, written as is.
import ServiceConfiguration
import ServiceConfigurationTesting
import Testing

struct ImageTransferQuality: ConfigurationValueStringRepresentable, Equatable {
    var maxDimension: Int; var compression: Double
    static let standard = ImageTransferQuality(maxDimension: 1280, compression: 0.7)
    init(maxDimension: Int, compression: Double) { self.maxDimension = maxDimension; self.compression = compression }
    init?(configurationValueString string: String) {
        let parts = string.split(separator: ",")
        guard parts.count == 2, let size = Int(parts[0]), let quality = Int(parts[1]) else { return nil }
        self.init(maxDimension: size, compression: Double(quality) / 100)
    }
    var configurationValueString: String { "\(maxDimension),\(Int((compression * 100).rounded()))" }
}

extension ConfigurationScopes {
    struct Photos: ConfigurationScope {
        let imageMedium: ImageMediumKey
        enum ImageMediumKey: ConfigurationKey {
            static let name = "function.media.image_medium"
            static let defaultValue: ImageTransferQuality = .standard
        }
        let albumLikeEnabled: AlbumLikeEnabledKey
        enum AlbumLikeEnabledKey: ConfigurationKey {
            static let name = "function.album.like.enabled"
            static let defaultValue = false
        }
    }
}

extension ConfigurationDynamicLookup {
    subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Photos, K>) -> K {
        self[K.self]
    }
}

func useIt(service: some ConfigurationService) -> Bool {
    let quality: ImageTransferQuality = service.imageMedium
    return service.albumLikeEnabled && quality.maxDimension > 0
}

@Suite("Keys declared in a feature module")
struct FeatureModuleTests {
    @Test("the declarations compile and read typed values from the live service")
    func live() throws {
        let service = LiveConfigurationService(
            serverValues: ["function.media.image_medium": "640,50", "function.album.like.enabled": "Y"]
        )
        #expect(useIt(service: service))
        #expect(service.imageMedium == ImageTransferQuality(maxDimension: 640, compression: 0.5))
        try service.setOverride(false, for: ConfigurationScopes.Photos.AlbumLikeEnabledKey.self)
        #expect(!useIt(service: service))
    }

    @Test("the codec and the control come from the value type with no extra code")
    func metadata() throws {
        let catalog = try ConfigurationCatalog(scopes: [ConfigurationScopes.Photos.self])
        #expect(catalog.keys.map(\.name) == ["function.media.image_medium", "function.album.like.enabled"])
        #expect(catalog.keys.map(\.control) == [.text, .toggle])
        #expect(catalog.keys.map(\.title) == ["Image Medium", "Like Enabled"])
        #expect(catalog.keys.map(\.defaultValueString) == ["1280,70", "N"])
    }

    @Test("the mock's setter works on the feature module's keys")
    func mock() {
        let service = MockConfigurationService()
        service.albumLikeEnabled = true
        service.imageMedium = ImageTransferQuality(maxDimension: 320, compression: 0.3)
        #expect(useIt(service: service))
        #expect(service.serverValues == ["function.album.like.enabled": "Y", "function.media.image_medium": "320,30"])
    }
}
