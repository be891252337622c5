import Profile
import ServiceConfiguration
import ServiceConfigurationTesting
import Testing

@Suite("Profile, tested with the mock through its own scope")
struct ProfileEditorModelTests {
    typealias Profile = ConfigurationScopes.Profile

    @Test("the editor reads its limits, its A/B test and its Bool (1/0 on the wire) live")
    func editor() throws {
        let mock = MockConfigurationService(scopes: [Profile.self])
        let model = ProfileEditorModel(configuration: mock.scoped(to: Profile.self))
        #expect(model.problem(withBio: String(repeating: "a", count: 161)) == "at most 160 characters")
        mock.profileBioMaxLength = 200
        #expect(model.problem(withBio: String(repeating: "a", count: 161)) == nil)
        #expect(!model.showsNewEditor)
        mock.profileEditorTest = .full
        #expect(model.showsNewEditor)
        mock.profileAvatarUploadEnabled = false
        #expect(mock.serverValues[Profile.ProfileAvatarUploadEnabledKey.name] == "0")
        #expect(model.uploadedAvatarSize == nil)
        try mock.setOverride(true, for: \.profileAvatarUploadEnabled)
        #expect(model.uploadedAvatarSize == AvatarSize(width: 128, height: 128))
        mock.profileBadges = [.init(title: "Regular", minimumOrders: 10), .init(title: "Gold", minimumOrders: 50)]
        #expect(model.badge(afterOrders: 60) == "Gold")
    }

    @Test("derived titles keep the distinguishing segment; summaries and patterns reach the catalog")
    func catalog() throws {
        let catalog = try ConfigurationCatalog(scopes: [Profile.self])
        #expect(catalog.descriptor(named: Profile.ProfileBioMaxLengthKey.name)?.title == "Bio Max Length")
        #expect(
            catalog.descriptor(named: Profile.ProfileBioMaxLengthKey.name)?.summary == "The longest bio, in characters."
        )
        let color = try #require(catalog.descriptor(named: Profile.ProfileThemeColorKey.name))
        #expect(throws: ConfigurationDecodingError.self) { try color.validate("#06c755") }
        #expect(try color.validate("#06C755") == "#06C755")
        #expect(
            catalog.descriptor(named: Profile.ProfileAvatarUploadEnabledKey.name)?.toggleStrings
                == .init(on: "1", off: "0"))
    }
}
