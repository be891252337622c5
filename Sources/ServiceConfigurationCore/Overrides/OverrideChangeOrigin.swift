public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who changed the overrides, as the history journal records it: the debug menu, the command-line tool, a program
/// (by its process name), each with its process id, or a change made outside any of them (a hand edit of the file).
///
/// A program's store records its own process name by default; the package's tools say who they are:
///
/// ```swift
/// let store = FileOverrideStore(url: url, origin: .menu)   // config-menu's menu
/// store.origin                                            // menu (pid 4411)
/// OverrideChangeOrigin.program()                          // MyApp (pid 5120)
/// ```
public struct OverrideChangeOrigin: Sendable, Hashable, CustomStringConvertible {
    /// What kind of writer.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The debug menu.
        case menu
        /// The command-line tool.
        case cli
        /// A program using the service (its process name is ``OverrideChangeOrigin/name``).
        case program
        /// A change no journaling writer made: a hand edit of the file, or a writer stopped before it journaled.
        case outside
    }

    /// What kind of writer.
    public var kind: Kind
    /// A name for people: the program's process name, `config-menu` for the tools.
    public var name: String
    /// The writer's process id (`nil` for changes made outside).
    public var pid: Int32?

    /// An origin.
    public init(kind: Kind, name: String, pid: Int32?) {
        self.kind = kind
        self.name = name
        self.pid = pid
    }

    /// This process as the debug menu.
    public static var menu: OverrideChangeOrigin {
        OverrideChangeOrigin(kind: .menu, name: "config-menu", pid: getpid())
    }

    /// This process as the command-line tool.
    public static var cli: OverrideChangeOrigin { OverrideChangeOrigin(kind: .cli, name: "config-menu", pid: getpid()) }

    /// A change made outside the journaling writers (a hand edit).
    public static let outside = OverrideChangeOrigin(kind: .outside, name: "hand edit", pid: nil)

    /// This process as a program, named `name` (default: its process name).
    public static func program(name: String = ProcessInfo.processInfo.processName) -> OverrideChangeOrigin {
        OverrideChangeOrigin(kind: .program, name: name, pid: getpid())
    }

    /// For people: `menu (pid 4411)`, `cli (pid 4412)`, `MyApp (pid 5120)`, `a hand edit (or a writer stopped
    /// before it recorded its change)`. The name is escaped.
    public var description: String {
        let pidText = pid.map { " (pid \($0))" } ?? ""
        switch kind {
        case .menu: return "menu" + pidText
        case .cli: return "cli" + pidText
        case .program: return VisibleText.escaped(name) + pidText
        case .outside: return "a hand edit (or a writer stopped before it recorded its change)"
        }
    }

    /// A short label for narrow columns: `menu 4411`, `cli 4412`, `MyApp 5120`, `hand edit`.
    public var shortDescription: String {
        let pidText = pid.map { " \($0)" } ?? ""
        switch kind {
        case .menu: return "menu" + pidText
        case .cli: return "cli" + pidText
        case .program: return VisibleText.escaped(name) + pidText
        case .outside: return "hand edit"
        }
    }
}
