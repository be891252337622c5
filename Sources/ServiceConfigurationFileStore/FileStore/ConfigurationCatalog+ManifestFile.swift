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
        if selection == nil, let catalog = try Self.readReleasing(url) {
            self = catalog
            return
        }
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

    /// The whole manifest of a regular file read into memory that the reader gives back page by page as it goes
    /// (``ManifestBuffer``): a million keys' manifest is 177 MB, and holding it whole while the descriptors were made
    /// raised the menu's peak memory by as much. `nil` when the file is not read that way (a stream, a file past the
    /// limit or growing while read, an error, no memory, or a document the fast reader does not take): the caller
    /// reads it again into an array, and says what is wrong if anything is.
    private static func readReleasing(_ url: URL) throws(ConfigurationManifestError) -> ConfigurationCatalog? {
        // Only a regular file: opening a named pipe here and leaving it to the caller would cost its writer.
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let options = BoundedFileReader.Options(limit: ConfigurationManifest.sizeLimit, readsStreams: true)
        guard let file = try? BoundedFileReader.open(url.path, options), file.isRegularFile else { return nil }
        let size = Int(file.info.st_size)
        guard size <= options.limit else { return nil }
        // One byte more than the file holds, so that a file that grew is seen.
        guard
            let buffer = try? ManifestBuffer(
                capacity: size + 1, fill: { bytes throws(BoundedFileReader.Failure) in try file.read(into: bytes) }),
            buffer.count <= size
        else { return nil }
        return try ConfigurationCatalog(manifestBuffer: buffer, source: url)
    }
}
