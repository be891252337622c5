#if Macros
    internal import SwiftSyntax

    /// An access level as a declaration writes it; ordered from the least to the most visible.
    enum AccessLevel: Int, Comparable {
        case `private`, `fileprivate`, `internal`, package, `public`

        /// The access level the modifiers spell, `internal` when none does.
        init(_ modifiers: DeclModifierListSyntax) {
            self = .internal
            for modifier in modifiers where modifier.detail == nil {
                switch modifier.name.tokenKind {
                case .keyword(.private): self = .private
                case .keyword(.fileprivate): self = .fileprivate
                case .keyword(.package): self = .package
                case .keyword(.public), .keyword(.open): self = .public
                default: break
                }
            }
        }

        /// The modifier to write in front of a generated declaration, with its trailing space; empty for
        /// `internal`, the default.
        var modifier: String {
            switch self {
            case .private: "private "
            case .fileprivate: "fileprivate "
            case .internal: ""
            case .package: "package "
            case .public: "public "
            }
        }

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    extension SyntaxProtocol {
        /// The text of the `///` (or `/** */`) comment in front of this node, one string per line, without the
        /// comment markers; empty when there is none.
        var documentationLines: [String] {
            var lines: [String] = []
            for piece in leadingTrivia {
                switch piece {
                case .docLineComment(let text):
                    var line = text.dropFirst(3)
                    if line.first == " " { line = line.dropFirst() }
                    lines.append(String(line))
                case .docBlockComment(let text):
                    let body = text.dropFirst(3).dropLast(2)
                    for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
                        var trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
                        if trimmed.first == "*" { trimmed = trimmed.dropFirst() }
                        if trimmed.first == " " { trimmed = trimmed.dropFirst() }
                        lines.append(String(trimmed))
                    }
                case .lineComment, .blockComment:
                    lines = []  // a plain comment between the doc comment and the declaration ends the doc comment
                default:
                    break
                }
            }
            while lines.first?.trimmingSpaces.isEmpty == true { lines.removeFirst() }
            while lines.last?.trimmingSpaces.isEmpty == true { lines.removeLast() }
            return lines
        }
    }

    extension String {
        /// The string without leading and trailing spaces and tabs.
        var trimmingSpaces: Substring {
            let start = firstIndex(where: { $0 != " " && $0 != "\t" }) ?? endIndex
            let end = lastIndex(where: { $0 != " " && $0 != "\t" }).map { index(after: $0) } ?? start
            return self[start..<end]
        }

        /// A Swift string literal for the string, escaped.
        var swiftLiteral: String { StringLiteralExprSyntax(content: self).description }

        /// The string with its first character upper-cased: `checkoutMaxCartItems` → `CheckoutMaxCartItems`.
        var upperCamelCased: String { prefix(1).uppercased() + dropFirst() }
    }

    extension AttributeSyntax {
        /// The attribute's name without a module qualifier: `ConfigurationKey` for
        /// `@ServiceConfigurationMacros.ConfigurationKey(...)`.
        var simpleName: String {
            if let member = attributeName.as(MemberTypeSyntax.self) { return member.name.text }
            return attributeName.trimmedDescription
        }

        /// The attribute's arguments; empty when it has none.
        var labeledArguments: LabeledExprListSyntax {
            if case .argumentList(let list) = arguments { list } else { [] }
        }
    }

    extension DeclGroupSyntax {
        /// Whether the declaration carries the attribute `name` (with or without a module qualifier).
        func hasAttribute(_ name: String) -> Bool {
            attributes.contains { $0.as(AttributeSyntax.self)?.simpleName == name }
        }

        /// Whether the declaration's inheritance clause names `type` (with or without a module qualifier).
        func inherits(_ type: String) -> Bool {
            inheritanceClause?.inheritedTypes.contains { inherited in
                let name = inherited.type.trimmedDescription
                return name == type || name.hasSuffix(".\(type)")
            } ?? false
        }
    }
#endif
