/// The type-erased form of ``ConfigurationDebugControlType``, as tools (the debug menu, the command-line tool, a
/// catalog manifest) see it: choices are wire strings.
public enum ConfigurationDebugControl: Sendable, Hashable, Codable {
    /// An on/off switch (its wire strings are the descriptor's ``ConfigurationKeyDescriptor/toggleStrings``).
    case toggle
    /// A fixed list of choices.
    case picker([Choice])
    /// A one-line text editor.
    case text
    /// A one-line numeric editor, with the range it accepts and its step, if any.
    case number(ConfigurationNumberKind, ConfigurationNumberRange? = nil)
    /// A multi-line JSON editor.
    case json

    /// One picker choice.
    public struct Choice: Sendable, Hashable, Codable {
        /// The choice's wire string.
        public var value: String
        /// The label to show.
        public var title: String
        /// Whether the choice counts as enabled (A/B variants); `nil` when the notion does not apply.
        public var isEnabled: Bool?

        /// Creates a choice.
        public init(value: String, title: String, isEnabled: Bool? = nil) {
            self.value = value
            self.title = title
            self.isEnabled = isEnabled
        }
    }

    /// The range a number control accepts, if it has one.
    public var numberRange: ConfigurationNumberRange? {
        if case .number(_, let range) = self { range } else { nil }
    }

    /// A short name for the control: `toggle`, `picker`, `text`, `number`, `json`.
    public var kindName: String {
        switch self {
        case .toggle: "toggle"
        case .picker: "picker"
        case .text: "text"
        case .number(let kind, _): kind == .integer ? "number (integer)" : "number (floating point)"
        case .json: "json"
        }
    }
}
