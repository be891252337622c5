#if Macros
    import SwiftSyntaxMacrosGenericTestSupport
    import Testing

    /// What `@ConfigurationScope` and `@Routes` say at the line.
    @Suite("@ConfigurationScope and @Routes diagnostics")
    struct ScopeMacroDiagnosticsTests {
        @Test(
            "two keys of a scope with one wire name, the first one noted; keys in two clauses of one #if may share it")
        func duplicateWireNames() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.limit") static let sLimit = 1
                    @ConfigurationKey("s.other") static let sOther = 2
                    @ConfigurationKey("s.limit") static let sLimitAgain = 3
                    #if DEBUG
                        @ConfigurationKey("s.mode") static let sMode = 1
                    #else
                        @ConfigurationKey("s.mode") static let sModeRelease = 2
                        @ConfigurationKey("s.other") static let sOtherRelease = 2
                    #endif
                }
                """,
                [
                    error(
                        "the wire name \"s.limit\" is already the name of 'sLimit' in this scope; each key needs its own",
                        line: 4, column: 23,
                        notes: [NoteSpec(message: "'sLimit' uses it here", line: 2, column: 23)]),
                    error(
                        "the wire name \"s.other\" is already the name of 'sOther' in this scope; each key needs its own",
                        line: 9, column: 27,
                        notes: [NoteSpec(message: "'sOther' uses it here", line: 3, column: 23)]),
                ])
        }

        @Test("a scope is a struct")
        func notAStruct() {
            expectDiagnostics(
                """
                @ConfigurationScope public enum E {}
                @ConfigurationScope final class C {}
                @ConfigurationScope extension E {}
                """,
                [
                    error(
                        "a configuration scope is a struct: its keys are stored properties, which an enum cannot hold",
                        line: 1, column: 28, fixIts: ["make it a struct"]),
                    error(
                        "a configuration scope is a struct: its keys are stored properties, which a reference type "
                            + "here cannot hold", line: 2, column: 27, fixIts: ["make it a struct"]),
                    error(
                        "put @ConfigurationScope on the scope's struct declaration, whose body declares the keys",
                        line: 3, column: 1),
                ],
                fixedSource: """
                    @ConfigurationScope public struct E {}
                    @ConfigurationScope final struct C {}
                    @ConfigurationScope extension E {}
                    """)
        }

        @Test("@Routes: on ConfigurationDynamicLookup, with scope types, each once")
        func routes() {
            expectDiagnostics(
                """
                @Routes(Checkout.self) extension Other {}
                @Routes(checkout) extension ConfigurationDynamicLookup {}
                @Routes(Checkout.self, Checkout.self) extension ServiceConfiguration.ConfigurationDynamicLookup {}
                @Routes() extension ConfigurationDynamicLookup {}
                """,
                [
                    error(
                        "@Routes belongs on an empty extension of ConfigurationDynamicLookup: "
                            + "'@Routes(Checkout.self) extension ConfigurationDynamicLookup {}'", line: 1, column: 1),
                    error(
                        "name each scope as a type: '@Routes(ConfigurationScopes.Checkout.self)'", line: 2, column: 9),
                    error("Checkout is routed twice in this list", line: 3, column: 24),
                    error("name the scopes to route: '@Routes(ConfigurationScopes.Checkout.self)'", line: 4, column: 1),
                ])
        }
    }
#endif
