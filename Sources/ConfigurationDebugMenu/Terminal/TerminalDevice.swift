/// What the menu needs from a terminal. The ncurses backend implements it; tests can script one.
protocol TerminalDevice: AnyObject {
    /// The current size in cells.
    var size: (width: Int, height: Int) { get }
    /// Whether colours should be used.
    var supportsColor: Bool { get }
    /// Whether a termination signal (SIGTERM, SIGINT, SIGHUP) asked the menu to stop.
    var stopRequested: Bool { get }
    /// Shows `grid`.
    func draw(_ grid: ScreenGrid)
    /// The next input event, or `nil` after `timeout` milliseconds without one.
    func nextEvent(timeout: Int) -> KeyEvent?
    /// Gives the terminal back to the shell for a while (to run `$EDITOR`), then takes it again.
    func suspend<Result>(_ body: () throws -> Result) rethrows -> Result
    /// Sends `text` to the terminal's clipboard (OSC 52).
    func copyToClipboard(_ text: String)
    /// Ctrl-Z: restores the terminal, stops the process as a shell job, and takes the screen back when resumed.
    func suspendJob()
    /// Restores the terminal for good.
    func close()
}
