import Foundation

/// Something a program should know about its configuration that is not an error of any one call: a key read but
/// never registered, an override the program refuses, a program report that cannot be written.
///
/// A ``LiveConfigurationService`` hands each warning once to its ``LiveConfigurationService/Options/onWarning``
/// hook, outside its locks, on the thread that caused it; route it to your logger:
///
/// ```swift
/// var options = LiveConfigurationService.Options()
/// options.onWarning = { warning in logger.warning("\(warning.description)") }
/// let service = LiveConfigurationService(catalog: catalog, overrideStore: store, options: options)
/// ```
public enum ConfigurationWarning: Sendable, Hashable, CustomStringConvertible {
    /// A key was read whose scope is not in the service's catalog: QA cannot see or override it.
    case unregisteredKey(UnregisteredConfigurationKey)
    /// An override the program's own `decode` refuses; the program uses the next source instead.
    case rejectedOverride(ConfigurationRejectedOverride)
    /// A launch override (see ``ConfigurationLaunchOverrides``) was not applied: an unknown key, a value its key
    /// refuses, a scenario that cannot be read, or overrides off in this build.
    case launchOverrideNotApplied(ConfigurationLaunchOverrideProblem)
    /// The program report (see ``LiveConfigurationService/programReportURL``) could not be written; `reason` says
    /// why. Reported again only when the reason changes.
    case programReportNotWritten(path: String, reason: String)

    /// The message for a person: what happened, which key or file, and what to do.
    public var description: String {
        switch self {
        case .unregisteredKey(let key):
            return key.description
        case .rejectedOverride(let rejection):
            return rejection.description
        case .launchOverrideNotApplied(let problem):
            return problem.description
        case .programReportNotWritten(let path, let reason):
            let fix =
                path.lowercased().hasPrefix("etcd")
                ? "check that etcd answers and lets this program write beside the store's prefix"
                : "make the override store's folder writable by this program"
            return "cannot write the program report \(VisibleText.escaped(path)): \(VisibleText.escaped(reason)); "
                + "the debug tools will not see what this program read. Fix: \(fix), or turn off "
                + "Options.publishesProgramReport"
        }
    }

    /// Writes the warning to standard error as one line: the default hook.
    public static let printToStandardError: @Sendable (ConfigurationWarning) -> Void = { warning in
        FileHandle.standardError.write(Data("ServiceConfiguration warning: \(warning)\n".utf8))
    }
}
