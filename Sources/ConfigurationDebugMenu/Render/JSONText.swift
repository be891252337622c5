import ServiceConfiguration

/// JSON text as the editor shows it: pretty-printed with two-space indentation (saving stores the key's canonical
/// compact form).
enum JSONText {
    /// `text` pretty-printed, or unchanged when it is not valid JSON.
    static func pretty(_ text: String) -> String {
        guard let value = try? StrictJSON.parse(Array(text.utf8)) else { return text }
        var buffer: [UInt8] = []
        JSONWriter.append(value, to: &buffer, indent: 2)
        return String(decoding: buffer, as: UTF8.self)
    }
}
