import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading and writing the folder of scenarios: each `*.json` file in it is a profile (the store's format, or a
/// plain map of key names to wire strings).
enum ScenarioFolder {
    /// The most profiles listed.
    static let limit = 500

    /// The folder's profiles, by name; a missing folder has none.
    static func read(_ folder: URL?) -> ScenarioListing {
        guard let folder else {
            return ScenarioListing(folder: "(none)", scenarios: [], problem: "no scenarios folder")
        }
        let path = folder.path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            return ScenarioListing(
                folder: path, scenarios: [],
                problem: exists ? "cannot read the folder \(path)" : nil)
        }
        let files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().prefix(limit)
        let scenarios = files.map { name -> Scenario in
            let url = folder.appendingPathComponent(name)
            let title = String(name.dropLast(5))
            do throws(OverrideStoreError) {
                let (entries, _) = try FileOverrideStore.readProfile(url)
                return Scenario(name: title, path: url.path, entries: entries)
            } catch {
                return Scenario(name: title, path: url.path, entries: [:], problem: error.problem)
            }
        }
        return ScenarioListing(folder: path, scenarios: Array(scenarios))
    }

    /// Writes the store's overrides (only those of `keys`, when given) as `<folder>/<name>.json` (mode 0600; the
    /// folder is created with mode 0700); an existing file is never replaced.
    static func save(_ store: any OverrideStore, as name: String, keys: [String]? = nil, in folder: URL?) throws {
        guard let folder else {
            throw ConfigurationError.unsupported("no scenarios folder: start the menu with --profiles DIR")
        }
        if !FileManager.default.fileExists(atPath: folder.path), mkdir(folder.path, 0o700) != 0 {
            throw ConfigurationError.unsupported(
                "cannot create the folder \(folder.path): \(String(cString: strerror(errno)))")
        }
        let bytes: [UInt8]
        if let keys {
            let wanted = Set(keys)
            bytes = FileOverrideStore.profileBytes(store.entries.filter { wanted.contains($0.key) })
        } else {
            bytes =
                (store as? FileOverrideStore).flatMap { try? $0.exportedProfileBytes() }
                ?? FileOverrideStore.profileBytes(store.entries)
        }
        try FileOverrideStore.writeNewProfile(bytes, to: folder.appendingPathComponent(name + ".json"))
    }
}
