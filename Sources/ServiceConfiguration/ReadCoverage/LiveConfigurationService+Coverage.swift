public import Foundation

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

    /// The file this service publishes its program report to, or `nil` when it publishes none (no override store,
    /// or ``Options/publishesProgramReport`` off).
    ///
    /// The report (a `ProgramReport`: program name, pid, start time, keys read, unregistered keys, rejected
    /// overrides) is written to `<store folder>/programs/<program>-<pid>-<instance>.json` from the first read on, at
    /// most once a second, atomically, with mode 0600. The debug menu and `config-menu coverage` read it.
    public var programReportURL: URL? { publisher?.fileURL }

    /// Writes the final program report, marked as ended, and stops publishing; the service's deinit does the same.
    ///
    /// Programs usually keep their service until they exit, so its deinit never runs: call this on a clean exit
    /// (for example in `applicationWillTerminate`) so the tools tell a program that ended from one that crashed.
    public func endProgramReport() { publisher?.end() }

    /// Writes the program report now (if publishing started), whatever the once-a-second schedule.
    package func publishProgramReportNow() { publisher?.publishNow() }

    /// How many times the program report was written.
    package var programReportWriteCount: Int { publisher?.writeCount ?? 0 }
}
