import ServiceConfiguration
import ServiceConfigurationFileStore

/// The one-line editor for text and number values, opened in place of the details pane: the field, the value as
/// the key decodes it (or why it cannot), and the default.
package struct ValueEditor: KeyValueEditor {
    /// The key being edited, by index in the ``KeyTable``.
    package var key: Int
    /// The text field.
    package var field: LineEditor
    /// The text checked with the key's own decoding.
    package var validation: Validation
    /// The text the editor opened with, to tell whether anything would be lost by closing it.
    package var original: String
    /// The key's new value when another process changed it while this editor was open.
    package var changedElsewhere: String?
    /// When the saved override expires (Ctrl-T); `nil`: as before (a new value never expires).
    package var expiry: ExpiryChoice?

    package init(key: Int, text: String, validation: Validation) {
        self.key = key
        field = LineEditor(text)
        self.validation = validation
        original = text
    }

    /// Whether the text differs from what the editor opened with.
    package var isChanged: Bool { field.string != original }

    package var mode: MenuState.Mode { .editing(self) }

    package var placement: MenuPlacement { .details }

    package func keymap(in menu: MenuState) -> Keymap { .editing }

    package mutating func update(_ intent: MenuIntent, menu: inout MenuState) -> MenuOutcome {
        if let outcome = updateValue(intent, menu: &menu) { return outcome }
        guard field.update(intent) else { return .ignored }
        validation = menu.validate(key, field.string)
        return .stay
    }

    /// Draws the editor in `box` and places the caret.
    package func draw(into grid: inout ScreenGrid, in box: Rect, menu: MenuState, theme: MenuTheme) {
        let data = menu.data
        let descriptor = data.table.keys[key].descriptor
        let inner = grid.box(
            box, title: "Edit \(descriptor.name) · \(descriptor.control.kindName)", style: theme.overlayBorder)
        let content = inner.inset(left: 1, right: 1)
        grid.write("> ", in: content.row(0), style: theme.key)
        let field = content.row(0).inset(left: 2)
        let caret = self.field.draw(into: &grid, in: field, style: CellStyle(underline: true))
        grid.cursor = (caret, field.y)
        switch validation {
        case .valid(let canonical):
            grid.write("✓ valid: \(canonical)", x: content.x, y: content.y + 1, style: theme.valid, maxX: content.maxX)
        case .invalid(let reason):
            grid.write("✗ \(reason)", x: content.x, y: content.y + 1, style: theme.problem, maxX: content.maxX)
        }
        if let theirs = changedElsewhere, content.height > 2 {
            grid.write(
                "⚠ changed elsewhere to \(theirs) while you edit; saving will ask first", in: content.row(2),
                style: theme.problem)
        } else if content.height > 2 {
            grid.write(
                "default \(ValueText.quoted(descriptor.defaultValueString)) · \(descriptor.valueTypeName)",
                x: content.x, y: content.y + 2, style: theme.muted, maxX: content.maxX)
        }
        if content.height > 3 {
            let current = data.statuses[key].override?.expiry ?? .never
            grid.write(
                ValueEditor.expiryText(expiry, current: current), in: content.row(3),
                style: expiry == nil ? theme.muted : theme.label)
        }
    }

    /// The editor's expiry line: `expires: as before (never) · Ctrl-T changes`.
    static func expiryText(_ expiry: ExpiryChoice?, current: OverrideExpiry) -> String {
        let rule = expiry?.title ?? "as before (\(current.description))"
        return "expires: \(rule) · Ctrl-T changes"
    }
}

extension Keymap {
    /// The keys of the one-line value editor (and the note editor): characters go into the field.
    package static let editing = Keymap(
        "editing", title: "Editing a value",
        [
            bind([.enter], .editSave, "save (only a valid value)", hint: "save", priority: 10),
            bind([.escape], .editCancel, "close (asks first when the text was changed)", hint: "cancel", priority: 20),
            expiryCycle,
        ] + LineEditor.caretBindings + [
            helpWhileTyping,
            bind([.control("c")], .quit, "quit (asks first when the text was changed)"),
        ], typing: .line)

    /// Ctrl-T in the editors.
    static let expiryCycle = bind(
        [.control("t")], .cycleExpiry,
        "when the saved override expires (as before, 1 h, … never)",
        hint: "expiry", priority: 25)
}

/// Whether an edited value is valid, with the canonical wire string or the reason.
package enum Validation: Equatable, Sendable {
    /// Valid; the canonical wire string the override would store.
    case valid(String)
    /// Invalid, and why.
    case invalid(String)
}
