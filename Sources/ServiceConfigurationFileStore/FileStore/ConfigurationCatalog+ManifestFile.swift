public import Foundation
public import ServiceConfigurationCore
import ServiceConfigurationFiles

// Reading a manifest from a file lives with the file store: the core reads a manifest from `Data` only
// (``ConfigurationCatalog/init(manifest:source:)``) and touches no file system.
extension ConfigurationCatalog {
    /// Reads a manifest file; errors name the file and the place in it.
    public init(manifestAt url: URL) throws(ConfigurationManifestError) {
        let data: Data
        do {
            data = try BoundedFileReader.read(url, limit: ConfigurationManifest.sizeLimit)
        } catch {
            switch error {
            case .unreadable(let reason):
                throw ConfigurationManifestError(url: url, problem: "cannot read the file (\(reason))")
            case .tooLarge(let limit):
                throw ConfigurationManifestError(
                    url: url, problem: "larger than \(limit >> 20) MiB; this is not a catalog manifest")
            }
        }
        try self.init(manifest: data, source: url)
    }
}
