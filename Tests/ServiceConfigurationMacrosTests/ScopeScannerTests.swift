#if Macros
    import ConfigurationScopeScanner
    import Testing

    /// The scanner behind ConfigurationCatalogPlugin: which declarations are scopes, their names, access and `#if`
    /// conditions, and the file the generator writes from them.
    @Suite struct ScopeScannerTests {
        func scan(_ source: String, module: String = "Checkout", file: String = "/src/Checkout.swift") -> FileScan {
            ScopeScanner.scan(source: source, file: file, module: module)
        }

        func names(_ scan: FileScan) -> [String] { scan.scopes.map(\.qualifiedName) }

        @Test func handWrittenAndMacroScopesInExtensionsOfTheNamespace() {
            let found = scan(
                """
                import ServiceConfiguration

                extension ConfigurationScopes {
                    /// The checkout module's keys.
                    public struct Checkout: ConfigurationScope {
                        public let maxItems: MaxItemsKey
                    }

                    @ConfigurationScope
                    public struct Express {
                        @ConfigurationKey("checkout.express") public static let express = false
                    }

                    @ServiceConfigurationMacros.ConfigurationScope struct Internal {}
                }
                """)
            #expect(
                names(found) == [
                    "ConfigurationScopes.Checkout", "ConfigurationScopes.Express", "ConfigurationScopes.Internal",
                ])
            #expect(found.scopes.map(\.form) == [.conformance, .macro, .macro])
            #expect(found.scopes.map(\.access) == [.public, .public, .internal])
            #expect(found.scopes.map(\.line) == [5, 9, 14])
            #expect(found.scopes.allSatisfy { $0.conditions.isEmpty && $0.unlistableReason == nil })
            #expect(!found.hasSyntaxErrors)
        }

        @Test func nestedTypesAndExtensionsGiveTheQualifiedNameAndCapTheAccess() {
            let found = scan(
                """
                public enum Features {
                    public enum Payments {
                        public struct Scope: ServiceConfigurationCore.ConfigurationScope {}
                    }
                    enum Hidden {
                        public struct Scope: ConfigurationScope {}
                    }
                }
                public extension ConfigurationScopes {
                    struct DefaultsToPublic: ConfigurationScope {}
                }
                internal extension ConfigurationScopes {
                    public struct CappedInternal: ConfigurationScope {}
                }
                extension Features.Payments {
                    public struct Extended: ConfigurationScope & Sendable {}
                }
                """)
            #expect(
                names(found) == [
                    "Features.Payments.Scope", "Features.Hidden.Scope", "ConfigurationScopes.DefaultsToPublic",
                    "ConfigurationScopes.CappedInternal", "Features.Payments.Extended",
                ])
            #expect(found.scopes.map(\.access) == [.public, .internal, .public, .internal, .public])
            #expect(found.scopes.last?.extendedTypes == ["Features.Payments"])
        }

        @Test func anExtensionAddingTheConformanceIsAScope() {
            let found = scan(
                """
                struct Legacy {}
                extension Legacy: ConfigurationScope {}
                extension Outside: @retroactive ServiceConfiguration.ConfigurationScope {}
                extension Box<Int>: ConfigurationScope {}
                """)
            #expect(names(found) == ["Legacy", "Outside", "Box<Int>"])
            #expect(found.scopes.map(\.form) == [.extensionConformance, .extensionConformance, .extensionConformance])
            #expect(found.scopes.map { $0.unlistableReason == nil } == [true, true, false])
        }

        @Test func ifConfigClausesCarryTheirConditionsAndUnknownFlagsMakeAScopeUnlistable() {
            let found = scan(
                """
                #if os(Linux)
                    public struct LinuxOnly: ConfigurationScope {}
                #elseif canImport(UIKit) && DEBUG
                    public struct UIKitDebug: ConfigurationScope {}
                #else
                    public struct Elsewhere: ConfigurationScope {}
                #endif
                public enum Outer {
                    #if QA
                        public struct QAOnly: ConfigurationScope {}
                    #else
                        public struct NotQA: ConfigurationScope {}
                    #endif
                }
                """)
            #expect(names(found) == ["LinuxOnly", "UIKitDebug", "Elsewhere", "Outer.QAOnly", "Outer.NotQA"])
            #expect(
                found.scopes.map(\.conditions) == [
                    ["(os(Linux))"], ["!(os(Linux)) && (canImport(UIKit) && DEBUG)"],
                    ["!(os(Linux)) && !(canImport(UIKit) && DEBUG)"], ["(QA)"], ["!(QA)"],
                ])
            #expect(found.scopes.map { $0.unlistableReason == nil } == [true, true, true, false, false])
            #expect(found.scopes[3].unlistableReason?.contains("`QA`") == true)
        }

        @Test func privateScopesAreFoundWithTheirAccess() {
            let found = scan(
                """
                private struct TopLevelPrivate: ConfigurationScope {}
                fileprivate struct FilePrivate: ConfigurationScope {}
                public enum Outer {
                    private struct NestedPrivate: ConfigurationScope {}
                }
                package struct PackageScope: ConfigurationScope {}
                """)
            #expect(found.scopes.map(\.access) == [.fileprivate, .fileprivate, .private, .package])
        }

        @Test func noiseIsNotAScope() {
            let found = scan(
                """
                // struct InAComment: ConfigurationScope {}
                let text = "struct InAString: ConfigurationScope {}"
                protocol Refining: ConfigurationScope {}
                let metatype: (any ConfigurationScope.Type)? = nil
                struct Unrelated: Equatable, ConfigurationScopeLike {}
                func make() {
                    struct InAFunction: ConfigurationScope {}
                }
                var computed: Int {
                    struct InAGetter: ConfigurationScope {}
                    return 1
                }
                @available(*, deprecated) public final class ClassScope: ConfigurationScope {}
                public enum EnumScope: ConfigurationScope {}
                public actor ActorScope: ConfigurationScope {}
                public struct Generic<T>: ConfigurationScope {}
                public struct Holder<T> {
                    public struct InGeneric: ConfigurationScope {}
                }
                typealias Alias = ConfigurationScope
                """)
            #expect(names(found) == ["ClassScope", "EnumScope", "ActorScope", "Generic", "Holder.InGeneric"])
            #expect(found.scopes.map { $0.unlistableReason == nil } == [true, true, true, false, false])
            #expect(found.types.map(\.qualifiedName).contains("Refining"))
        }

        @Test func aFileWithSyntaxErrorsIsScannedAsFarAsItParses() {
            let found = scan(
                """
                public struct Before: ConfigurationScope {}
                public struct Broken: ConfigurationScope {
                    let value =
                public struct After: ConfigurationScope {}
                """)
            #expect(found.hasSyntaxErrors)
            #expect(names(found).first == "Before")
            #expect(names(found).contains("Broken"))
        }

        // MARK: The generated file

        func module(_ name: String, _ relation: ModuleRelation, _ sources: [String: String]) -> ModuleScan {
            ModuleScan(
                name: name, relation: relation,
                files: ScopeScanner.scanModule(
                    files: sources.sorted { $0.key < $1.key }.map { ("/src/\(name)/\($0.key)", $0.value) },
                    module: name))
        }

        @Test func theGeneratorListsWhatTheTargetCanNameAndWarnsAboutTheRest() {
            let generated = CatalogGenerator.generate(
                target: "App",
                modules: [
                    module("App", .target, ["App.swift": "struct AppScope: ConfigurationScope {}\n"]),
                    module(
                        "Profile", .otherPackage,
                        [
                            "Profile.swift": """
                            extension ConfigurationScopes {
                                @ConfigurationScope public struct Profile {}
                                @ConfigurationScope struct Hidden {}
                            }
                            """
                        ]),
                    module(
                        "Checkout", .samePackage,
                        [
                            "Checkout.swift": """
                            extension ConfigurationScopes {
                                package struct Checkout: ConfigurationScope {}
                            }
                            extension Internal {
                                public struct Capped: ConfigurationScope {}
                            }
                            """,
                            "Types.swift": "enum Internal {}\n",
                        ]),
                ])
            #expect(
                generated.listed.map { "\($0.module):\($0.qualifiedName)" } == [
                    "App:AppScope", "Checkout:ConfigurationScopes.Checkout", "Profile:ConfigurationScopes.Profile",
                ])
            #expect(
                generated.warnings == [
                    "/src/Checkout/Checkout.swift:5: warning: configuration scope Internal.Capped (module Checkout) is "
                        + "not in App's LinkedConfigurationScopes: it is internal, and App can only name it if it is "
                        + "package",
                    "/src/Profile/Profile.swift:3: warning: configuration scope ConfigurationScopes.Hidden (module "
                        + "Profile) is not in App's LinkedConfigurationScopes: it is internal, and App can only name it "
                        + "if it is public",
                ])
            #expect(generated.source.contains("import Checkout\nimport Profile\nimport ServiceConfigurationCore\n"))
            #expect(!generated.source.contains("import App\n"))
            #expect(
                generated.source.contains(
                    "ConfigurationScopeDeclaration(ConfigurationScopes.Profile.self, module: \"Profile\", "
                        + "name: \"ConfigurationScopes.Profile\"),"))
            // The same input in another order gives the same bytes.
            let reordered = CatalogGenerator.generate(
                target: "App",
                modules: [
                    module("Profile", .otherPackage, ["Profile.swift": "@ConfigurationScope public struct Profile {}"]),
                    module("App", .target, ["App.swift": "struct AppScope: ConfigurationScope {}\n"]),
                ])
            let ordered = CatalogGenerator.generate(
                target: "App",
                modules: [
                    module("App", .target, ["App.swift": "struct AppScope: ConfigurationScope {}\n"]),
                    module("Profile", .otherPackage, ["Profile.swift": "@ConfigurationScope public struct Profile {}"]),
                ])
            #expect(reordered == ordered)
        }

        @Test func conditionalScopesAreListedUnderTheirConditionAndPrivateOnesNever() {
            let generated = CatalogGenerator.generate(
                target: "App",
                modules: [
                    module(
                        "App", .target,
                        [
                            "Scopes.swift": """
                            #if os(Linux)
                                struct LinuxScope: ConfigurationScope {}
                            #endif
                            struct Always: ConfigurationScope {}
                            private struct Secret: ConfigurationScope {}
                            """
                        ])
                ])
            #expect(generated.listed.map(\.qualifiedName) == ["Always", "LinuxScope"])
            #expect(
                generated.source.contains(
                    "static let declarations: [ConfigurationScopeDeclaration] = unconditional + conditional0"))
            #expect(
                generated.source.contains(
                    "        #if (os(Linux))\n            [\n                ConfigurationScopeDeclaration(LinuxScope.self"
                ))
            #expect(generated.warnings.count == 1)
            #expect(
                generated.warnings.first?.hasPrefix("/src/App/Scopes.swift:5: warning: configuration scope Secret")
                    == true)
            #expect(
                generated.warnings.first?.contains(
                    "it is fileprivate, and App can only name it if it is at least internal") == true)
        }

        @Test func aModuleScanParsesOnlyTheFilesThatCanMatter() {
            let files = [
                ("/src/A.swift", "extension Outer.Middle {\n    public struct Scope: ConfigurationScope {}\n}\n"),
                ("/src/B.swift", "extension Outer {\n    enum Middle {}\n}\n"),
                ("/src/C.swift", "public enum Outer {}\n"),
                ("/src/D.swift", "struct Unrelated {}\n"),
            ]
            let scans = ScopeScanner.scanModule(files: files, module: "M")
            // A names the protocol; B declares Middle, which A extends; C declares Outer, which B extends; not D.
            #expect(
                scans.map { $0.types.map(\.qualifiedName) } == [["Outer.Middle.Scope"], ["Outer.Middle"], ["Outer"]])
            let generated = CatalogGenerator.generate(
                target: "App", modules: [ModuleScan(name: "M", relation: .otherPackage, files: scans)])
            // Middle is internal (an extension member without a modifier), so the public scope in it is too.
            #expect(generated.listed.isEmpty)
            #expect(generated.warnings.first?.contains("Outer.Middle.Scope (module M)") == true)
            #expect(generated.warnings.first?.contains("it is internal") == true)
        }

        @Test func withoutTheCoreNothingIsListed() {
            let generated = CatalogGenerator.generate(
                target: "Tool", modules: [module("Tool", .target, ["main.swift": "struct S: ConfigurationScope {}"])],
                coreModule: nil)
            #expect(generated.listed.isEmpty)
            #expect(!generated.source.contains("import"))
        }
    }
#endif
