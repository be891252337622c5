import ServiceConfigurationCore
import ServiceConfigurationFileStore
extension EtcdOverrideStore: OverrideProfileSource {
    /// The prefix as a profile document, read now: the usable entries, and entries that are not valid but are JSON,
    /// as found (bytes that are not JSON, or keys that are not UTF-8, cannot be written into a profile).
    func profileDocument() throws(OverrideStoreError) -> OverrideDocument {
        if let error = reload() { throw error }
        let records = self.records
        var lines: [OverrideDocument.Line] = []
        for key in records.liveKeys where client.endpoint.isValidName(key) {
            guard let name = client.endpoint.name(ofKey: key) else { continue }
            if let entry = records.entries[name] {
                lines.append(OverrideDocument.Line(key: name, entry: entry))
            } else if let value = records.records[key]?.value, (try? StrictJSON.parse(value)) != nil {
                lines.append(OverrideDocument.Line(key: name, quarantined: value))
            }
        }
        lines.sort { OverrideDocument.precedes($0.key, $1.key) }
        return OverrideDocument(sortedLines: lines)
    }
}
