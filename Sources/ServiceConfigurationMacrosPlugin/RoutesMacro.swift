#if Macros
    internal import SwiftDiagnostics
    internal import SwiftSyntax
    internal import SwiftSyntaxMacros

    /// `@Routes(ConfigurationScopes.Checkout.self) extension ConfigurationDynamicLookup {}`: one routing subscript
    /// per scope named.
    struct RoutesMacro: MemberMacro {
        static func expansion(
            of node: AttributeSyntax,
            providingMembersOf declaration: some DeclGroupSyntax,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            func refuse(_ target: some SyntaxProtocol, _ id: String, _ message: String) -> [DeclSyntax] {
                context.diagnose(Diagnostic(node: target, message: MacroDiagnostic(id, message)))
                return []
            }
            guard let extensionDecl = declaration.as(ExtensionDeclSyntax.self),
                extensionDecl.extendedType.trimmedDescription.split(separator: ".").last == "ConfigurationDynamicLookup"
            else {
                return refuse(
                    node, "routes-not-on-lookup",
                    "@Routes belongs on an empty extension of ConfigurationDynamicLookup: "
                        + "'@Routes(Checkout.self) extension ConfigurationDynamicLookup {}'")
            }

            var access = "public "
            var scopes: [(type: String, node: ExprSyntax)] = []
            for argument in node.labeledArguments {
                if argument.label?.text == "access" {
                    let level = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                    access = level == "internal" ? "" : "\(level?.replacingBackticks ?? "public") "
                    continue
                }
                guard let member = argument.expression.as(MemberAccessExprSyntax.self),
                    member.declName.baseName.tokenKind == .keyword(.self), let base = member.base
                else {
                    return refuse(
                        argument.expression, "routes-not-a-type",
                        "name each scope as a type: '@Routes(ConfigurationScopes.Checkout.self)'")
                }
                let type = base.trimmedDescription
                if scopes.contains(where: { $0.type == type }) {
                    return refuse(argument.expression, "routes-duplicate", "\(type) is routed twice in this list")
                }
                scopes.append((type, argument.expression))
            }
            if scopes.isEmpty {
                return refuse(
                    node, "routes-empty", "name the scopes to route: '@Routes(ConfigurationScopes.Checkout.self)'")
            }
            return scopes.map { scope in
                DeclSyntax(
                    """
                    /// Routes `service.…` to the keys of `\(raw: scope.type)`.
                    \(raw: access)subscript<K: ServiceConfiguration.ConfigurationKey>(
                    dynamicMember keyPath: Swift.KeyPath<\(raw: scope.type), K>
                    ) -> K {
                    self[K.self]
                    }
                    """)
            }
        }
    }

    extension String {
        /// The identifier without backticks: `` `public` `` → `public`.
        var replacingBackticks: String { filter { $0 != "`" } }
    }
#endif
