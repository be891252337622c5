/// A program's version as dot-separated numbers (`14.2`, `14.10.1`), compared numerically component by component;
/// missing components count as zero, so `14.2` equals `14.2.0` and `14.10` is after `14.9`.
///
/// A program tells its service the version it runs as, so an override set "until version 14.2" stops applying from
/// that version on:
///
/// ```swift
/// let service = LiveConfigurationService(catalog: catalog, overrideStore: store, programVersion: ProgramVersion("14.2"))
/// ProgramVersion("14.10")! > ProgramVersion("14.9")!    // true
/// ```
public struct ProgramVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numbers, as written (trailing zeros kept, so ``description`` shows what was given).
    public let components: [Int]

    /// The longest version text accepted, in bytes.
    public static let maximumLength = 64

    /// Parses `text`: one to eight whole numbers separated by dots, each at most nine digits, optionally after a
    /// `v` (`v14.2`). Anything else (`14.2-beta`, `14..2`, an empty string) is `nil`.
    public init?(_ text: String) {
        var body = Substring(text)
        if body.first == "v" || body.first == "V" { body = body.dropFirst() }
        guard !body.isEmpty, text.utf8.count <= Self.maximumLength else { return nil }
        var components: [Int] = []
        for part in body.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part)
            else { return nil }
            components.append(number)
        }
        guard components.count <= 8 else { return nil }
        self.components = components
    }

    /// The version as written, without a leading `v`: `14.2`.
    public var description: String { components.map(String.init).joined(separator: ".") }

    /// Equal when every component is, missing ones counting as zero.
    public static func == (lhs: ProgramVersion, rhs: ProgramVersion) -> Bool { compare(lhs, rhs) == 0 }

    /// Hashes the components without trailing zeros, so equal versions hash alike.
    public func hash(into hasher: inout Hasher) {
        var trimmed = components[...]
        while trimmed.last == 0 { trimmed = trimmed.dropLast() }
        hasher.combine(Array(trimmed))
    }

    /// Numeric order, component by component.
    public static func < (lhs: ProgramVersion, rhs: ProgramVersion) -> Bool { compare(lhs, rhs) < 0 }

    private static func compare(_ lhs: ProgramVersion, _ rhs: ProgramVersion) -> Int {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right ? -1 : 1 }
        }
        return 0
    }
}
