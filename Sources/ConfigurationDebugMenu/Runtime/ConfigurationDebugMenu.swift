import Foundation
public import ServiceConfiguration

/// The full-screen terminal debug menu: browse every key by scope, see each value and where it comes from, toggle,
/// pick, edit, filter and reset overrides.
///
/// Any program opens it on its own catalog and service in two lines:
///
/// ```swift
/// let menu = ConfigurationDebugMenu(catalog: catalog, service: service)
/// try menu.run()
/// ```
///
/// Every change goes through the service (and its override store, if it has one) before the screen shows it as
/// done; changes other processes make to the store appear within a second without a key press.
public final class ConfigurationDebugMenu {
    /// How the menu looks and listens.
    public struct Options: Sendable {
        /// Whether the mouse selects and scrolls.
        public var mouse: Bool
        /// Whether to use colours; `nil` uses them unless `NO_COLOR` is set (https://no-color.org).
        public var colors: Bool?
        /// The catalog's name in the title bar.
        public var label: String

        /// Creates options.
        public init(mouse: Bool = true, colors: Bool? = nil, label: String = "catalog") {
            self.mouse = mouse
            self.colors = colors
            self.label = label
        }
    }

    private let source: MenuDataSource
    private let options: Options

    /// Creates a menu for `catalog`, changing values through `service`.
    ///
    /// `overrideStore` supplies each override's metadata (when set, its note, the server value then); it defaults to
    /// the live service's store.
    public init(
        catalog: ConfigurationCatalog,
        service: any ConfigurationService,
        overrideStore: FileOverrideStore? = nil,
        options: Options = Options()
    ) {
        let store = overrideStore ?? (service as? LiveConfigurationService)?.overrideStore
        service.register(catalog)
        source = MenuDataSource(table: KeyTable(catalog: catalog), service: service, store: store)
        self.options = options
    }

    /// Takes over the terminal until the person quits. Throws ``TerminalUnavailable`` when there is no usable
    /// terminal (not a TTY, `TERM=dumb`, an unknown `TERM`), before drawing anything.
    public func run() throws {
        let colors = options.colors ?? (ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true)
        let terminal = try CursesTerminal(colors: colors, mouse: options.mouse)
        defer { terminal.close() }
        MenuLoop(source: source, terminal: terminal, label: options.label).run()
    }
}

/// The event loop: input → action → reducer → effects → render. Separate from the terminal so tests can drive it.
struct MenuLoop {
    let source: MenuDataSource
    let terminal: any TerminalDevice
    let label: String

    func run() {
        let size = terminal.size
        var state = MenuState(data: source.initialData(label: label), width: size.width, height: size.height)
        let renderer = MenuRenderer(colors: terminal.supportsColor)
        terminal.draw(renderer.render(state))
        while !terminal.stopRequested {
            var actions: [MenuAction] = []
            if let event = terminal.nextEvent(timeout: 200),
                let action = Keymap.action(for: event, in: state.keymapContext)
            {
                actions.append(action)
            }
            if let update = source.takeUpdate() { actions.append(.refreshed(update)) }
            guard !actions.isEmpty else { continue }
            if !perform(actions, on: &state) { return }
            terminal.draw(renderer.render(state))
        }
    }

    /// Runs actions and the effects they ask for, until none are left; false when the menu should close.
    func perform(_ actions: [MenuAction], on state: inout MenuState) -> Bool {
        var queue = actions
        while !queue.isEmpty {
            let action = queue.removeFirst()
            for effect in MenuReducer.reduce(&state, action) {
                switch effect {
                case .quit:
                    return false
                case .write(let write, let undo):
                    queue.append(perform(write, undo: undo))
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                case .openExternalEditor(let key, let text):
                    queue.append(editExternally(key: key, text: text, name: state.data.table.keys[key].descriptor.name))
                }
            }
        }
        return true
    }

    /// Saves a change: a new value through the service (validated by its key), an undo as it was stored before
    /// (straight into the store when there is one, so each entry keeps its time, note and server value).
    private func perform(_ write: OverrideWrite, undo: OverrideWrite?) -> MenuAction {
        var changes: [String: String?] = [:]
        for change in write.changes { changes[change.key] = change.value }
        do {
            if undo == nil, let store = source.store {
                let server = source.service.serverValues
                try store.modify { entries in
                    for change in write.changes {
                        entries[change.key] = change.value.map { value in
                            change.entry
                                ?? OverrideEntry(value: value, setAt: Date(), serverValueWhenSet: server[change.key])
                        }
                    }
                }
            } else {
                try source.service.updateOverrides(changes, validate: undo != nil)
            }
            source.markChanged(changes.keys)
            return .writeSucceeded(write, undo: undo)
        } catch {
            return .writeFailed("\(error)")
        }
    }

    /// Leaves the screen, runs `$VISUAL`/`$EDITOR` (or `vi`) on a private temporary file, and comes back.
    private func editExternally(key: Int, text: String, name: String) -> MenuAction {
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-\(UUID().uuidString)")
        let file = folder.appendingPathComponent(name.replacingOccurrences(of: "/", with: "_") + ".txt")
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data((text + "\n").utf8).write(to: file)
            let status = try terminal.suspend { () throws -> Int32 in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "\(editor) \"$1\"", "editor", file.path]
                try process.run()
                process.waitUntilExit()
                return process.terminationStatus
            }
            guard status == 0 else {
                return .externalEditFailed("\(editor) exited with status \(status); nothing was saved")
            }
            return .externalEditFinished(key: key, text: String(decoding: try Data(contentsOf: file), as: UTF8.self))
        } catch {
            return .externalEditFailed("cannot run \(editor): \(error.localizedDescription)")
        }
    }
}
