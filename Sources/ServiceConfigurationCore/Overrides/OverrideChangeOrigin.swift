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
    /// The machine the writer ran on, when the store is shared between machines (an etcd store records it); `nil`
    /// otherwise.
    public var host: String?

    /// An origin.
    public init(kind: Kind, name: String, pid: Int32?, host: String? = nil) {
        self.kind = kind
        self.name = name
        self.pid = pid
        self.host = host
    }

    /// This origin on `host` (`nil` or empty: no machine named).
    public func on(host: String?) -> OverrideChangeOrigin {
        var origin = self
        origin.host = host.flatMap { $0.isEmpty ? nil : $0 }
        return origin
    }

    /// This machine's host name (`gethostname`), or `nil` when it has none.
    public static var currentHost: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
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

    /// For people: `menu (pid 4411)`, `cli (pid 4412)`, `MyApp (pid 5120)`, with the machine when it is known
    /// (`cli (pid 4412 on build-7)`), `a hand edit (or a writer stopped before it recorded its change)`. The names
    /// are escaped.
    public var description: String {
        let hostText = host.map { " on " + VisibleText.escaped($0) } ?? ""
        let pidText = pid.map { " (pid \($0)\(hostText))" } ?? (host.map { " (on \(VisibleText.escaped($0)))" } ?? "")
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
