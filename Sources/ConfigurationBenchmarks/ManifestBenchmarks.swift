import DemoConfiguration
import Foundation
import ServiceConfiguration

/// The manifest a tool reads with `--manifest`: writing it, reading it with the fast reader, and reading the same bytes
/// through `JSONDecoder` (the reader every manifest went through before; a leading byte-order mark sends a document
/// there), alternating in this process; the peak memory of one read in a fresh process each.
func manifestBenchmarks() throws {
    print("Catalog manifests (release build; load average \(loadAverage()))")
    print(
        "| keys | bytes a key | write | read, fast | read, JSONDecoder | decoder / fast | peak RSS of a read, fast | JSONDecoder |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (keys, trials) in [(100_000, 7), (1_000_000, 3)] {
        let catalog = try DemoConfiguration.synthetic(keys: keys, scopes: keys / 100).catalog
        var written = Data()
        let writing = alternate(trials: trials, { written = catalog.manifestJSON() }, {})
        let bytes = written
        let marked = Data([0xEF, 0xBB, 0xBF]) + bytes
        let reading = alternate(
            trials: trials,
            { blackHole(try? ConfigurationCatalog(manifest: bytes)) },
            { blackHole(try? ConfigurationCatalog(manifest: marked)) })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try bytes.write(to: file)
        let fastMemory = try childMemory(["--manifest-memory", "fast", file.path])
        let decoderMemory = try childMemory(["--manifest-memory", "decoder", file.path])
        print(
            String(
                format: "| %d | %.0f | %.0f ms | %.0f ms | %.0f ms | %.2fx | %.0f MiB | %.0f MiB |", keys,
                Double(bytes.count) / Double(keys), writing.first, reading.first, reading.second, reading.ratio,
                fastMemory, decoderMemory))
    }
    print("Load average after: \(loadAverage())")
    try manifestFileReadBenchmarks()
}

/// A manifest as a tool reads it from a file's bytes (`config-menu --manifest`): the whole on one thread (as from
/// `Data`) and on two (a file of a megabyte or more), and only the key a command names (`get KEY`, `set KEY VALUE`:
/// the rest scanned for its form), alternating in this process.
func manifestFileReadBenchmarks() throws {
    print("")
    print("Reading a manifest file's bytes (release build; load average \(loadAverage()))")
    print("| keys | whole, one thread | whole, two threads | two / one | one key | one key / whole, one thread |")
    print("|---:|---:|---:|---:|---:|---:|")
    for (keys, trials) in [(100_000, 11), (1_000_000, 3)] {
        let catalog = try DemoConfiguration.synthetic(keys: keys, scopes: keys / 100).catalog
        let data = catalog.manifestJSON()
        let bytes = [UInt8](data)
        let name = catalog.scopes.last?.keys.last?.name ?? ""
        let whole = alternate(
            trials: trials,
            { blackHole(try? ConfigurationCatalog(manifest: data)) },
            { blackHole(try? ConfigurationCatalog(manifestBytes: bytes, source: nil)) })
        let selected = alternate(
            trials: trials,
            { blackHole(try? ConfigurationCatalog(manifest: data)) },
            { blackHole(ConfigurationCatalog(manifestBytes: bytes, selecting: .keys([name]))) })
        print(
            String(
                format: "| %d | %.0f ms | %.0f ms | %.2fx | %.1f ms | %.3fx |", keys, whole.first, whole.second,
                whole.ratio, selected.second, selected.ratio))
    }
    print("Load average after: \(loadAverage())")
}

/// The child process of the memory comparison: reads the file's bytes and a catalog from them once, and prints the
/// resident set before and its peak (MiB).
func manifestMemoryChild(_ arguments: [String]) throws {
    let before = procStatusMiB("VmRSS")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
    let catalog = try ConfigurationCatalog(manifest: arguments[0] == "fast" ? bytes : Data([0xEF, 0xBB, 0xBF]) + bytes)
    blackHole(catalog)
    print(before, procStatusMiB("VmHWM"))
}
