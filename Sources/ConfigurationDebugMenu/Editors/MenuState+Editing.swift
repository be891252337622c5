import ServiceConfiguration
import ServiceConfigurationFileStore

/// What the editors share: checking a text with the key's own decoding, saving it (asking first when another process
/// changed the key meanwhile), closing without losing work by accident, and coming back from `$EDITOR`.
extension MenuState {
    /// Saves an editor's value if it is valid (asking first, over `editor`, when another process changed the key to
    /// `theirs` meanwhile); otherwise says why and goes back to `editor`.
    mutating func save(
        key: Int, _ validation: Validation, changedElsewhere theirs: String?, expiry: ExpiryChoice?, editor: Mode
    ) -> MenuOutcome {
        switch validation {
        case .valid(let canonical):
            if let theirs {
                let name = data.table.keys[key].descriptor.name
                return .go(.confirming(.overwrite(key: name, theirs: theirs, editor: editor)))
            }
            return .go(.browsing, set(key: key, value: canonical, expiry: expiry))
        case .invalid(let reason):
            fail("not saved: \(reason)")
            return .go(editor)
        }
    }

    /// Esc in an editor: closes it, after asking when the text was changed (`what` names what would be lost).
    func cancelEdit(_ what: String, changed: Bool, editor: Mode) -> MenuOutcome {
        changed ? .go(.confirming(.discardEdit(key: what, editor: editor))) : .go(.browsing)
    }

    /// `$EDITOR` came back: a text it left unchanged saves nothing; a valid one is saved, after asking when another
    /// process changed the key since the edit started; an invalid one stays in the menu's editor with the reason,
    /// so nothing typed is lost.
    mutating func finishExternalEdit(_ edit: ExternalEdit, text: String) -> MenuOutcome {
        var text = text
        while text.hasSuffix("\n") { text.removeLast() }
        let key = edit.key
        if text == edit.text {
            // The mode is the one the edit started from: browsing, or the JSON editor it continued.
            inform("Nothing saved: the text came back from $EDITOR unchanged")
            return .stay
        }
        let theirs = edit.changedElsewhere ?? (overrideValue(key) != edit.startedFrom ? valueNow(key) : nil)
        let validation = validate(key, text)
        let editor: Mode
        if data.table.keys[key].descriptor.control == .json {
            var json = JSONEditor(key: key, text: text, validation: validation)
            json.original = edit.text
            json.startedFrom = edit.startedFrom
            json.changedElsewhere = theirs
            json.expiry = edit.expiry
            editor = .editingJSON(json)
        } else {
            var line = ValueEditor(
                key: key, text: text.replacingOccurrences(of: "\n", with: " "), validation: validation)
            line.original = edit.text
            line.changedElsewhere = theirs
            line.expiry = edit.expiry
            editor = .editing(line)
        }
        switch validation {
        case .valid(let canonical):
            if let theirs {
                let name = data.table.keys[key].descriptor.name
                return .go(.confirming(.overwrite(key: name, theirs: theirs, editor: editor)))
            }
            return .go(.browsing, set(key: key, value: canonical, expiry: edit.expiry))
        case .invalid(let reason):
            fail("not saved: \(reason)")
            return .go(editor)
        }
    }

    /// `text` checked with the key's own decoding. For JSON keys, a syntax error is reported with its line and
    /// column first.
    func validate(_ key: Int, _ text: String) -> Validation {
        let descriptor = data.table.keys[key].descriptor
        if descriptor.control == .json {
            do {
                _ = try StrictJSON.parse(Array(text.utf8))
            } catch {
                return .invalid("not valid JSON: \(error)")
            }
        }
        do {
            return .valid(try descriptor.validate(text))
        } catch {
            return .invalid(error.description)
        }
    }

    /// The new value of `key` if another process changed it in `update` (an editor open on it says so).
    func changedValue(_ key: Int, in update: MenuDataUpdate) -> String? {
        guard update.changedElsewhere.contains(data.table.keys[key].descriptor.name) else { return nil }
        return valueNow(key)
    }
}

/// An editor of a key's value (the one-line editor, the JSON editor): the text checked with the key's decoding as it
/// is typed, saved with an expiry (Ctrl-T), closed only after asking when it was changed, and told when another
/// process changes the key meanwhile. What they share is implemented once, here.
protocol KeyValueEditor: MenuComponent {
    /// The key being edited, by index in the ``KeyTable``.
    var key: Int { get }
    /// The text checked with the key's own decoding.
    var validation: Validation { get }
    /// The key's new value when another process changed it while the editor was open.
    var changedElsewhere: String? { get set }
    /// When the saved override expires (Ctrl-T); `nil`: as before.
    var expiry: ExpiryChoice? { get set }
    /// Whether the text differs from what the editor opened with.
    var isChanged: Bool { get }
}

extension KeyValueEditor {
    /// Save, cancel and Ctrl-T, alike in both editors; `nil` for any other intent (the editor's own).
    mutating func updateValue(_ intent: MenuIntent, menu: inout MenuState) -> MenuOutcome? {
        switch intent {
        case .editSave:
            return menu.save(key: key, validation, changedElsewhere: changedElsewhere, expiry: expiry, editor: mode)
        case .editCancel:
            return menu.cancelEdit(menu.data.table.keys[key].descriptor.name, changed: isChanged, editor: mode)
        case .cycleExpiry:
            expiry = ExpiryChoice.next(after: expiry)
            return .stay
        default:
            return nil
        }
    }

    /// A change made elsewhere to the key: the editor says so, and saving asks first.
    package mutating func receive(_ feedback: MenuFeedback, before: MenuData, menu: inout MenuState) -> MenuOutcome {
        guard case .refreshed(let update) = feedback, let theirs = menu.changedValue(key, in: update) else {
            return .ignored
        }
        changedElsewhere = theirs
        return .stay
    }

    /// The key's name, when the text was changed.
    package func unsavedWork(in menu: MenuState) -> String? {
        isChanged ? menu.data.table.keys[key].descriptor.name : nil
    }
}

extension ExpiryChoice {
    /// The editor's next expiry (Ctrl-T): as before → 1 h → 8 h → 1 day → until the server changes → never → as
    /// before.
    static func next(after current: ExpiryChoice?) -> ExpiryChoice? {
        guard let current, let index = editorCycle.firstIndex(of: current) else {
            return current == nil ? editorCycle.first : nil
        }
        return index + 1 < editorCycle.count ? editorCycle[index + 1] : nil
    }
}
