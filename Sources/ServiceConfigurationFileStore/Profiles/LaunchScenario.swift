public import Foundation
public import ServiceConfigurationCore

/// Saved scenarios as launch overrides: `CONFIG_SCENARIO=name` names `scenarios/name.json` beside the store file,
/// the folder the debug menu lists (`s`) and saves scenarios into.
extension FileOverrideStore: LaunchScenarioSource {
    /// The folder of saved scenarios: `scenarios` beside the store file. Each `NAME.json` in it is a profile (the
    /// store's format, or a plain JSON object of key names to wire strings).
    public var scenariosFolder: URL {
        url.deletingLastPathComponent().appendingPathComponent("scenarios", isDirectory: true)
    }

    /// `overrides` with the values of the scenario its `CONFIG_SCENARIO` names read from ``scenariosFolder``, under
    /// its `-configOverride` and `CONFIG_OVERRIDES_JSON` values; `overrides` itself when it names none.
    ///
    /// ```swift
    /// var launch = try ConfigurationLaunchOverrides(arguments: CommandLine.arguments, environment: environment)
    /// launch = try store.resolvingLaunchScenario(launch)   // stops here when the scenario is missing
    /// ```
    ///
    /// A service given unresolved launch overrides resolves them itself and reports a problem as a
    /// ``ConfigurationWarning``; resolve them first to stop at a missing scenario instead. Throws an error naming
    /// `CONFIG_SCENARIO` and the file when the scenario does not exist (listing the ones that do), cannot be read,
    /// or holds an entry that cannot be used.
    public func resolvingLaunchScenario(
        _ overrides: ConfigurationLaunchOverrides
    ) throws(ConfigurationLaunchOverrideError) -> ConfigurationLaunchOverrides {
        guard let name = overrides.scenario, !overrides.isScenarioResolved else { return overrides }
        let argument = "\(ConfigurationLaunchOverrides.scenarioVariable)=\(name)"
        let file = scenariosFolder.appendingPathComponent(name + ".json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: scenariosFolder.path)) ?? [])
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
            let known =
                names.isEmpty
                ? "it has none (save one in the debug menu's scenarios view, s)"
                : "it has " + names.map { VisibleText.escaped($0) }.joined(separator: ", ")
            throw ConfigurationLaunchOverrideError(
                argument: argument,
                problem:
                    "no scenario \"\(VisibleText.escaped(name))\" in \(VisibleText.escaped(scenariosFolder.path)); "
                    + known)
        }
        let entries: [String: OverrideEntry]
        do throws(OverrideStoreError) {
            let (read, problems) = try FileOverrideStore.readProfile(file)
            if let problem = problems.first {
                throw OverrideStoreError(
                    url: file, kind: .corrupt,
                    problem: "the entry \(VisibleText.escaped(problem.key)) cannot be used: \(problem.reason)")
            }
            entries = read
        } catch {
            throw ConfigurationLaunchOverrideError(argument: argument, problem: error.description)
        }
        return overrides.resolvingScenario(with: entries.mapValues(\.value))
    }
}
