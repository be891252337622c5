import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A yes/no question on the terminal before a change (`import`, `undo`): asked on standard error, answered on
/// standard input; anything but `y` or `yes` is no.
enum TerminalQuestion {
    /// Whether a person can be asked: standard input and standard error are terminals.
    static var canAsk: Bool { isatty(0) == 1 && isatty(2) == 1 }

    /// Asks `question` (with ` [y/N] `) and returns whether the answer is yes; end of input is no.
    static func ask(_ question: String) -> Bool {
        Output.prompt(question + " [y/N] ")
        guard let answer = readLine(strippingNewline: true) else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
