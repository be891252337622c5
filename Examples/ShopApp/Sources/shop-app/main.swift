import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ShopAppCore

// shop-app [--store FILE] [--debug-menu] [--write-manifest FILE] [--write-server-values FILE]
//
// Prints the configuration report; behind --debug-menu it opens the debug menu on the app's own catalog and
// service (the flag stands for whatever a real app uses: a shake gesture, a hidden settings row, a launch argument).

func option(_ name: String) -> String? {
    guard let index = CommandLine.arguments.firstIndex(of: name), index + 1 < CommandLine.arguments.count else {
        return nil
    }
    return CommandLine.arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("shop-app: \(message)\n".utf8))
    exit(1)
}

let catalog: ConfigurationCatalog
do {
    catalog = try AppConfiguration.makeCatalog()
} catch {
    fail("the catalog cannot be built: \(error)")
}
let storeURL = option("--store").map { URL(fileURLWithPath: $0) } ?? AppConfiguration.defaultStoreURL()
let service = AppConfiguration.makeService(catalog: catalog, storeURL: storeURL)

if let path = option("--write-manifest") {
    do {
        try catalog.manifestJSON().write(to: URL(fileURLWithPath: path))
    } catch {
        fail("cannot write the manifest: \(error.localizedDescription)")
    }
}
if let path = option("--write-server-values") {
    do {
        try ServerValuesFile.write(service.serverValues, to: URL(fileURLWithPath: path))
    } catch {
        fail("\(error)")
    }
}

if CommandLine.arguments.contains("--debug-menu") {
    do {
        try ConfigurationDebugMenu(catalog: catalog, service: service).run()
    } catch {
        fail("the debug menu cannot open: \(error)")
    }
} else {
    for line in AppReport.lines(service: service, catalog: catalog) { print(line) }
}
