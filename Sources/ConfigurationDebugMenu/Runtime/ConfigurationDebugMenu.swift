public import Foundation
public import ServiceConfiguration
import ServiceConfigurationFileStore

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
/// done — off the keyboard's thread, the row marked `saving…` until the store answers; changes other processes make
/// to the store appear within a second without a key press.
public final class ConfigurationDebugMenu {
    /// How the menu looks and listens.
    public struct Options: Sendable {
        /// Whether the mouse selects and scrolls.
        public var mouse: Bool
        /// Whether to use colours; `nil` uses them unless `NO_COLOR` is set (https://no-color.org).
        public var colors: Bool?
        /// The catalog's name in the title bar.
        public var label: String
        /// The folder of scenarios (profiles) the scenarios view (`i`) lists and saves to; `nil`: the folder
        /// `scenarios` beside a file store (none for other stores).
        public var scenariosFolder: URL?

        /// Creates options.
        public init(mouse: Bool = true, colors: Bool? = nil, label: String = "catalog", scenariosFolder: URL? = nil) {
            self.mouse = mouse
            self.colors = colors
            self.label = label
            self.scenariosFolder = scenariosFolder
        }
    }

    private let source: MenuDataSource
    private let options: Options

    /// Creates a menu for `catalog`, changing values through `service` (and its override store, whose metadata,
    /// problems and location the menu shows). With `serverSync` (your program's `ServerValuesSync`), a line under the title
    /// shows where server values come from, their status and age; keys the last sync changed are marked `↻` (the
    /// details show the previous value, `c` lists only them), and `s` syncs now.
    ///
    /// ```swift
    /// let sync = ServerValuesSync.start(url: serverURL, service: service, interval: .seconds(300))
    /// try ConfigurationDebugMenu(catalog: catalog, service: service, serverSync: sync).run()
    /// ```
    public init(
        catalog: ConfigurationCatalog,
        service: any ConfigurationService,
        serverSync: (any ServerSyncMonitor)? = nil,
        options: Options = Options()
    ) {
        service.register(catalog)
        var folder = options.scenariosFolder
        if folder == nil, let store = service.overrideStore as? FileOverrideStore {
            folder = store.scenariosFolder
        }
        source = MenuDataSource(
            catalog: catalog, service: service, serverSync: serverSync, scenariosFolder: folder)
        self.options = options
    }

    /// Takes over the terminal until the person quits. Throws ``TerminalUnavailable`` when there is no usable
    /// terminal (not a TTY, `TERM=dumb`, an unknown `TERM`), before drawing anything.
    public func run() throws {
        let colors = options.colors ?? (ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true)
        let terminal = try CursesTerminal(colors: colors, mouse: options.mouse)
        defer { terminal.close() }
        // Program reports are read on a thread of their own from here on: a key press never waits for one.
        source.coverage.startReading()
        MenuLoop(source: source, terminal: terminal, label: options.label).run()
    }
}
