import ServiceConfiguration

/// The profile editor's logic, depending on its own scope only.
public struct ProfileEditorModel: Sendable {
    private let configuration: ScopedConfiguration<ConfigurationScopes.Profile>

    /// Creates the model from a live view of the profile scope.
    public init(configuration: ScopedConfiguration<ConfigurationScopes.Profile>) {
        self.configuration = configuration
    }

    /// Why `bio` cannot be saved, or `nil`.
    public func problem(withBio bio: String) -> String? {
        bio.count > configuration.profileBioMaxLength
            ? "at most \(configuration.profileBioMaxLength) characters" : nil
    }

    /// Whether the new editor is shown.
    public var showsNewEditor: Bool { configuration.isEnabled(\.profileEditorTest) }

    /// The badge earned after `orders` orders, if any.
    public func badge(afterOrders orders: Int) -> String? {
        configuration.profileBadges.filter { orders >= $0.minimumOrders }.max { $0.minimumOrders < $1.minimumOrders }?
            .title
    }

    /// The avatar size uploaded, after scaling.
    public var uploadedAvatarSize: AvatarSize? {
        guard configuration.profileAvatarUploadEnabled else { return nil }
        let size = configuration.profileAvatarSize
        let scale = configuration.profileAvatarScale
        return AvatarSize(width: Int(Double(size.width) * scale), height: Int(Double(size.height) * scale))
    }
}
