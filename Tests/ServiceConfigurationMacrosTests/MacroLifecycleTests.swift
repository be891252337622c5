#if Macros
    import SwiftSyntaxMacrosGenericTestSupport
    import Testing

    @Suite("Macros: a key's owner, ticket and removal, and a scope's owner, in the one declaration")
    struct MacroLifecycleTests {
        @Test("owner, ticket and removeBy become the key's lifecycle; the scope's owner becomes its owner")
        func expansion() {
            expectExpansion(
                """
                @ConfigurationScope(owner: "album-team")
                struct Album {
                    @ConfigurationKey("a.like", owner: "growth-team", ticket: "EXP-1", removeBy: .date("2027-03-31"))
                    static let albumLike = false
                }
                """,
                expanded: """
                    struct Album {
                        static let albumLike = false

                        /// `a.like`, read as `service.albumLike`.
                        let albumLike: AlbumLikeKey

                        /// The configuration key `a.like`; its default is `Album.albumLike`.
                        enum AlbumLikeKey: ServiceConfiguration.ConfigurationKey {
                            static let name = "a.like"
                            static let defaultValue = Album.albumLike
                            static let lifecycle = ServiceConfiguration.ConfigurationKeyLifecycle(owner: "growth-team", ticket: "EXP-1", removeBy: .date("2027-03-31"))
                        }

                        /// The scope's keys in declaration order, listed by `@ConfigurationScope` (no reflection needed).
                        static var keys: [any ServiceConfiguration.ConfigurationKey.Type] {
                            [
                                AlbumLikeKey.self,
                            ]
                        }

                        /// Who owns the keys that name no owner of their own, from `@ConfigurationScope(owner:)`.
                        static let owner: String = "album-team"

                        /// Overrides the keys given a value on `service` (a `MockConfigurationService` in a test) in one call,
                        /// and returns the service; a key left `nil` keeps its value. Throws as `setOverride(_:for:)` does.
                        ///
                        /// ```swift
                        /// let mock = try setOverrides(on: MockConfigurationService(scopes: [Self.self]), albumLike: …)
                        /// ```
                        @discardableResult
                        static func setOverrides<Service: ServiceConfiguration.ConfigurationService>(
                            on serviceToOverride: Service,
                            albumLike: AlbumLikeKey.Value? = nil
                        ) throws -> Service {
                            if let albumLike {
                                try serviceToOverride.setOverride(albumLike, for: AlbumLikeKey.self)
                            }
                            return serviceToOverride
                        }
                    }

                    extension Album: ServiceConfiguration.ConfigurationScope {
                    }
                    """)
        }

        @Test("a literal removal that is not a day or a version is reported at the argument")
        func invalidRemoval() {
            expectDiagnostics(
                """
                @ConfigurationScope struct S {
                    @ConfigurationKey("s.a", removeBy: .date("2027-02-29")) static let sA = false
                    @ConfigurationKey("s.b", removeBy: .version("8.x")) static let sB = false
                    @ConfigurationKey("s.c", removeBy: .date("2028-02-29")) static let sC = false
                }
                """,
                [
                    error(
                        "removeBy date \"2027-02-29\" is not a day; write YYYY-MM-DD, for example 2027-03-31", line: 2,
                        column: 40),
                    error(
                        "removeBy version \"8.x\" is not a version; write numbers and dots, for example 8.4", line: 3,
                        column: 40),
                ])
        }
    }
#endif
