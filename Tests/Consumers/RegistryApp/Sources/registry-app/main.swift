import RegistryApp

// Prints the scopes the plugin found, one per line (scripts/check-registry reads them), then the catalog's size.
#if CATALOG_PLUGIN
    for name in AppConfiguration.linkedScopeNames { print(name) }
    let catalog = try AppConfiguration.makeLinkedCatalog()
#else
    let catalog = try AppConfiguration.makeCatalog()
#endif
print("\(catalog.scopes.count) scopes, \(catalog.keyCount) keys")
