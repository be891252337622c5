import Foundation

extension Duration {
    /// The duration in seconds.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// For messages: `1 s`, `2.5 s`, `900 s`.
    package var secondsDescription: String {
        let value = inSeconds
        return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
