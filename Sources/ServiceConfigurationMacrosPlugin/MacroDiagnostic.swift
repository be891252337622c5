#if Macros
    internal import SwiftDiagnostics

    /// A diagnostic of the configuration macros: what is wrong and what to write instead, at the line.
    struct MacroDiagnostic: DiagnosticMessage, Error {
        let message: String
        let id: String
        let severity: DiagnosticSeverity

        init(_ id: String, _ message: String, severity: DiagnosticSeverity = .error) {
            self.id = id
            self.message = message
            self.severity = severity
        }

        var diagnosticID: MessageID { MessageID(domain: "ServiceConfigurationMacros", id: id) }
    }

    /// A note beside a diagnostic: where the other half of a conflict is.
    struct MacroNote: NoteMessage {
        let message: String
        let id: String

        init(_ id: String, _ message: String) {
            self.id = id
            self.message = message
        }

        var noteID: MessageID { MessageID(domain: "ServiceConfigurationMacros", id: id) }
    }

    /// The label of a fix-it the macros offer.
    struct MacroFixIt: FixItMessage {
        let message: String
        let id: String

        init(_ id: String, _ message: String) {
            self.id = id
            self.message = message
        }

        var fixItID: MessageID { MessageID(domain: "ServiceConfigurationMacros", id: id) }
    }
#endif
