// The tool ConfigurationCatalogPlugin runs: parses the Swift files of a target and of the modules it links, and writes
// the one file that lists their configuration scopes (see ConfigurationScopeScanner).
//
//   configuration-catalog-generator --output FILE --target MODULE [--core MODULE]
//       --module NAME target|samePackage|otherPackage FILE... [--module ...]
//
// Prints `path:line: warning: ...` for each scope it must leave out (and, with CONFIGURATION_CATALOG_GENERATOR_VERBOSE
// set, how many files it parsed); exits 1 on bad arguments or unreadable files.
// The output is written only when it changes, so an unchanged list does not make the target compile again.
import ConfigurationScopeScanner
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: configuration-catalog-generator: \(message)\n".utf8))
    exit(1)
}

#if Macros
    struct Arguments {
        var output = ""
        var target = ""
        var core: String?
        var modules: [(name: String, relation: ModuleRelation, files: [String])] = []
    }

    func parseArguments(_ arguments: [String]) -> Arguments {
        var parsed = Arguments()
        var index = 0
        func next() -> String {
            index += 1
            guard index < arguments.count else { fail("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--output": parsed.output = next()
            case "--target": parsed.target = next()
            case "--core": parsed.core = next()
            case "--module":
                let name = next()
                let relation: ModuleRelation
                switch next() {
                case "target": relation = .target
                case "samePackage": relation = .samePackage
                case "otherPackage": relation = .otherPackage
                case let other: fail("unknown module relation \(other)")
                }
                parsed.modules.append((name, relation, []))
            case let file:
                guard !parsed.modules.isEmpty, !file.hasPrefix("--") else { fail("unexpected argument \(file)") }
                parsed.modules[parsed.modules.count - 1].files.append(file)
            }
            index += 1
        }
        if parsed.output.isEmpty || parsed.target.isEmpty { fail("--output and --target are required") }
        return parsed
    }

    let arguments = parseArguments(Array(CommandLine.arguments.dropFirst()))
    var scans: [ModuleScan] = []
    var parsedFiles = 0
    var totalFiles = 0
    for module in arguments.modules {
        var sources: [(path: String, source: String)] = []
        for path in module.files.sorted() {
            guard let source = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
            sources.append((path, source))
        }
        // Only the files that can matter are parsed (see ScopeScanner.scanModule).
        let files = ScopeScanner.scanModule(files: sources, module: module.name)
        parsedFiles += files.count
        totalFiles += sources.count
        scans.append(ModuleScan(name: module.name, relation: module.relation, files: files))
    }
    let generated = CatalogGenerator.generate(target: arguments.target, modules: scans, coreModule: arguments.core)
    if ProcessInfo.processInfo.environment["CONFIGURATION_CATALOG_GENERATOR_VERBOSE"] != nil {
        FileHandle.standardError.write(Data("parsed \(parsedFiles) of \(totalFiles) files\n".utf8))
    }
    for warning in generated.warnings { FileHandle.standardError.write(Data((warning + "\n").utf8)) }
    let data = Data(generated.source.utf8)
    let url = URL(fileURLWithPath: arguments.output)
    if (try? Data(contentsOf: url)) != data {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            fail("cannot write \(arguments.output): \(error)")
        }
    }
#else
    fail(
        "ConfigurationCatalogPlugin needs swift-syntax, which ServiceConfiguration builds only with its Macros "
            + "trait: depend on it with .package(..., traits: [.defaults, \"Macros\"])")
#endif
