#if Macros
    internal import SwiftDiagnostics
    internal import SwiftSyntax
    internal import SwiftSyntaxMacros

    /// `@ConfigurationScope struct Checkout { … }`: the conformance, the scope's list of its keys, and the typed
    /// override builder; reports two keys with one wire name.
    struct ConfigurationScopeMacro: ExtensionMacro, MemberMacro {
        static func expansion(
            of node: AttributeSyntax,
            attachedTo declaration: some DeclGroupSyntax,
            providingExtensionsOf type: some TypeSyntaxProtocol,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [ExtensionDeclSyntax] {
            // Only a struct can be a scope; the member role reports anything else. An explicit conformance stays.
            guard declaration.is(StructDeclSyntax.self), !protocols.isEmpty, !declaration.inherits("ConfigurationScope")
            else { return [] }
            return [try ExtensionDeclSyntax("extension \(type.trimmed): ServiceConfiguration.ConfigurationScope {}")]
        }

        static func expansion(
            of node: AttributeSyntax,
            providingMembersOf declaration: some DeclGroupSyntax,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            guard let structure = declaration.as(StructDeclSyntax.self) else {
                reportNotAStruct(declaration, attribute: node, in: context)
                return []
            }
            let entries = collect(structure.memberBlock.members, path: [])
            reportDuplicates(entries.flatMap(\.keys), in: context)

            let access = AccessLevel(structure.modifiers)
            var members: [DeclSyntax] = [
                DeclSyntax(
                    """
                    /// The scope's keys in declaration order, listed by `@ConfigurationScope` (no reflection needed).
                    \(raw: access.modifier)static var keys: [any ServiceConfiguration.ConfigurationKey.Type] {
                    \(raw: keyList(entries))
                    }
                    """)
            ]
            if let owner = node.arguments?.as(LabeledExprListSyntax.self)?.first(where: { $0.label?.text == "owner" }),
                owner.expression.trimmedDescription != "nil"
            {
                members.append(
                    DeclSyntax(
                        """
                        /// Who owns the keys that name no owner of their own, from `@ConfigurationScope(owner:)`.
                        \(raw: access.modifier)static let owner: String = \(raw: owner.expression.trimmedDescription)
                        """))
            }
            let unconditional = entries.compactMap { if case .key(let key) = $0 { key } else { nil } }
            if !unconditional.isEmpty {
                members.append(overrideBuilder(unconditional, access: min(access, unconditional.map(\.access).min()!)))
            }
            return members
        }

        // MARK: - Reading the body

        /// A key of the body, or a `#if` whose clauses hold keys.
        private enum Entry {
            case key(KeyDeclaration)
            case conditional([(clause: IfConfigClauseSyntax, entries: [Entry])])

            /// The keys, each with the `#if` clauses it is in (the `#if` and the clause's position).
            var keys: [(key: KeyDeclaration, path: [ClausePosition])] {
                switch self {
                case .key(let key):
                    return [(key, [])]
                case .conditional(let clauses):
                    return clauses.enumerated().flatMap { index, clause in
                        clause.entries.flatMap(\.keys).map { key, path in
                            (key, [ClausePosition(ifConfig: clause.clause.parent?.id, clause: index)] + path)
                        }
                    }
                }
            }
        }

        /// Where a key sits: in which clause of which `#if`.
        private struct ClausePosition: Equatable {
            let ifConfig: SyntaxIdentifier?
            let clause: Int
        }

        /// The keys declared with `@ConfigurationKey` in `members`, in order, descending into `#if` clauses. Keys the
        /// key macro refuses are left out (it reports them).
        private static func collect(_ members: MemberBlockItemListSyntax, path: [ClausePosition]) -> [Entry] {
            var entries: [Entry] = []
            for member in members {
                if let variable = member.decl.as(VariableDeclSyntax.self) {
                    for attribute in variable.attributes {
                        guard let attribute = attribute.as(AttributeSyntax.self),
                            attribute.simpleName == "ConfigurationKey"
                        else { continue }
                        if let key = KeyDeclaration.read(variable, attribute: attribute).key {
                            entries.append(.key(key))
                        }
                    }
                } else if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                    let clauses = conditional.clauses.map { clause in
                        if case .decls(let members) = clause.elements {
                            (clause: clause, entries: collect(members, path: path))
                        } else {
                            (clause: clause, entries: [Entry]())
                        }
                    }
                    if clauses.contains(where: { !$0.entries.isEmpty }) { entries.append(.conditional(clauses)) }
                }
            }
            return entries
        }

        // MARK: - Diagnostics

        private static func reportNotAStruct(
            _ declaration: some DeclGroupSyntax, attribute: AttributeSyntax, in context: some MacroExpansionContext
        ) {
            let keyword: TokenSyntax? =
                declaration.as(EnumDeclSyntax.self)?.enumKeyword ?? declaration.as(ClassDeclSyntax.self)?.classKeyword
                ?? declaration.as(ActorDeclSyntax.self)?.actorKeyword
            if let keyword {
                context.diagnose(
                    Diagnostic(
                        node: keyword,
                        message: MacroDiagnostic(
                            "scope-not-a-struct",
                            "a configuration scope is a struct: its keys are stored properties, which \(keyword.text == "enum" ? "an enum" : "a reference type here") cannot hold"
                        ),
                        fixIts: [
                            FixIt(
                                message: MacroFixIt("make-struct", "make it a struct"),
                                changes: [
                                    .replace(
                                        oldNode: Syntax(keyword),
                                        newNode: Syntax(
                                            TokenSyntax.keyword(
                                                .struct, leadingTrivia: keyword.leadingTrivia,
                                                trailingTrivia: keyword.trailingTrivia)))
                                ])
                        ]))
            } else if declaration.is(ExtensionDeclSyntax.self) {
                context.diagnose(
                    Diagnostic(
                        node: attribute,
                        message: MacroDiagnostic(
                            "scope-on-extension",
                            "put @ConfigurationScope on the scope's struct declaration, whose body declares the keys")))
            } else {
                context.diagnose(
                    Diagnostic(
                        node: attribute,
                        message: MacroDiagnostic("scope-not-a-struct", "a configuration scope is a struct")))
            }
        }

        /// Reports each key whose wire name an earlier key of the scope already uses (keys in different clauses of
        /// one `#if` never exist together and may share a name).
        private static func reportDuplicates(
            _ keys: [(key: KeyDeclaration, path: [ClausePosition])], in context: some MacroExpansionContext
        ) {
            for (index, entry) in keys.enumerated() {
                let earlier = keys[..<index].first { other in
                    other.key.wireName == entry.key.wireName && coexist(other.path, entry.path)
                }
                guard let earlier else { continue }
                context.diagnose(
                    Diagnostic(
                        node: entry.key.wireNameNode,
                        message: MacroDiagnostic(
                            "duplicate-wire-name",
                            "the wire name \(entry.key.wireName.swiftLiteral) is already the name of "
                                + "'\(earlier.key.propertyName)' in this scope; each key needs its own"),
                        notes: [
                            Note(
                                node: Syntax(earlier.key.wireNameNode),
                                message: MacroNote(
                                    "duplicate-wire-name-first", "'\(earlier.key.propertyName)' uses it here"))
                        ]))
            }
        }

        /// Whether keys at these two places can be compiled together: not in two clauses of one `#if`.
        private static func coexist(_ first: [ClausePosition], _ second: [ClausePosition]) -> Bool {
            for (a, b) in zip(first, second) where a != b {
                return a.ifConfig != b.ifConfig
            }
            return true
        }

        // MARK: - Generated code

        /// The body of `keys`: an array literal, or statements when some keys are under `#if`.
        private static func keyList(_ entries: [Entry]) -> String {
            let isPlain = entries.allSatisfy { if case .key = $0 { true } else { false } }
            if isPlain {
                let items = entries.compactMap { if case .key(let key) = $0 { "\(key.keyTypeName).self" } else { nil } }
                return items.isEmpty ? "[]" : "[\n" + items.map { "\($0)," }.joined(separator: "\n") + "\n]"
            }
            func statements(_ entries: [Entry]) -> [String] {
                entries.flatMap { entry -> [String] in
                    switch entry {
                    case .key(let key):
                        return ["keys.append(\(key.keyTypeName).self)"]
                    case .conditional(let clauses):
                        var lines: [String] = []
                        for (clause, entries) in clauses {
                            let condition = clause.condition.map { " \($0.trimmedDescription)" } ?? ""
                            lines.append("\(clause.poundKeyword.text)\(condition)")
                            lines += statements(entries)
                        }
                        return lines + ["#endif"]
                    }
                }
            }
            return
                (["var keys: [any ServiceConfiguration.ConfigurationKey.Type] = []"] + statements(entries)
                + ["return keys"]).joined(separator: "\n")
        }

        /// `setOverrides(on:…)`: one optional, typed argument per key (the keys under `#if` are left out).
        private static func overrideBuilder(_ keys: [KeyDeclaration], access: AccessLevel) -> DeclSyntax {
            let parameters = keys.map { "\($0.propertyName): \($0.keyTypeName).Value? = nil" }
            let body = keys.map { key in
                """
                if let \(key.propertyName) {
                try serviceToOverride.setOverride(\(key.propertyName), for: \(key.keyTypeName).self)
                }
                """
            }
            return DeclSyntax(
                """
                /// Overrides the keys given a value on `service` (a `MockConfigurationService` in a test) in one call,
                /// and returns the service; a key left `nil` keeps its value. Throws as `setOverride(_:for:)` does.
                ///
                /// ```swift
                /// let mock = try setOverrides(on: MockConfigurationService(scopes: [Self.self]), \(raw: keys[0].propertyName): …)
                /// ```
                @discardableResult
                \(raw: access.modifier)static func setOverrides<Service: ServiceConfiguration.ConfigurationService>(
                on serviceToOverride: Service,
                \(raw: parameters.joined(separator: ",\n"))
                ) throws -> Service {
                \(raw: body.joined(separator: "\n"))
                return serviceToOverride
                }
                """)
        }
    }
#endif
