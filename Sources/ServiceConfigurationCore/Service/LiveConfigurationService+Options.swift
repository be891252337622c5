public import Foundation

extension LiveConfigurationService {
    /// How a ``LiveConfigurationService`` records reads, reports warnings and publishes its program report.
    ///
    /// ```swift
    /// var options = LiveConfigurationService.Options()
    /// options.onWarning = { warning in logger.warning("\(warning.description)") }
    /// options.programName = "MyApp"
    /// let service = LiveConfigurationService(catalog: catalog, overrideStore: store, options: options)
    /// ```
    public struct Options: Sendable {
        /// Whether the service records, per key, when it was first read in this run and whether the current value
        /// was read (see ``LiveConfigurationService/readCoverage()``). On by default: recording happens only on the
        /// slow path a read takes anyway (the first read of a key after start or after a change), so a warm read
        /// costs the same either way (`config-benchmarks reads` measures both). Keys read but missing from the
        /// catalog are detected either way.
        public var recordsReads: Bool
        /// Receives each ``ConfigurationWarning`` once, outside the service's locks, on the thread that caused it.
        /// By default warnings go to standard error; pass your logger, or `nil` to drop them.
        public var onWarning: (@Sendable (ConfigurationWarning) -> Void)?
        /// The name the program report gives this program; by default the process name.
        public var programName: String
        /// Whether a service with an override store publishes its program report beside the store (see
        /// ``LiveConfigurationService/programReportURL``). On by default; a service without a store never publishes.
        public var publishesProgramReport: Bool
        /// Overrides for this run only, applied before the first read and never written to the store: read them from
        /// the launch arguments and environment with
        /// ``ConfigurationLaunchOverrides/init(arguments:environment:)``. They win over stored overrides (launch >
        /// overridden > server > default); ones the catalog refuses are reported, not applied (see
        /// ``LiveConfigurationService/launchOverrideProblems``). None by default.
        public var launchOverrides: ConfigurationLaunchOverrides
        /// The shortest time between two writes of the program report.
        package var programReportInterval: Duration = .seconds(1)
        /// Where a report file is continued by a reads log (a store file's): the longest the report itself goes
        /// without the reads its log holds before a scheduled write writes it whole again.
        package var programReportLongestLogAge: Duration = .seconds(60)
        /// How many finished reports of this program (ended or stale) a new service keeps in the programs folder.
        package var keptFinishedReports = 5
        /// Where reports expire on their own (an etcd store's, on a lease kept alive while the program runs): how long
        /// the report of a program that stopped without ending it (killed, frozen, cut off) stays.
        package var programReportLifetime: Duration = .seconds(30)
        /// Where reports expire on their own: how long an ended report stays, for the tools to show the last run.
        package var endedProgramReportLifetime: Duration = .seconds(600)

        /// Creates options; every parameter has the default described on its property.
        public init(
            recordsReads: Bool = true,
            onWarning: (@Sendable (ConfigurationWarning) -> Void)? = ConfigurationWarning.printToStandardError,
            programName: String = ProcessInfo.processInfo.processName,
            publishesProgramReport: Bool = true,
            launchOverrides: ConfigurationLaunchOverrides = ConfigurationLaunchOverrides()
        ) {
            self.launchOverrides = launchOverrides
            self.recordsReads = recordsReads
            self.onWarning = onWarning
            self.programName = programName
            self.publishesProgramReport = publishesProgramReport
        }
    }
}
