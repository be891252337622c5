// The only file that imports ncurses: everything above it draws into a ScreenGrid and receives KeyEvents.
import CNcursesw
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signal that asked the menu to stop (0: none). POSIX signal handlers are process-wide and receive no
/// context, so this one atomic is the menu's only global state; it lives here, with the handlers.
private let stopSignal = Atomic<Int32>(0)

/// Why the terminal could not be opened.
public struct TerminalUnavailable: Error, Sendable, CustomStringConvertible {
    /// The explanation, with what to do instead.
    public let description: String
}

/// A full-screen ncursesw terminal: draws grids, decodes keys and mouse events, and restores the terminal on every
/// exit (normal, SIGTERM/SIGINT/SIGHUP, and crashes through the fatal-signal handlers).
final class CursesTerminal: TerminalDevice {
    private let screen: OpaquePointer
    let window: UnsafeMutablePointer<scm_window>
    private let output: UnsafeMutablePointer<FILE>
    private let input: UnsafeMutablePointer<FILE>
    let supportsColor: Bool
    private var pairs: [Int: Int16] = [:]
    private var closed = false
    /// Events decoded ahead (a key typed right after Esc), delivered before reading more.
    var pending: [KeyEvent] = []

    /// The program showing the menu, named in errors: `config-menu`, or the app that opened it.
    private static var program: String { ProcessInfo.processInfo.processName }

    /// Where to turn instead, for the command-line tool only.
    private static var scriptHint: String {
        program == "config-menu"
            ? "; for scripts use a subcommand such as `config-menu list` (see config-menu --help)" : ""
    }

    init(colors wantColors: Bool, mouse: Bool) throws(TerminalUnavailable) {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw TerminalUnavailable(
                description:
                    "\(Self.program)'s debug menu needs an interactive terminal (standard input and output are "
                    + "not a TTY)" + Self.scriptHint
            )
        }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty, term != "dumb" else {
            throw TerminalUnavailable(
                description: term.isEmpty
                    ? "TERM is not set, so the terminal type is unknown; set it (for example TERM=xterm-256color)"
                    : "TERM=dumb cannot show \(Self.program)'s full-screen debug menu; use a real terminal"
                        + Self.scriptHint
            )
        }
        setlocale(LC_ALL, "")
        if scm_locale_is_utf8() == 0 { setlocale(LC_CTYPE, "C.UTF-8") }
        guard let output = fdopen(dup(1), "w"), let input = fdopen(dup(0), "r") else {
            throw TerminalUnavailable(description: "cannot open the terminal's input and output")
        }
        guard let screen = newterm(nil, output, input) else {
            fclose(output)
            fclose(input)
            throw TerminalUnavailable(
                description:
                    "the terminal type TERM=\(term) is unknown to ncurses (no terminfo entry); try TERM=xterm-256color"
            )
        }
        self.screen = screen
        self.output = output
        self.input = input
        set_term(screen)
        window = scm_stdscr()
        raw()
        noecho()
        nonl()
        keypad(window, true)
        set_escdelay(25)
        curs_set(0)
        if wantColors, has_colors() {
            start_color()
            use_default_colors()
            supportsColor = true
        } else {
            supportsColor = false
        }
        if mouse {
            mousemask(scm_mouse_events(), nil)
            mouseinterval(0)
        }
        Self.installSignalHandlers()
        setBracketedPaste(true)
    }

    /// Bracketed paste: the terminal marks pasted text, so a paste is inserted as text (line breaks included)
    /// instead of being taken as key presses (an Enter in a paste would save an edit).
    func setBracketedPaste(_ on: Bool) {
        fputs(on ? "\u{1B}[?2004h" : "\u{1B}[?2004l", output)
        fflush(output)
    }

    deinit {
        close()
    }

    /// OSC 52 with the text in Base64: `ESC ] 52 ; c ; BASE64 BEL`. The terminal (or tmux, with `set-clipboard on`)
    /// puts it in the clipboard; one that does not know the sequence ignores it. At most 64 KiB are sent (terminals
    /// cap the sequence; xterm at about 100 KB).
    func copyToClipboard(_ text: String) {
        let bytes = Array(text.utf8.prefix(65_536))
        fputs("\u{1B}]52;c;" + Data(bytes).base64EncodedString() + "\u{07}", output)
        fflush(output)
    }

    var size: (width: Int, height: Int) { (Int(getmaxx(window)), Int(getmaxy(window))) }

    var stopRequested: Bool { stopSignal.load(ordering: .relaxed) != 0 }

    func close() {
        guard !closed else { return }
        closed = true
        setBracketedPaste(false)
        endwin()
        delscreen(screen)
        fclose(output)
        fclose(input)
    }

    // MARK: Drawing

    func draw(_ grid: ScreenGrid) {
        var text = [wchar_t](repeating: 0, count: 8)
        for y in 0..<min(grid.height, size.height) {
            for x in 0..<min(grid.width, size.width) {
                let cell = grid[x, y]
                guard let character = cell.character else { continue }
                var count = 0
                for scalar in character.unicodeScalars where count < 7 {
                    text[count] = wchar_t(bitPattern: scalar.value)
                    count += 1
                }
                text[count] = 0
                _ = scm_put_cell(window, Int32(y), Int32(x), text, attributes(cell.style), pair(cell.style))
            }
        }
        if let cursor = grid.cursor {
            curs_set(1)
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else {
            curs_set(0)
        }
        wrefresh(window)
    }

    private func attributes(_ style: CellStyle) -> attr_t {
        var value = scm_attr_normal()
        if style.bold { value |= scm_attr_bold() }
        if style.dim { value |= scm_attr_dim() }
        if style.reverse { value |= scm_attr_reverse() }
        if style.underline { value |= scm_attr_underline() }
        return value
    }

    /// The colour pair for a style's colours, created on first use (pair 0 is the terminal's default).
    private func pair(_ style: CellStyle) -> Int16 {
        guard supportsColor, style.foreground != nil || style.background != nil else { return 0 }
        let key = (style.foreground?.rawValue ?? -1) * 16 + (style.background?.rawValue ?? -1) + 17
        if let existing = pairs[key] { return existing }
        let number = Int16(pairs.count + 1)
        guard Int32(number) < scm_color_pairs() else { return 0 }
        init_pair(number, Int16(style.foreground?.rawValue ?? -1), Int16(style.background?.rawValue ?? -1))
        pairs[key] = number
        return number
    }

    // MARK: Suspending

    /// Leaves curses mode for `body` (which runs an editor in this process group, the terminal's foreground
    /// group), with keyboard signals ignored here so they reach only the editor; then drains whatever the terminal
    /// sent in reply to the editor's queries, so none of it is taken as key presses, and redraws.
    func suspend<Result>(_ body: () throws -> Result) rethrows -> Result {
        setBracketedPaste(false)
        def_prog_mode()
        endwin()
        var ignore = Self.action(SIG_IGN)
        var savedInterrupt = sigaction()
        var savedQuit = sigaction()
        var savedStop = sigaction()
        sigaction(SIGINT, &ignore, &savedInterrupt)
        sigaction(SIGQUIT, &ignore, &savedQuit)
        sigaction(SIGTSTP, &ignore, &savedStop)
        defer {
            sigaction(SIGINT, &savedInterrupt, nil)
            sigaction(SIGQUIT, &savedQuit, nil)
            sigaction(SIGTSTP, &savedStop, nil)
            reset_prog_mode()
            flushinp()
            var drained = 0
            while drained < 64, read(timeout: 50) != nil { drained += 1 }
            setBracketedPaste(true)
            clearok(window, true)
            wrefresh(window)
        }
        return try body()
    }

    /// A signal action with `handler` (`SIG_IGN`, `SIG_DFL`) and an empty mask.
    private static func action(_ handler: (@convention(c) (Int32) -> Void)?) -> sigaction {
        var action = sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
        #else
            action.__sigaction_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        return action
    }

    /// Ctrl-Z (a key in raw mode, not a signal): leaves curses mode, stops the process group with SIGTSTP's
    /// default action as a shell expects of a job, and when the shell resumes it (`fg`, SIGCONT) takes the terminal
    /// back and redraws everything.
    func suspendJob() {
        setBracketedPaste(false)
        def_prog_mode()
        endwin()
        var stop = Self.action(SIG_DFL)
        var saved = sigaction()
        sigaction(SIGTSTP, &stop, &saved)
        kill(0, SIGTSTP)
        sigaction(SIGTSTP, &saved, nil)
        reset_prog_mode()
        setBracketedPaste(true)
        clearok(window, true)
        wrefresh(window)
    }

    // MARK: Signals

    private static func installSignalHandlers() {
        _ = stopSignal.load(ordering: .relaxed)  // initialise the global before any handler can run
        var handled = sigset_t()
        sigemptyset(&handled)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
            // Without SA_RESTART, so a pending read returns at once and the loop sees the request immediately.
            var action = sigaction()
            let handler: @convention(c) (Int32) -> Void = { received in stopSignal.store(received, ordering: .relaxed) }
            #if canImport(Darwin)
                action.__sigaction_u.__sa_handler = handler
            #else
                action.__sigaction_handler.sa_handler = handler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signalNumber, &action, nil)
            sigaddset(&handled, signalNumber)
        }
        // A parent may have started us with these blocked; the menu must hear them to restore the terminal, and
        // SIGWINCH to follow resizes.
        sigaddset(&handled, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            signal(signalNumber) { received in
                // Best effort on the way down: give the shell its terminal back, then die of the same signal.
                endwin()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
