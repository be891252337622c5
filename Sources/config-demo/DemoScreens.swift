import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

extension ConfigurationScopes {
    /// A scope config-demo reads from but deliberately leaves out of its catalog (a forgotten registration), so
    /// the program report lists its key as unregistered: `config-menu coverage` and the menu show it, with the fix.
    struct DemoLab: ConfigurationScope {
        let labWelcomeBanner: WelcomeBannerKey
        /// `function.lab.welcome_banner.enabled`: whether the start screen shows the lab's welcome banner.
        enum WelcomeBannerKey: ConfigurationKey {
            static let name = "function.lab.welcome_banner.enabled"
            static let defaultValue = true
        }
    }
}

/// The demo's "screens": each reads its keys by type, as feature code would, and describes what it shows. The start
/// screen is read at start and after every change; the profile screen only when the user opens it (Enter), so a
/// run that never opens it leaves its keys unread.
enum DemoScreens {
    /// The keys of the start screen, read at start and after each change.
    static func start(_ service: LiveConfigurationService) -> [String] {
        let quality = service.imageMedium
        return [
            "album like button: \(service.albumLikeEnabled ? "shown" : "hidden")",
            "like button A/B test: \(service.albumLikeButtonTest) "
                + "(\(service.albumLikeButtonTest.isEnabled ? "enabled" : "not enabled"))",
            "medium images: \(quality.maxDimension) px at quality \(Int(quality.compression * 100))",
            "typing indicator refresh: every \(service.chatTypingInterval) ms",
            "checkout flow: \(service.paymentsCheckoutTest.rawValue)",
            "reactions: \(service.chatReactionSet.joined(separator: " "))",
            // Not in the catalog: read fine, but reported as unregistered (and warned about once on stderr).
            "lab welcome banner: \(service[ConfigurationScopes.DemoLab.WelcomeBannerKey.self] ? "shown" : "hidden")",
        ]
    }

    /// The keys of the profile screen, read only when it is opened.
    static func profile(_ service: LiveConfigurationService) -> [String] {
        [
            "profile accent colour: \(service.profileThemeColor)",
            "status message: at most \(service.profileStatusMessageMaxLength) characters",
            "birthday: \(service.profileBirthdayVisible ? "visible to friends" : "hidden")",
        ]
    }

    /// Opens the profile screen each time a line (Enter) arrives on standard input, on a thread of its own; stops
    /// reading at the end of the input (a closed or redirected standard input leaves the profile unread).
    static func openProfileOnEnter(_ service: LiveConfigurationService, say: @escaping @Sendable (String) -> Void) {
        let thread = Thread {
            while readLine() != nil {
                say("profile screen:")
                for line in profile(service) { say("  " + line) }
                say("")
            }
        }
        thread.start()
    }

    /// Ends the program report on SIGINT (Ctrl-C) and SIGTERM, so the tools show the run as ended rather than
    /// stale, then exits 0. The returned sources must be kept.
    static func endReportOnSignals(
        _ service: LiveConfigurationService, say: @escaping @Sendable (String) -> Void
    ) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                service.endProgramReport()
                say("config-demo: stopped (program report ended)")
                exit(0)
            }
            source.resume()
            return source
        }
    }
}
