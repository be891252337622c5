// Registration that cannot be forgotten (issue 23): applied to an app target, generates one Swift file that lists
// every configuration scope declared in the target and in the Swift modules it links, as `LinkedConfigurationScopes`.
//
//     .executableTarget(
//         name: "App",
//         dependencies: [...],
//         plugins: [.plugin(name: "ConfigurationCatalogPlugin", package: "ServiceConfiguration")]
//     )
//
// The generator parses the files with swift-syntax, so ServiceConfiguration must be depended on with its Macros trait.
// The command's inputs are every file it reads, so it runs again only when one of them changes.
import Foundation
import PackagePlugin

@main
struct ConfigurationCatalogPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let packageTargets = Set(context.package.targets.map(\.id))
        var arguments: [String] = []
        var inputs: [URL] = []
        var linksCore = false

        func add(_ module: SwiftSourceModuleTarget, relation: String) {
            let files = module.sourceFiles(withSuffix: "swift").map(\.url)
                .filter { !$0.pathComponents.contains("Fixtures") }
                .sorted { $0.path < $1.path }
            arguments += ["--module", module.moduleName, relation] + files.map(\.path)
            inputs += files
        }

        add(target, relation: "target")
        for module in linkedModules(of: target) {
            if module.moduleName == "ServiceConfigurationCore" { linksCore = true }
            add(module, relation: packageTargets.contains(module.id) ? "samePackage" : "otherPackage")
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "LinkedConfigurationScopes.swift")
        arguments =
            ["--output", output.path, "--target", target.moduleName]
            + (linksCore ? ["--core", "ServiceConfigurationCore"] : []) + arguments
        return [
            .buildCommand(
                displayName: "Listing the configuration scopes \(target.moduleName) links",
                executable: try context.tool(named: "configuration-catalog-generator").url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    /// The Swift modules `target` can import, through targets and products, across packages, each once, sorted by
    /// name. Macro, plugin and executable targets are neither listed nor followed (what a macro links is the
    /// compiler's, not the app's: swift-syntax would be parsed otherwise), nor are test targets.
    func linkedModules(of target: SwiftSourceModuleTarget) -> [SwiftSourceModuleTarget] {
        var seen: Set<Target.ID> = [target.id]
        var found: [SwiftSourceModuleTarget] = []
        var pending: [Target] = dependencies(of: target)
        while let next = pending.popLast() {
            guard seen.insert(next.id).inserted else { continue }
            guard let module = next as? SwiftSourceModuleTarget else { continue }
            switch module.kind {
            case .generic:
                found.append(module)
                pending += dependencies(of: module)
            default:
                continue
            }
        }
        return found.sorted { $0.moduleName < $1.moduleName }
    }

    func dependencies(of target: Target) -> [Target] {
        target.dependencies.flatMap { dependency -> [Target] in
            switch dependency {
            case .target(let target): [target]
            case .product(let product): product.targets
            @unknown default: []
            }
        }
    }
}
