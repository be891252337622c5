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
        switch intent {
        case .step(let steps):
            moveInRange(menu: &menu) { range, text, kind in range.stepped(text, by: steps, kind: kind) }
        case .toBound(let maximum): moveInRange(menu: &menu) { range, _, _ in maximum ? range.maximum : range.minimum }
        default:
            guard field.update(intent) else { return .ignored }
        }
        validation = menu.validate(key, field.string)
        return .stay
    }

    /// ↑/↓ and PgUp/PgDn: replaces the text with `move`'s number, from the text when it is a number (else from the
    /// key's value now), for a number key with a range; for any other key, says what the keys do.
    private mutating func moveInRange(
        menu: inout MenuState,
        _ move: (ConfigurationNumberRange, String, ConfigurationNumberKind) -> String?
    ) {
        guard case .number(let kind, let range?) = menu.data.table.keys[key].descriptor.control else {
            menu.inform("↑ ↓ step and PgUp PgDn go to the ends of numbers with a range")
            return
        }
        let from = if case .valid(let canonical) = validation { canonical } else { menu.currentText(key) }
        guard let moved = move(range, from, kind) else { return }
        field = LineEditor(moved)
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
        // Every rule the value must follow, with the keys that use it; then the expiry.
        var row = 3
        if let rule = Self.rule(descriptor), content.height > row + 1 {
            grid.write(rule, in: content.row(row), style: theme.muted)
            row += 1
        }
        if content.height > row {
            let current = data.statuses[key].override?.expiry ?? .never
            grid.write(
                ValueEditor.expiryText(expiry, current: current), in: content.row(row),
                style: expiry == nil ? theme.muted : theme.label)
        }
    }

    /// The rule a value must follow, shown in the editor: a number key's range and step (a plain integer key's is
    /// its type's) with the keys that move in it, or a custom format's expectation; `nil` for free text.
    static func rule(_ descriptor: ConfigurationKeyDescriptor) -> String? {
        if let range = descriptor.control.numberRange {
            let span =
                range.isWholeInt64
                ? "any integer, from \(range.minimum) to \(range.maximum)" : "range \(range.description)"
            return span + " · ↑ ↓ step · PgUp max · PgDn min"
        }
        return descriptor.pattern.isAny ? nil : "format: \(descriptor.pattern.expectation)"
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
            bind([.up], .step(1), "a number with a range: one step up"),
            bind([.down], .step(-1), "a number with a range: one step down"),
            bind([.pageUp], .toBound(true), "a number with a range: its maximum"),
            bind([.pageDown], .toBound(false), "a number with a range: its minimum"),
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
