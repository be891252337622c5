/// Why a file in the programs folder is not a program report this build can read.
package struct ProgramReportFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for example `missing "pid"`.
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
