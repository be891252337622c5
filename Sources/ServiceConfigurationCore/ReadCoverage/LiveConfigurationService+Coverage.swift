extension LiveConfigurationService {
    /// Which keys this program read in this run and when, and which keys it read that are missing from the catalog.
    ///
    /// ```swift
    /// let coverage = service.readCoverage()
    /// print(coverage.reads.map(\.name))
    /// ```
    ///
    /// Reads are recorded unless ``Options/recordsReads`` is off; see ``ConfigurationReadCoverage`` for what counts
    /// as a read.
    public func readCoverage() -> ConfigurationReadCoverage { engine.readCoverage() }

    /// The overrides this program's own `decode` refuses (so it uses the server value or the default instead), for
    /// keys in its catalog or used by type; sorted by key name.
    public func rejectedOverrides() -> [ConfigurationRejectedOverride] { engine.rejectedOverrides() }
}
