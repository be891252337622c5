#if Macros
    import SwiftParser
    import SwiftSyntax

    /// Finds the configuration scopes a Swift file declares, by parsing it with swift-syntax's `SwiftParser`.
    ///
    /// A scope is a struct, enum, class or actor attached `@ConfigurationScope`, or declared or extended with a
    /// conformance to `ConfigurationScope` (also written `ServiceConfiguration.ConfigurationScope` or
    /// `ServiceConfigurationCore.ConfigurationScope`, in a composition, or `@retroactive`). Only declarations are
    /// walked: the top level, type bodies and extension bodies, and `#if` clauses among them; function, closure and
    /// property bodies are not (a type declared there cannot be named from outside). Protocols refining
    /// `ConfigurationScope`, comments, strings and other mentions are not scopes.
    ///
    /// `#if`: every clause is walked, and a scope inside one carries the clause's condition (``ScopeDeclaration/
    /// conditions``), which the generated file repeats around the scope. A condition is kept only when it means the
    /// same in every module of a build (`os`, `arch`, `canImport`, `targetEnvironment`, `swift`, `compiler`,
    /// `hasFeature`, `hasAttribute`, `_endian`, `_pointerBitWidth`, `_runtime`, `DEBUG`, `true`, `false`, combined
    /// with `!`, `&&`, `||`); a scope under any other flag (a `-D` of its own module or a package trait) is found
    /// but not listable, because the app module compiles with other flags.
    public enum ScopeScanner {
        /// Scans one file of `module`; `file` is only used to name where each scope is.
        public static func scan(source: String, file: String, module: String) -> FileScan {
            let tree = Parser.parse(source: source)
            var walker = Walker(
                module: module, file: file, converter: SourceLocationConverter(fileName: file, tree: tree))
            walker.walk(statements: tree.statements, in: Context())
            return FileScan(scopes: walker.scopes, types: walker.types, hasSyntaxErrors: tree.hasError)
        }

        /// Scans the files of one module that can matter, each parsed at most once, in the order given.
        ///
        /// A file that does not contain the text `ConfigurationScope` cannot declare a scope (both forms name it),
        /// so it is parsed only when it may declare a type that a scope is nested in through an extension (its text
        /// contains the type's last name component), since that type's access caps the scope's; and so on for the
        /// types that type extends. On the RegistryApp fixture this parses 20 of 159 files.
        public static func scanModule(files: [(path: String, source: String)], module: String) -> [FileScan] {
            var scans: [Int: FileScan] = [:]
            for (index, file) in files.enumerated() where file.source.contains("ConfigurationScope") {
                scans[index] = scan(source: file.source, file: file.path, module: module)
            }
            while true {
                let known = Set(scans.values.flatMap(\.types).map(\.qualifiedName))
                let wanted = Set(
                    scans.values.flatMap { $0.scopes.flatMap(\.extendedTypes) + $0.types.flatMap(\.extendedTypes) }
                ).subtracting(known)
                let words = wanted.compactMap { $0.split(separator: ".").last.map(String.init) }
                let more = files.indices.filter { index in
                    scans[index] == nil && words.contains { files[index].source.contains($0) }
                }
                if more.isEmpty { break }
                for index in more {
                    scans[index] = scan(source: files[index].source, file: files[index].path, module: module)
                }
            }
            return scans.keys.sorted().compactMap { scans[$0] }
        }
    }

    /// Where the walk is: the enclosing names, the access they allow, the `#if` conditions around.
    private struct Context {
        var path: [String] = []
        /// The most open level a declaration here can have.
        var cap = SourceAccessLevel.open
        /// The level a declaration without a modifier gets here (a `public extension`'s members are public).
        var defaultAccess = SourceAccessLevel.internal
        var conditions: [String] = []
        var unlistableReason: String?
        var extendedTypes: [String] = []
        /// The generic types around (a scope nested in one cannot be named without its arguments).
        var genericParents: [String] = []
        var atTopLevel: Bool { path.isEmpty }
    }

    private struct Walker {
        let module: String
        let file: String
        let converter: SourceLocationConverter
        var scopes: [ScopeDeclaration] = []
        var types: [TypeDeclaration] = []

        static let scopeProtocolNames: Set<String> = [
            "ConfigurationScope", "ServiceConfiguration.ConfigurationScope",
            "ServiceConfigurationCore.ConfigurationScope",
        ]
        static let scopeMacroNames: Set<String> = [
            "ConfigurationScope", "ServiceConfigurationMacros.ConfigurationScope",
        ]

        mutating func walk(statements: CodeBlockItemListSyntax, in context: Context) {
            for item in statements {
                if case .decl(let decl) = item.item { walk(decl: decl, in: context) }
            }
        }

        mutating func walk(members: MemberBlockItemListSyntax, in context: Context) {
            for member in members { walk(decl: member.decl, in: context) }
        }

        mutating func walk(decl: DeclSyntax, in context: Context) {
            if let type = decl.as(StructDeclSyntax.self) {
                nominal(type, name: type.name.text, generic: type.genericParameterClause != nil, in: context)
            } else if let type = decl.as(EnumDeclSyntax.self) {
                nominal(type, name: type.name.text, generic: type.genericParameterClause != nil, in: context)
            } else if let type = decl.as(ClassDeclSyntax.self) {
                nominal(type, name: type.name.text, generic: type.genericParameterClause != nil, in: context)
            } else if let type = decl.as(ActorDeclSyntax.self) {
                nominal(type, name: type.name.text, generic: type.genericParameterClause != nil, in: context)
            } else if let type = decl.as(ProtocolDeclSyntax.self) {
                // Not a scope even when it refines ConfigurationScope; recorded for the access of extensions.
                let access = accessLevel(type.modifiers, in: context)
                types.append(
                    TypeDeclaration(
                        qualifiedName: (context.path + [type.name.text]).joined(separator: "."), access: access,
                        extendedTypes: context.extendedTypes))
            } else if let ext = decl.as(ExtensionDeclSyntax.self) {
                extensionDecl(ext, in: context)
            } else if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
                var earlier: [ExprSyntax] = []
                for clause in ifConfig.clauses {
                    var inner = context
                    var parts = earlier.map { "!(\($0.trimmedDescription))" }
                    if let condition = clause.condition { parts.append("(\(condition.trimmedDescription))") }
                    if !parts.isEmpty { inner.conditions.append(parts.joined(separator: " && ")) }
                    // The clause exists when its own condition holds and the earlier ones do not: each must be
                    // one the generator can repeat in another module.
                    let tested = earlier + (clause.condition.map { [$0] } ?? [])
                    for expression in tested where inner.unlistableReason == nil {
                        if let flag = ConditionCheck.unsupportedFlag(in: expression) {
                            inner.unlistableReason =
                                "it is declared under `#if \(expression.trimmedDescription)`, and the generator "
                                + "cannot evaluate `\(flag)` for the module that lists it"
                        }
                    }
                    if let condition = clause.condition { earlier.append(condition) }
                    switch clause.elements {
                    case .statements(let statements): walk(statements: statements, in: inner)
                    case .decls(let members): walk(members: members, in: inner)
                    default: break
                    }
                }
            }
        }

        mutating func nominal(
            _ decl: some DeclGroupSyntax, name: String, generic: Bool, in context: Context
        ) {
            let access = accessLevel(decl.modifiers, in: context)
            let path = context.path + [name]
            let qualifiedName = path.joined(separator: ".")
            types.append(
                TypeDeclaration(qualifiedName: qualifiedName, access: access, extendedTypes: context.extendedTypes))
            let byMacro = decl.attributes.contains { element in
                guard case .attribute(let attribute) = element else { return false }
                return Self.scopeMacroNames.contains(attribute.attributeName.trimmedDescription)
            }
            let byConformance = conformsToScope(decl.inheritanceClause)
            if byMacro || byConformance {
                var reason = context.unlistableReason
                if generic {
                    reason = "it is generic, so it has no one type to list"
                } else if reason == nil, let genericParent = genericAncestor(of: context) {
                    reason = "it is nested in the generic type \(genericParent)"
                }
                scopes.append(
                    ScopeDeclaration(
                        qualifiedName: qualifiedName, module: module, access: access, file: file,
                        line: line(of: decl), form: byMacro ? .macro : .conformance, conditions: context.conditions,
                        unlistableReason: reason, extendedTypes: context.extendedTypes))
            }
            var inner = context
            inner.path = path
            inner.cap = access
            inner.defaultAccess = .internal
            if generic { inner.genericParents.append(qualifiedName) }
            walk(members: decl.memberBlock.members, in: inner)
        }

        mutating func extensionDecl(_ ext: ExtensionDeclSyntax, in context: Context) {
            let extended = ext.extendedType.trimmedDescription
            let explicit = explicitAccess(ext.modifiers)
            var inner = context
            inner.path = [extended]
            inner.extendedTypes = [extended]
            // An extension's modifier is its members' default and their maximum; `private` there is fileprivate.
            let level = explicit.map { $0 == .private ? .fileprivate : $0 }
            inner.cap = level ?? .open
            inner.defaultAccess = level.map { min($0, .public) } ?? .internal
            if conformsToScope(ext.inheritanceClause) {
                scopes.append(
                    ScopeDeclaration(
                        qualifiedName: extended, module: module, access: .open, file: file, line: line(of: ext),
                        form: .extensionConformance, conditions: context.conditions,
                        unlistableReason: ext.genericWhereClause != nil || extended.contains("<")
                            ? "its extension is constrained, so it has no one type to list"
                            : context.unlistableReason,
                        extendedTypes: [extended]))
            }
            walk(members: ext.memberBlock.members, in: inner)
        }

        func conformsToScope(_ clause: InheritanceClauseSyntax?) -> Bool {
            guard let clause else { return false }
            return clause.inheritedTypes.contains {
                names(in: $0.type).contains(where: Self.scopeProtocolNames.contains)
            }
        }

        /// The type names a conformance lists: a composition's parts, an attributed type's base.
        func names(in type: TypeSyntax) -> [String] {
            if let composition = type.as(CompositionTypeSyntax.self) {
                return composition.elements.flatMap { names(in: $0.type) }
            }
            if let attributed = type.as(AttributedTypeSyntax.self) { return names(in: attributed.baseType) }
            return [type.trimmedDescription]
        }

        func explicitAccess(_ modifiers: DeclModifierListSyntax) -> SourceAccessLevel? {
            for modifier in modifiers where modifier.detail == nil {
                if let level = SourceAccessLevel(keyword: modifier.name.text) { return level }
            }
            return nil
        }

        func accessLevel(_ modifiers: DeclModifierListSyntax, in context: Context) -> SourceAccessLevel {
            var level = explicitAccess(modifiers) ?? context.defaultAccess
            // `private` at the top level of a file is fileprivate; inside a type it is narrower still, which for
            // listing makes no difference: neither can be named outside the file.
            if level == .private && context.atTopLevel { level = .fileprivate }
            return min(level, context.cap)
        }

        func genericAncestor(of context: Context) -> String? { context.genericParents.last }

        func line(of node: some SyntaxProtocol) -> Int {
            converter.location(for: node.positionAfterSkippingLeadingTrivia).line
        }
    }

    /// Which `#if` conditions mean the same in every module of one build.
    enum ConditionCheck {
        static let functions: Set<String> = [
            "os", "arch", "canImport", "targetEnvironment", "swift", "compiler", "hasFeature", "hasAttribute",
            "_endian", "_pointerBitWidth", "_runtime", "_hasAtomicBitWidth", "_ptrauth",
        ]
        static let flags: Set<String> = ["DEBUG"]

        /// The first name in `condition` that is neither a build-wide test nor `DEBUG`, or `nil`.
        static func unsupportedFlag(in condition: ExprSyntax) -> String? {
            let finder = FlagFinder(viewMode: .sourceAccurate)
            finder.walk(condition)
            return finder.unsupported
        }

        final class FlagFinder: SyntaxVisitor {
            var unsupported: String?

            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                let callee = node.calledExpression.trimmedDescription
                if !ConditionCheck.functions.contains(callee), unsupported == nil { unsupported = callee }
                return .skipChildren
            }

            override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
                let name = node.baseName.text
                if !ConditionCheck.flags.contains(name), unsupported == nil { unsupported = name }
                return .skipChildren
            }
        }
    }
#endif
