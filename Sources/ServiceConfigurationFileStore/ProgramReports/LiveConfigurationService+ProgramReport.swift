public import Foundation
public import ServiceConfigurationCore

/// The file store subscribes a program report publisher to each service built on it (when overrides apply in this
/// build and ``LiveConfigurationService/Options/publishesProgramReport`` is on): the service's read observer.
extension FileOverrideStore: ConfigurationReadObserverProvider {
    package func makeReadObserver(
        engine: ConfigurationEngine, options: LiveConfigurationService.Options, programVersion: ProgramVersion?
    ) -> (any ConfigurationReadObserver)? {
        guard engine.overridesEnabled, options.publishesProgramReport else { return nil }
        return ProgramReportPublisher(
            engine: engine, storeURL: url, programName: options.programName, programVersion: programVersion,
            interval: options.programReportInterval, longestLogAge: options.programReportLongestLogAge,
            keptFinishedReports: options.keptFinishedReports, onWarning: options.onWarning)
    }
}

extension ProgramReportPublisher: ProgramReportPublishing {}

/// A read observer that publishes a ``ProgramReport`` somewhere: beside a store file (``ProgramReportPublisher``) or
/// in etcd (the etcd store's publisher), so the service's report calls reach either.
package protocol ProgramReportPublishing: ConfigurationReadObserver {
    /// Publishes the whole report now if publishing started, whatever the schedule.
    func publishNow()
    /// How many times the report was published.
    var writeCount: Int { get }
}

extension LiveConfigurationService {
    /// The program report publisher its store subscribed, if any.
    private var publisher: (any ProgramReportPublishing)? { readObserver as? any ProgramReportPublishing }

    /// The file this service publishes its program report to, or `nil` when it publishes none (no override store,
    /// or ``Options/publishesProgramReport`` off).
    ///
    /// The report (a `ProgramReport`: program name, pid, start time, keys read, unregistered keys, rejected
    /// overrides) is written to `<store folder>/programs/<program>-<pid>-<instance>.json` from the first read on, at
    /// most once a second, atomically, with mode 0600. The debug menu and `config-menu coverage` read it.
    public var programReportURL: URL? { (readObserver as? ProgramReportPublisher)?.fileURL }

    /// Writes the final program report, marked as ended, and stops publishing; the service's deinit does the same.
    /// On an etcd store the report is in etcd (see `EtcdOverrideStore`), kept a while after it ended.
    ///
    /// Programs usually keep their service until they exit, so its deinit never runs: call this on a clean exit
    /// (for example in `applicationWillTerminate`) so the tools tell a program that ended from one that crashed.
    public func endProgramReport() { publisher?.end() }

    /// Writes the program report now (if publishing started), whatever the once-a-second schedule.
    package func publishProgramReportNow() { publisher?.publishNow() }

    /// How many times the program report was written.
    package var programReportWriteCount: Int { publisher?.writeCount ?? 0 }
}
