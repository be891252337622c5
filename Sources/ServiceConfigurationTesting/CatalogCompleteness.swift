public import ServiceConfigurationCore

extension ConfigurationCatalog {
    /// The scopes of `linked` that this catalog lacks, in their order.
    ///
    /// `linked` is what `ConfigurationCatalogPlugin` generated for the test target
    /// (`LinkedConfigurationScopes.declarations`): every scope declared in the modules the target links. A scope is in
    /// the catalog when the catalog has a scope of its name (`ConfigurationScope.name`) holding each of its keys'
    /// wire names, so a catalog built from the scope type, or from a manifest of it, counts.
    ///
    /// - Parameter linked: The scopes declared in the modules the app links.
    /// - Returns: Those the catalog lacks; empty when it has them all.
    public func scopesMissing(from linked: [ConfigurationScopeDeclaration]) -> [ConfigurationScopeDeclaration] {
        linked.filter { declaration in
            guard let scope = scope(named: declaration.type.name) else { return true }
            let names = Set(scope.keys.map(\.name))
            return !declaration.type.keys.allSatisfy { names.contains($0.name) }
        }
    }

    /// Fails the running test once for each scope of `linked` this catalog lacks, naming the scope and its module,
    /// and returns whether it has them all.
    ///
    /// Use it where the app lists its scopes by hand, so a scope a module adds and nobody lists fails a test instead
    /// of going unnoticed until its first read (or never, for a key never read):
    ///
    /// ```swift
    /// @Test func catalogListsEveryScope() throws {
    ///     let catalog = try AppConfiguration.makeCatalog()
    ///     catalog.expectIncludesEveryScope(of: LinkedConfigurationScopes.declarations)
    /// }
    /// ```
    ///
    /// The failure is reported to Swift Testing or XCTest, whichever runs the test (and to standard error), at the
    /// caller's line; the test goes on.
    ///
    /// - Parameters:
    ///   - linked: The scopes declared in the modules the app links, as the plugin generated them.
    ///   - fileID: The caller's file, for the failure's location.
    ///   - filePath: The caller's file path, for the failure's location.
    ///   - line: The caller's line, for the failure's location.
    ///   - column: The caller's column, for the failure's location.
    /// - Returns: `true` when the catalog has every scope of `linked`.
    @discardableResult
    public func expectIncludesEveryScope(
        of linked: [ConfigurationScopeDeclaration], fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Bool {
        let missing = scopesMissing(from: linked)
        let location = TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        for declaration in missing {
            TestFailure.record(
                "The catalog lacks the configuration scope \(declaration.name), declared in the linked module "
                    + "\(declaration.module): add \(declaration.name).self to the scopes it is built from, or build "
                    + "it from LinkedConfigurationScopes.types",
                at: location)
        }
        return missing.isEmpty
    }
}
