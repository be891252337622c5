public import ServiceConfiguration

/// The whole state of the debug menu: one value, compared in tests, changed only by ``MenuReducer``.
public struct MenuState: Equatable, Sendable {
    /// Which pane has the keyboard.
    public enum Pane: Equatable, Sendable {
        case modules
        case keys
    }

    /// One line of the key list.
    public enum Row: Hashable, Sendable {
        /// A scope heading (not selectable).
        case heading(scope: Int)
        /// A key, by index in the ``KeyTable``.
        case key(Int)
        /// The heading above orphaned overrides.
        case orphanHeading
        /// An orphaned override, by index in ``MenuData/orphans``.
        case orphan(Int)

        /// Whether the row can be selected.
        public var isSelectable: Bool {
            switch self {
            case .key, .orphan: true
            case .heading, .orphanHeading: false
            }
        }
    }

    /// A message in the footer until the next key press.
    public struct Status: Equatable, Sendable {
        /// The text.
        public var text: String
        /// Whether it reports a failure (drawn in red, and with "error:" so it reads the same without colour).
        public var isError: Bool
    }

    /// What the keyboard is doing. Each mode carries exactly the data it needs, so no impossible state exists.
    public indirect enum Mode: Equatable, Sendable {
        /// Moving around and acting on keys.
        case browsing
        /// Typing a filter; `previous` is the query when typing started.
        case filtering(previous: String)
        /// Editing a text or number value on one line.
        case editing(TextEditor)
        /// Editing a JSON value over several lines.
        case editingJSON(JSONEditor)
        /// Choosing one of a picker's choices.
        case picking(Picker)
        /// Waiting for y/N before a reset.
        case confirming(Confirmation)
        /// The help screen for `context`; `returnTo` is the mode to go back to.
        case help(KeymapContext, returnTo: Mode)
    }

    /// The catalog and everything known about its values.
    public var data: MenuData
    /// The screen size.
    public var width: Int
    /// The screen size.
    public var height: Int
    /// Which pane has the keyboard.
    public var focus: Pane = .keys
    /// The scope the module pane selected; `nil` is "All".
    public var scope: Int?
    /// The fuzzy filter.
    public var query = ""
    /// Show only keys with an override.
    public var onlyOverridden = false
    /// Show only keys with a problem (rejected value, stale override) and orphaned overrides.
    public var onlyProblems = false
    /// The key list as filtered: derived from ``data`` and the filters by ``MenuReducer``.
    public internal(set) var rows: [Row] = []
    /// How many of ``rows`` are keys (kept with the rows, so drawing never counts them).
    public internal(set) var keyRowCount = 0
    /// The selected row in ``rows``.
    public var selection = 0
    /// The first key-list row on screen.
    public var scroll = 0
    /// The first module-pane row on screen.
    public var moduleScroll = 0
    /// What the keyboard is doing.
    public var mode: Mode = .browsing
    /// The footer message, if any.
    public var status: Status?
    /// Changes that `u` can undo, most recent last.
    public var undoStack: [OverrideWrite] = []
    /// The keys the last query matched, for narrowing the next keystroke's search.
    var filterCache: FilterCache?

    struct FilterCache: Equatable, Sendable {
        var query: String
        var scope: Int?
        var keys: [Int]
    }

    /// Creates the state for a screen size; the rows are computed at once.
    public init(data: MenuData, width: Int, height: Int) {
        self.data = data
        self.width = width
        self.height = height
        MenuReducer.refreshRows(&self)
    }

    /// The layout for the current screen size.
    public var layout: MenuLayout { MenuLayout(width: width, height: height) }

    /// The selected key's index in the table, if a key (not an orphan) is selected.
    public var selectedKey: Int? {
        guard rows.indices.contains(selection), case .key(let key) = rows[selection] else { return nil }
        return key
    }

    /// The selected orphan's index, if an orphan is selected.
    public var selectedOrphan: Int? {
        guard rows.indices.contains(selection), case .orphan(let orphan) = rows[selection] else { return nil }
        return orphan
    }

    /// The module pane's rows: "All", then every scope.
    public var moduleCount: Int { data.table.scopes.count + 1 }

    /// Which key map applies now.
    public var keymapContext: KeymapContext {
        switch mode {
        case .browsing: focus == .modules ? .modules : .keys
        case .filtering: .filtering
        case .editing: .editing
        case .editingJSON: .editingJSON
        case .picking: .picking
        case .confirming: .confirming
        case .help: .help
        }
    }
}

/// Whether an edited value is valid, with the canonical wire string or the reason.
public enum Validation: Equatable, Sendable {
    /// Valid; the canonical wire string the override would store.
    case valid(String)
    /// Invalid, and why.
    case invalid(String)
}

/// A one-line editor for text and number values.
public struct TextEditor: Equatable, Sendable {
    /// The key being edited.
    public var key: Int
    /// The text.
    public var text: [Character]
    /// The caret, from 0 to `text.count`.
    public var cursor: Int
    /// The text checked with the key's own decoding.
    public var validation: Validation
}

/// A multi-line editor for JSON values.
public struct JSONEditor: Equatable, Sendable {
    /// The key being edited.
    public var key: Int
    /// The lines.
    public var lines: [[Character]]
    /// The caret's line.
    public var row: Int
    /// The caret's column in its line.
    public var column: Int
    /// The first line on screen.
    public var scroll: Int
    /// The whole text checked with the key's own decoding.
    public var validation: Validation

    /// The whole text.
    public var text: String { lines.map { String($0) }.joined(separator: "\n") }
}

/// A list of choices for a picker key.
public struct Picker: Equatable, Sendable {
    /// The key being set.
    public var key: Int
    /// The choices.
    public var choices: [ConfigurationDebugControl.Choice]
    /// The highlighted choice.
    public var selected: Int
    /// The choice equal to the current value, if any.
    public var current: Int?
}

/// A reset waiting for y/N.
public enum Confirmation: Equatable, Sendable {
    /// Remove every override (`count` of them).
    case resetAll(count: Int)
    /// Remove the overrides of one scope's keys.
    case resetScope(name: String, keys: [String])
}

/// A change to the override layer, as one unit: what ``MenuEffect/write(_:undo:)`` performs and `u` undoes.
public struct OverrideWrite: Equatable, Sendable {
    /// One key's new override: a wire string, or `nil` to remove it.
    public struct Change: Equatable, Sendable {
        /// The key name.
        public var key: String
        /// The new override, or `nil` to remove it.
        public var value: String?
        /// For an undo: the stored entry to put back as it was (time, note, server value then).
        public var entry: OverrideEntry?

        /// Creates a change.
        public init(key: String, value: String?, entry: OverrideEntry? = nil) {
            self.key = key
            self.value = value
            self.entry = entry
        }
    }

    /// The changes, applied together.
    public var changes: [Change]
    /// A short description for the status line, such as "function.album.like.enabled = Y".
    public var summary: String
}
