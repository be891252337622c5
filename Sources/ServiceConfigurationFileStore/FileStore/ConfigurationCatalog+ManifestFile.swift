public import Foundation
public import ServiceConfigurationCore
import ServiceConfigurationFiles

// Reading a manifest from a file lives with the file store: the core reads a manifest from `Data` only
// (``ConfigurationCatalog/init(manifest:source:)``) and touches no file system.
extension ConfigurationCatalog {
    /// Reads a manifest file; errors name the file and the place in it.
    public init(manifestAt url: URL) throws(ConfigurationManifestError) {
        try self.init(manifestAt: url, selecting: nil)
    }

    /// Reads a manifest file, only the part `selection` names when it can
    /// (``ConfigurationCatalog/init(manifestBytes:selecting:)``), else the whole.
    package init(manifestAt url: URL, selecting selection: ManifestSelection?) throws(ConfigurationManifestError) {
        let bytes: [UInt8]
        let limit = ConfigurationManifest.sizeLimit
        do throws(BoundedFileReader.Failure) {
            bytes = try BoundedFileReader.read(url.path, .init(limit: limit, readsStreams: true)) ?? []
        } catch {
            guard case .tooLarge = error.reason else {
                throw ConfigurationManifestError(url: url, problem: "cannot read the file (\(error.problem))")
            }
            let size = limit % (1 << 30) == 0 ? "\(limit >> 30) GiB" : "\(limit >> 20) MiB"
            throw ConfigurationManifestError(url: url, problem: "larger than \(size); this is not a catalog manifest")
        }
        if let selection, let selected = ConfigurationCatalog(manifestBytes: bytes, selecting: selection) {
            self = selected
        } else {
            try self.init(manifestBytes: bytes, source: url)
        }
    }
}
