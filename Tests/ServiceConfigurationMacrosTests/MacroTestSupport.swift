#if Macros
    import SwiftSyntaxMacroExpansion
    import SwiftSyntaxMacrosGenericTestSupport
    import Testing

    @testable import ServiceConfigurationMacrosPlugin

    /// The macros as the compiler sees them, by attribute name.
    let macroSpecs: [String: MacroSpec] = [
        "ConfigurationScope": MacroSpec(type: ConfigurationScopeMacro.self, conformances: ["ConfigurationScope"]),
        "ConfigurationKey": MacroSpec(type: ConfigurationKeyMacro.self),
        "Routes": MacroSpec(type: RoutesMacro.self),
    ]

    /// `assertMacroExpansion` reporting through Swift Testing: the expansion of `source` must be `expanded`, with
    /// exactly `diagnostics`; with `fixedSource`, applying every fix-it to `source` must give it.
    func expectExpansion(
        _ source: String,
        expanded: String,
        diagnostics: [DiagnosticSpec] = [],
        fixedSource: String? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(
            source,
            expandedSource: expanded,
            diagnostics: diagnostics,
            macroSpecs: macroSpecs,
            applyFixIts: nil,
            fixedSource: fixedSource,
            failureHandler: { failure in
                Issue.record("\(failure.message)", sourceLocation: sourceLocation)
            },
            fileID: "", filePath: "", line: 0, column: 0)
    }

    /// The diagnostics of `source`, exactly, and with `fixedSource` what applying every first fix-it gives; the
    /// expansion is not compared (the tests of expansions do that).
    func expectDiagnostics(
        _ source: String,
        _ diagnostics: [DiagnosticSpec],
        fixedSource: String? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(
            source, expandedSource: "", diagnostics: diagnostics, macroSpecs: macroSpecs, fixedSource: fixedSource,
            failureHandler: { failure in
                guard !failure.message.hasPrefix("Macro expansion did not produce the expected expanded source") else {
                    return
                }
                Issue.record("\(failure.message)", sourceLocation: sourceLocation)
            },
            fileID: "", filePath: "", line: 0, column: 0)
    }

    /// An error the macros report, at a line and column of the test source.
    func error(
        _ message: String, line: Int, column: Int, fixIts: [String] = [], notes: [NoteSpec] = []
    ) -> DiagnosticSpec {
        DiagnosticSpec(
            message: message, line: line, column: column, severity: .error, notes: notes,
            fixIts: fixIts.map { FixItSpec(message: $0) })
    }
#endif
