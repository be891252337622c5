/// An access level as written in Swift source, ordered from the most restricted to the most open.
public enum SourceAccessLevel: Int, Comparable, Sendable, CustomStringConvertible {
    /// `private`.
    case `private`
    /// `fileprivate` (and `private` at the top level of a file, which means the same).
    case `fileprivate`
    /// `internal`, the default.
    case `internal`
    /// `package`.
    case `package`
    /// `public`.
    case `public`
    /// `open`.
    case `open`

    /// The level a modifier keyword names, or `nil` for any other keyword.
    public init?(keyword: String) {
        switch keyword {
        case "private": self = .private
        case "fileprivate": self = .fileprivate
        case "internal": self = .internal
        case "package": self = .package
        case "public": self = .public
        case "open": self = .open
        default: return nil
        }
    }

    /// Orders the levels from `private` to `open`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The keyword, such as `"public"`.
    public var description: String {
        switch self {
        case .private: "private"
        case .fileprivate: "fileprivate"
        case .internal: "internal"
        case .package: "package"
        case .public: "public"
        case .open: "open"
        }
    }
}

/// One configuration scope found in a module's sources: a type attached `@ConfigurationScope`, or declared or
/// extended with a `ConfigurationScope` conformance.
public struct ScopeDeclaration: Hashable, Sendable {
    /// How the scope was recognised.
    public enum Form: String, Hashable, Sendable {
        /// A type attached `@ConfigurationScope`.
        case macro
        /// A type whose declaration lists `ConfigurationScope` among what it conforms to.
        case conformance
        /// An extension that adds the conformance to a type.
        case extensionConformance
    }

    /// The name through enclosing types and extensions, such as `"ConfigurationScopes.Checkout"`.
    public var qualifiedName: String
    /// The module whose sources declare it.
    public var module: String
    /// Its access level, capped by the enclosing types and extensions that this file shows (see
    /// ``CatalogGenerator/resolveAccess(_:typeAccess:)`` for types declared in other files of the module).
    public var access: SourceAccessLevel
    /// The file that declares it, as given to the scanner.
    public var file: String
    /// The line of the declaration (its first token after attributes and comments).
    public var line: Int
    /// How it was recognised.
    public var form: Form
    /// The `#if` conditions that must all hold for it to exist, outermost first, each a Swift condition
    /// (`#else` and `#elseif` clauses as the negation of the clauses before them); empty when it is unconditional.
    public var conditions: [String]
    /// Why it cannot be listed even when its access allows it (a generic type, a condition the generator cannot
    /// evaluate for another module), or `nil`.
    public var unlistableReason: String?
    /// Types declared in other files (or other modules) whose access also caps this scope's: the types it is
    /// nested in through extensions, by the name the extension wrote.
    public var extendedTypes: [String]

    /// Creates a found scope.
    public init(
        qualifiedName: String, module: String, access: SourceAccessLevel, file: String, line: Int, form: Form,
        conditions: [String] = [], unlistableReason: String? = nil, extendedTypes: [String] = []
    ) {
        self.qualifiedName = qualifiedName
        self.module = module
        self.access = access
        self.file = file
        self.line = line
        self.form = form
        self.conditions = conditions
        self.unlistableReason = unlistableReason
        self.extendedTypes = extendedTypes
    }
}

/// A nominal type found in a module's sources, kept so a scope nested in an extension of it gets its access.
public struct TypeDeclaration: Hashable, Sendable {
    /// The name through enclosing types and extensions.
    public var qualifiedName: String
    /// Its access level as far as its own file shows.
    public var access: SourceAccessLevel
    /// Types of other files whose access caps this one's (see ``ScopeDeclaration/extendedTypes``).
    public var extendedTypes: [String]

    /// Creates a found type.
    public init(qualifiedName: String, access: SourceAccessLevel, extendedTypes: [String] = []) {
        self.qualifiedName = qualifiedName
        self.access = access
        self.extendedTypes = extendedTypes
    }
}

/// What one file declares: its scopes, every nominal type (for access), and whether it parsed cleanly.
public struct FileScan: Sendable {
    /// The scopes, in source order.
    public var scopes: [ScopeDeclaration]
    /// Every struct, enum, class, actor and protocol, in source order.
    public var types: [TypeDeclaration]
    /// Whether the parser met syntax errors (the scan then holds what it could recover).
    public var hasSyntaxErrors: Bool

    /// Creates a scan result.
    public init(scopes: [ScopeDeclaration], types: [TypeDeclaration], hasSyntaxErrors: Bool) {
        self.scopes = scopes
        self.types = types
        self.hasSyntaxErrors = hasSyntaxErrors
    }
}
