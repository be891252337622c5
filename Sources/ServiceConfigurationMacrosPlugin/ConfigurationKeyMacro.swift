#if Macros
    internal import SwiftDiagnostics
    internal import SwiftSyntax
    internal import SwiftSyntaxMacros

    /// `@ConfigurationKey("wire.name", …) static let property = default`: the scope's property and the key type.
    struct ConfigurationKeyMacro: PeerMacro {
        static func expansion(
            of node: AttributeSyntax,
            providingPeersOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            let (key, problems) = KeyDeclaration.read(declaration, attribute: node)
            for problem in problems { context.diagnose(problem) }
            guard let key, let scope = scopeName(of: node, in: context) else { return [] }
            return key.expansion(scopeName: scope)
        }

        /// The name of the struct the key is declared in, or `nil` (reported) when it is not declared in the body of
        /// a scope.
        private static func scopeName(of node: AttributeSyntax, in context: some MacroExpansionContext) -> String? {
            func refuse(_ id: String, _ message: String) -> String? {
                context.diagnose(Diagnostic(node: node, message: MacroDiagnostic(id, message)))
                return nil
            }
            guard let enclosing = context.lexicalContext.first else {
                return refuse("not-in-scope", "a key is declared in the body of a @ConfigurationScope struct")
            }
            if let structure = enclosing.as(StructDeclSyntax.self) {
                guard structure.hasAttribute("ConfigurationScope") || structure.inherits("ConfigurationScope") else {
                    return refuse(
                        "not-in-scope",
                        "a key is declared in the body of a @ConfigurationScope struct; mark '\(structure.name.text)' "
                            + "@ConfigurationScope")
                }
                return structure.name.text
            }
            // `@ConfigurationScope enum Search { @ConfigurationKey … }`: the scope's own diagnostic would come only
            // after this one, so this one names the fix.
            if let group = enclosing.asProtocol((any DeclGroupSyntax).self), group.hasAttribute("ConfigurationScope"),
                let (kind, name) = nonStructName(of: enclosing)
            {
                return refuse(
                    "scope-not-a-struct",
                    "'\(name)' is \(kind), and a configuration scope is a struct (its keys are stored properties): "
                        + "make '\(name)' a struct")
            }
            if enclosing.is(ExtensionDeclSyntax.self) {
                return refuse(
                    "key-in-extension",
                    "declare keys in the scope's own body, not in an extension: a key is a stored property of the "
                        + "scope, which an extension cannot add, and the scope lists the keys of its body")
            }
            return refuse(
                "not-in-scope",
                "a key is declared in the body of a @ConfigurationScope struct (a scope is a struct: its keys are "
                    + "stored properties)")
        }

        /// `("an enum", "Search")` for an enum, class or actor declaration; `nil` for anything else.
        private static func nonStructName(of node: Syntax) -> (kind: String, name: String)? {
            if let declaration = node.as(EnumDeclSyntax.self) { return ("an enum", declaration.name.text) }
            if let declaration = node.as(ClassDeclSyntax.self) { return ("a class", declaration.name.text) }
            if let declaration = node.as(ActorDeclSyntax.self) { return ("an actor", declaration.name.text) }
            return nil
        }
    }
#endif
