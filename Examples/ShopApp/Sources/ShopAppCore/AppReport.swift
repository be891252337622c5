import Checkout
import Profile
import ServiceConfiguration

/// What `shop-app` prints: the build, whether overrides apply, every key with its value and source, and what the
/// feature modules decide from them.
public enum AppReport {
    /// The report as lines.
    public static func lines(service: LiveConfigurationService, catalog: ConfigurationCatalog) -> [String] {
        var lines = [
            "build: \(ConfigurationOverridePolicy.isDebugBuild ? "debug" : "release"), policy: "
                + "\(AppConfiguration.overridePolicy), overrides apply: \(service.overridesApply ? "yes" : "no")"
        ]
        for key in catalog.keys {
            guard let resolution = service.resolution(forKeyNamed: key.name) else { continue }
            var line = "\(key.name) = \(resolution.value ?? "—") (\(resolution.source))"
            for rejection in resolution.rejections { line += " [\(rejection)]" }
            lines.append(line)
        }
        let checkout = CheckoutModel(configuration: service.scoped(to: ConfigurationScopes.Checkout.self))
        let profile = ProfileEditorModel(configuration: service.scoped(to: ConfigurationScopes.Profile.self))
        lines.append("checkout: pay with \(checkout.paymentMethods.joined(separator: ", "))")
        lines.append("checkout: 3 items for 1500 -> \(checkout.check(items: 3, total: 1500) ?? "ok")")
        lines.append("profile: new editor \(profile.showsNewEditor ? "shown" : "hidden")")
        return lines
    }
}
