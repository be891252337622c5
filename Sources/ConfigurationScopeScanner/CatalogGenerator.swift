import Foundation

/// How a scanned module stands to the module whose catalog is generated: which access lets that module name a scope.
public enum ModuleRelation: Sendable {
    /// The module the file is generated into: internal scopes and up can be named.
    case target
    /// Another module of the same package: `package` and up.
    case samePackage
    /// A module of another package: `public` and `open` only.
    case otherPackage

    /// The least access a scope needs to be named from the generated file.
    public var requiredAccess: SourceAccessLevel {
        switch self {
        case .target: .internal
        case .samePackage: .package
        case .otherPackage: .public
        }
    }
}

/// The scans of one module's files.
public struct ModuleScan: Sendable {
    /// The module's name.
    public var name: String
    /// How it stands to the module the file is generated into.
    public var relation: ModuleRelation
    /// Its files' scans.
    public var files: [FileScan]

    /// Creates a module's scans.
    public init(name: String, relation: ModuleRelation, files: [FileScan]) {
        self.name = name
        self.relation = relation
        self.files = files
    }
}

/// The generated Swift file and the warnings to print about scopes it had to leave out.
public struct GeneratedCatalog: Sendable, Equatable {
    /// The Swift source of the generated file.
    public var source: String
    /// The scopes listed, sorted by module and name.
    public var listed: [ScopeDeclaration]
    /// One line per scope left out, `path:line: warning: ...`, sorted.
    public var warnings: [String]
}

/// Turns the scans of a target's modules into the file that lists their scopes.
public enum CatalogGenerator {
    /// The name of the generated enum: the same in every module, so a test target and the app module it imports
    /// with `@testable` each see their own (a module's own declaration shadows an imported one of the same name),
    /// and either is reachable qualified (`App.LinkedConfigurationScopes`).
    public static let enumName = "LinkedConfigurationScopes"

    /// The access of each scope with the types it extends taken into account: a scope in an extension of an
    /// internal type of its module is internal, whatever it says. `typeAccess` holds the module's types by
    /// qualified name; an extended type not found there comes from another module and caps nothing.
    public static func resolveAccess(
        _ scopes: [ScopeDeclaration], typeAccess: [String: TypeDeclaration]
    ) -> [ScopeDeclaration] {
        func cap(of names: [String], depth: Int) -> SourceAccessLevel {
            guard depth < 16 else { return .open }
            var level = SourceAccessLevel.open
            for name in names {
                guard let type = typeAccess[name] else { continue }
                level = min(level, type.access, cap(of: type.extendedTypes, depth: depth + 1))
            }
            return level
        }
        return scopes.map { scope in
            var scope = scope
            scope.access = min(scope.access, cap(of: scope.extendedTypes, depth: 0))
            return scope
        }
    }

    /// The generated file for `target` from the scans of its modules (its own, with ``ModuleRelation/target``,
    /// and those it links). `coreModule` is the module that declares `ConfigurationScope`, imported by the file;
    /// `nil` when the target does not link it, and the file then lists nothing.
    public static func generate(
        target: String, modules: [ModuleScan], coreModule: String? = "ServiceConfigurationCore"
    ) -> GeneratedCatalog {
        var listed: [ScopeDeclaration] = []
        var warnings: [String] = []
        for module in modules {
            var typeAccess: [String: TypeDeclaration] = [:]
            for type in module.files.flatMap(\.types) {
                // The same name twice (in two `#if` branches): the more open one decides.
                if let known = typeAccess[type.qualifiedName], known.access >= type.access { continue }
                typeAccess[type.qualifiedName] = type
            }
            let scopes = resolveAccess(module.files.flatMap(\.scopes), typeAccess: typeAccess)
            for scope in scopes {
                let place = "\(scope.file):\(scope.line): warning:"
                let what = "configuration scope \(scope.qualifiedName) (module \(scope.module))"
                if let reason = scope.unlistableReason {
                    warnings.append("\(place) \(what) is not in \(target)'s \(enumName): \(reason); list it by hand")
                } else if scope.access < module.relation.requiredAccess {
                    let needs = module.relation == .target ? "at least internal" : "\(module.relation.requiredAccess)"
                    warnings.append(
                        "\(place) \(what) is not in \(target)'s \(enumName): it is \(scope.access), and \(target) "
                            + "can only name it if it is \(needs)")
                } else if coreModule != nil {
                    listed.append(scope)
                }
            }
        }
        func order(_ scope: ScopeDeclaration) -> [String] { [scope.module, scope.qualifiedName] + scope.conditions }
        listed.sort { order($0).lexicographicallyPrecedes(order($1)) }
        var unique: [ScopeDeclaration] = []
        for scope in listed where unique.last.map(order) != order(scope) { unique.append(scope) }
        return GeneratedCatalog(
            source: render(target: target, scopes: unique, coreModule: coreModule), listed: unique,
            warnings: warnings.sorted())
    }

    static func render(target: String, scopes: [ScopeDeclaration], coreModule: String?) -> String {
        var lines = [
            "// Generated by ConfigurationCatalogPlugin (ServiceConfiguration) for the module \(target), from its",
            "// sources and those of the modules it links. Do not edit: the build writes it again when they change.",
        ]
        guard let coreModule else {
            lines.append("// \(target) does not link ServiceConfigurationCore, so it declares no scope to list.")
            return lines.joined(separator: "\n") + "\n"
        }
        let imports = Set(scopes.map(\.module)).subtracting([target]).union([coreModule]).sorted()
        lines += imports.map { "import \($0)" }
        lines += [
            "",
            "/// The configuration scopes declared in \(target) and in the modules it links, found at build time by",
            "/// ConfigurationCatalogPlugin. Build the catalog from them, `try ConfigurationCatalog(scopes:",
            "/// \(enumName).types)`, or check a hand-listed catalog against them with ServiceConfigurationTesting's",
            "/// `catalog.expectIncludesEveryScope(of: \(enumName).declarations)`.",
            "enum \(enumName) {",
        ]
        // Unconditional scopes in one literal; each set of `#if` conditions in a property of its own that is
        // empty when they do not hold (an array literal cannot hold `#if`).
        var groups: [[String]: [ScopeDeclaration]] = [:]
        for scope in scopes { groups[scope.conditions, default: []].append(scope) }
        let conditionSets = groups.keys.filter { !$0.isEmpty }.sorted { $0.joined() < $1.joined() }
        let parts = ["unconditional"] + conditionSets.indices.map { "conditional\($0)" }
        lines += [
            "    /// Each scope with its module and the name it is declared with, sorted by module and name.",
            "    static let declarations: [ConfigurationScopeDeclaration] = \(parts.joined(separator: " + "))",
            "",
            "    /// The scope types, in the order of `declarations`.",
            "    static var types: [any ConfigurationScope.Type] { declarations.map(\\.type) }",
            "",
            "    private static var unconditional: [ConfigurationScopeDeclaration] {",
        ]
        lines += literal(groups[[]] ?? [], indent: "        ")
        lines.append("    }")
        for (index, conditions) in conditionSets.enumerated() {
            lines += [
                "",
                "    private static var conditional\(index): [ConfigurationScopeDeclaration] {",
                "        #if " + conditions.joined(separator: " && "),
            ]
            lines += literal(groups[conditions] ?? [], indent: "            ")
            lines += ["        #else", "            []", "        #endif", "    }"]
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func literal(_ scopes: [ScopeDeclaration], indent: String) -> [String] {
        guard !scopes.isEmpty else { return [indent + "[]"] }
        return [indent + "["]
            + scopes.map { scope in
                "\(indent)    ConfigurationScopeDeclaration(\(scope.qualifiedName).self, module: "
                    + "\(stringLiteral(scope.module)), name: \(stringLiteral(scope.qualifiedName))),"
            } + [indent + "]"]
    }

    static func stringLiteral(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
