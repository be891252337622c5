#if Macros
    import SwiftSyntaxMacrosGenericTestSupport
    import Testing

    /// What `@ConfigurationKey` says at the line when it cannot make a key of a declaration, and the fix-its.
    @Suite("@ConfigurationKey diagnostics")
    struct KeyMacroDiagnosticsTests {
        @Test("an instance 'var' or 'let' becomes a 'static let'")
        func instanceProperty() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.limit") public var sLimit = 50
                    @ConfigurationKey("s.flag") let sFlag: Bool = false
                }
                """,
                [
                    error(
                        "a key is declared 'static let sLimit = <default>': the macro adds the property 'sLimit' that "
                            + "'service.sLimit' reads", line: 2, column: 41, fixIts: ["make it 'static let'"]),
                    error(
                        "a key is declared 'static let sFlag = <default>': the macro adds the property 'sFlag' that "
                            + "'service.sFlag' reads", line: 3, column: 33, fixIts: ["make it 'static let'"]),
                ],
                fixedSource: """
                    @ConfigurationScope struct S {
                        @ConfigurationKey("s.limit") public static let sLimit = 50
                        @ConfigurationKey("s.flag") static let sFlag: Bool = false
                    }
                    """)
        }

        @Test("a 'static var' becomes a 'static let'")
        func staticVar() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.limit") static var sLimit = 50
                }
                """,
                [
                    error(
                        "a key's default cannot change: declare it 'static let', not 'static var'", line: 2, column: 41,
                        fixIts: ["make it 'static let'"])
                ],
                fixedSource: """
                    @ConfigurationScope struct S {
                        @ConfigurationKey("s.limit") static let sLimit = 50
                    }
                    """)
        }

        @Test("a computed property: its one expression becomes the stored default")
        func computedProperty() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.limit") var sLimit: Int { 50 }
                    @ConfigurationKey("s.other") static var sOther: Int { get { return 7 } }
                    @ConfigurationKey("s.busy") static var sBusy: Int { print("x"); return 7 }
                }
                """,
                [
                    error(
                        "a key's default is a stored value, not a computed property: write 'static let sLimit = "
                            + "<default>'", line: 2, column: 38, fixIts: ["store the value as 'static let sLimit = …'"]),
                    error(
                        "a key's default is a stored value, not a computed property: write 'static let sOther = "
                            + "<default>'", line: 3, column: 45, fixIts: ["store the value as 'static let sOther = …'"]),
                    error(
                        "a key's default is a stored value, not a computed property: write 'static let sBusy = "
                            + "<default>'", line: 4, column: 44),
                ],
                fixedSource: """
                    @ConfigurationScope struct S {
                        @ConfigurationKey("s.limit") static let sLimit: Int = 50
                        @ConfigurationKey("s.other") static let sOther: Int = 7
                        @ConfigurationKey("s.busy") static var sBusy: Int { print("x"); return 7 }
                    }
                    """)
        }

        @Test("no default: a placeholder to fill in")
        func noDefault() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.limit") static let sLimit: Int
                }
                """,
                [
                    error(
                        "a key needs its default value: 'static let sLimit = <default>'", line: 2, column: 45,
                        fixIts: ["add a default value"])
                ],
                fixedSource: """
                    @ConfigurationScope struct S {
                        @ConfigurationKey("s.limit") static let sLimit: Int = <#default#>
                    }
                    """)
        }

        @Test("one key per declaration; not a property; not a plain name")
        func shapes() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.ab") static let sA = 1, sB = 2
                    @ConfigurationKey("s.f") static func sF() -> Int { 1 }
                    @ConfigurationKey("s.t") static let (sX, sY) = (1, 2)
                }
                """,
                [
                    // swift-syntax refuses it before the macro runs (the compiler says the same).
                    error("peer macro can only be applied to a single variable", line: 2, column: 5),
                    error(
                        "@ConfigurationKey declares a key on a 'static let' holding its default, such as "
                            + "'@ConfigurationKey(\"checkout.cart.max_items\") static let checkoutMaxCartItems = 50'",
                        line: 3, column: 5),
                    error("a key is one named 'static let', not a pattern", line: 4, column: 41),
                ])
        }

        @Test("wire names: a plain literal, not empty, no spaces or control characters, within the store's limit")
        func wireNames() {
            let long = String(repeating: "a", count: 1025)
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey(name) static let sA = 1
                    @ConfigurationKey("s.\\(n)") static let sB = 1
                    @ConfigurationKey("") static let sC = 1
                    @ConfigurationKey(" s.d ") static let sD = 1
                    @ConfigurationKey("s e") static let sE = 1
                    @ConfigurationKey("s\\u{7}f") static let sF = 1
                    @ConfigurationKey("\(long)") static let sG = 1
                }
                """,
                [
                    error(
                        "the wire name must be a string literal without interpolation, so that the macro can check it "
                            + "and compare it with the scope's other keys", line: 2, column: 23),
                    error(
                        "the wire name must be a string literal without interpolation, so that the macro can check it "
                            + "and compare it with the scope's other keys", line: 3, column: 23),
                    error("the wire name is empty", line: 4, column: 23),
                    error(
                        "the wire name \" s.d \" contains a space: a wire name has no spaces or control characters",
                        line: 5, column: 23, fixIts: ["remove the spaces around the wire name"]),
                    error(
                        "the wire name \"s e\" contains a space: a wire name has no spaces or control characters",
                        line: 6, column: 23),
                    error(
                        "the wire name \"s\\u{7}f\" contains the character U+0007: a wire name has no spaces or control "
                            + "characters", line: 7, column: 23),
                    error(
                        "the wire name is 1025 bytes long; the override store keeps names of at most 1024 bytes",
                        line: 8, column: 23),
                ],
                fixedSource: """
                    @ConfigurationScope struct S {
                        @ConfigurationKey(name) static let sA = 1
                        @ConfigurationKey("s.\\(n)") static let sB = 1
                        @ConfigurationKey("") static let sC = 1
                        @ConfigurationKey("s.d") static let sD = 1
                        @ConfigurationKey("s e") static let sE = 1
                        @ConfigurationKey("s\\u{7}f") static let sF = 1
                        @ConfigurationKey("\(long)") static let sG = 1
                    }
                    """)
        }

        @Test("defaults the number codec cannot carry")
        func nonFiniteDefaults() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.a") static let sA = Double.nan
                    @ConfigurationKey("s.b") static let sB: Float = -.infinity
                    @ConfigurationKey("s.c") static let sC = Measure.nan
                }
                """,
                [
                    error(
                        "the default 'Double.nan' has no wire form: a number travels as a finite decimal, so the "
                            + "catalog would refuse this key", line: 2, column: 46),
                    error(
                        "the default '-.infinity' has no wire form: a number travels as a finite decimal, so the "
                            + "catalog would refuse this key", line: 3, column: 53),
                ])
        }

        @Test("a Bool encoding on a key that is not Bool, or with one string for both values")
        func boolEncodings() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.a", summary: "A.", boolEncoding: .trueFalse) static let sA = 3
                    @ConfigurationKey("s.b", boolEncoding: ConfigurationBoolEncoding(true: "x", false: "x"))
                    static let sB = true
                    @ConfigurationKey("s.c", boolEncoding: .oneZero) static let sC: Bool = false
                }
                """,
                [
                    error(
                        "boolEncoding applies only to Bool keys; this key's default is an integer", line: 2, column: 59,
                        fixIts: ["remove boolEncoding"]),
                    error(
                        "this Bool encoding uses \"x\" for both true and false, so a value could not be told apart",
                        line: 3, column: 44),
                ],
                fixedSource: """
                    @ConfigurationScope struct S {
                        @ConfigurationKey("s.a", summary: "A.") static let sA = 3
                        @ConfigurationKey("s.b", boolEncoding: ConfigurationBoolEncoding(true: "x", false: "x"))
                        static let sB = true
                        @ConfigurationKey("s.c", boolEncoding: .oneZero) static let sC: Bool = false
                    }
                    """)
        }

        @Test("bounds: reversed, a default outside them, a floating-point range without a step, a step of zero")
        func ranges() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.a", range: 10...1) static let sA = 5
                    @ConfigurationKey("s.b", range: 1...500) static let sB = 600
                    @ConfigurationKey("s.c", range: 0...0.5) static let sC = 0.1
                    @ConfigurationKey("s.d", range: 1...9, step: 0) static let sD = 2
                    @ConfigurationKey("s.e", range: -5...5) static let sE = -6
                    @ConfigurationKey("s.f", range: 1...2) static let sF = "x"
                    @ConfigurationKey("s.g", range: 0...1, step: 0.25) static let sG = 0.5
                }
                """,
                [
                    error("the range's lower bound 10 is above its upper bound 1", line: 2, column: 37),
                    error(
                        "the default 600 is outside the key's range 1...500: the catalog would refuse this key",
                        line: 3, column: 62),
                    error(
                        "a floating-point range needs a step for the menu's + and -: add 'step:'", line: 4, column: 37,
                        fixIts: ["add a step"]),
                    error("the step 0 must be above zero", line: 5, column: 50),
                    error(
                        "the default -6 is outside the key's range -5...5: the catalog would refuse this key", line: 6,
                        column: 61),
                    error("range applies to number keys; this key's default is a String", line: 7, column: 37),
                ],
                fixedSource: """
                    @ConfigurationScope struct S {
                        @ConfigurationKey("s.a", range: 10...1) static let sA = 5
                        @ConfigurationKey("s.b", range: 1...500) static let sB = 600
                        @ConfigurationKey("s.c", range: 0...0.5, step: <#step#>) static let sC = 0.1
                        @ConfigurationKey("s.d", range: 1...9, step: 0) static let sD = 2
                        @ConfigurationKey("s.e", range: -5...5) static let sE = -6
                        @ConfigurationKey("s.f", range: 1...2) static let sF = "x"
                        @ConfigurationKey("s.g", range: 0...1, step: 0.25) static let sG = 0.5
                    }
                    """)
        }

        @Test("a key outside a scope's body")
        func outsideAScope() {
            expectDiagnostics(
                """
                @ConfigurationKey("top.level") let topLevel = 1
                struct Plain {
                    @ConfigurationKey("plain.a") static let plainA = 1
                }
                extension Plain {
                    @ConfigurationKey("plain.b") static let plainB = 1
                }
                enum E {
                    @ConfigurationKey("e.a") static let eA = 1
                }
                struct Declared: ConfigurationScope {
                    @ConfigurationKey("declared.a") static let declaredA = 1
                }
                @ConfigurationScope enum Search {
                    @ConfigurationKey("search.a") static let searchA = 1
                }
                """,
                [
                    error(
                        "a key is declared 'static let topLevel = <default>': the macro adds the property 'topLevel' "
                            + "that 'service.topLevel' reads", line: 1, column: 32, fixIts: ["make it 'static let'"]),
                    error(
                        "a key is declared in the body of a @ConfigurationScope struct; mark 'Plain' "
                            + "@ConfigurationScope", line: 3, column: 5),
                    error(
                        "declare keys in the scope's own body, not in an extension: a key is a stored property of the "
                            + "scope, which an extension cannot add, and the scope lists the keys of its body", line: 6,
                        column: 5),
                    error(
                        "a key is declared in the body of a @ConfigurationScope struct (a scope is a struct: its keys are "
                            + "stored properties)", line: 9, column: 5),
                    error(
                        "'Search' is an enum, and a configuration scope is a struct (its keys are stored properties): "
                            + "make 'Search' a struct", line: 15, column: 5),
                    error(
                        "a configuration scope is a struct: its keys are stored properties, which an enum cannot hold",
                        line: 14, column: 21, fixIts: ["make it a struct"]),
                ])
        }
    }
#endif
