import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFiles

/// The override file's contents, kept sorted and pre-encoded so a save re-encodes only what changed.
///
/// Format (version 1), one override per line so files diff well and can be hand-edited as QA scenarios:
///
/// ```json
/// {
///   "format": "service-configuration-overrides",
///   "version": 1,
///   "overrides": {
///     "function.album.like.enabled": {"note": "scenario 12", "serverValueWhenSet": "N", "setAt": "2026-11-29T14:05:00.000Z", "value": "Y"}
///   }
/// }
/// ```
///
/// Entries may carry an expiry (``OverrideEntry/expiry``) as three optional fields, `"expiresAt": "2026-11-29T16:05:00.000Z"`,
/// `"untilServerChanges": true` and `"untilVersion": "14.2"`; they were added in version 1, written only when set,
/// and builds that predate them keep them as preserved fields (and so ignore the rule, but write it back unchanged).
///
/// What this build does not understand is kept, so the format can grow without a new version: unknown top-level
/// members (written back after `version`, in their order), unknown entry fields (see
/// ``OverrideEntry/preservedFields``), and whole entries that cannot be used (quarantined: kept as found, reported,
/// not applied). Only a file that is not a JSON object of this format is refused whole.
package struct OverrideDocument: Sendable, Equatable {
    static let formatName = "service-configuration-overrides"
    static let version = 1

    /// One override: its key, its entry (or, for a quarantined entry, the JSON text found in the file), and its
    /// encoded line (indented, without a trailing comma; empty until the first save needs it, so reading a file
    /// encodes nothing).
    package struct Line: Sendable, Equatable {
        package var key: String
        /// The usable entry; `nil` for a quarantined one.
        var entry: OverrideEntry?
        /// A quarantined entry's JSON text, exactly as found; empty for a usable entry.
        var quarantined: [UInt8] = []
        var bytes: [UInt8] = []
        /// For a line read from a file on one line: its text there, from the key's opening quote to the end of the
        /// entry (a slice of the file's bytes, which it keeps; nothing is copied). A save writes it as it is instead
        /// of encoding the entry again: it is what the entry was read from, so it reads back the same.
        var source: ArraySlice<UInt8> = []

        package init(key: String, entry: OverrideEntry, source: ArraySlice<UInt8> = []) {
            self.key = key
            self.entry = entry
            self.source = source
        }

        package init(key: String, quarantined: [UInt8]) {
            self.key = key
            self.quarantined = quarantined
        }

        package static func == (lhs: Line, rhs: Line) -> Bool {
            lhs.key == rhs.key && lhs.entry == rhs.entry && lhs.quarantined == rhs.quarantined
        }
    }

    /// A line as the document keeps it. A line read from a file this package wrote is kept `raw`: where its key and
    /// its entry are in the file's bytes, checked when read (a usable entry with no problem, on one line, under a
    /// plain ASCII key) and made into a ``Line`` only when asked for, so reading 100,000 overrides makes no string and
    /// no entry for the 99,999 a command does not look at, and a save copies their text as it is. Every other line (one
    /// set in memory, a quarantined entry, a key with escapes or beyond ASCII, an entry spread over several lines) is
    /// kept as a `line`.
    enum Slot: Sendable {
        case raw(RawLine)
        case line(LineBox)
    }

    /// A line kept as a `line` slot: boxed, so a slot is small, and read in place (matching a slot copies the box's
    /// reference, not the line's strings). Never changed: a line that changes is put in a new box.
    final class LineBox: Sendable {
        let line: Line

        init(_ line: Line) { self.line = line }
    }

    /// Where a raw line is in the document's ``source``: its key's text between the quotes, and its entry's object.
    struct RawLine: Sendable, Equatable {
        var keyStart: UInt32
        var keyEnd: UInt32
        var entryStart: UInt32
        var entryEnd: UInt32

        /// The key's UTF-8, between its quotes.
        var key: Range<Int> { Int(keyStart)..<Int(keyEnd) }
        /// The entry's JSON object.
        var entry: Range<Int> { Int(entryStart)..<Int(entryEnd) }
        /// The line's text as the file has it, from the key's opening quote to the end of the entry.
        var text: Range<Int> { (Int(keyStart) - 1)..<Int(entryEnd) }
    }

    /// A top-level member this build does not know, kept with its JSON text.
    package struct Member: Sendable, Equatable {
        var name: String
        var json: [UInt8]
    }

    /// The lines in UTF-8 byte order of their keys (the order they are written in), in chunks of at most
    /// `2 * chunkSize`. Chunks keep a change cheap: a copy-on-write copies one chunk and the short list of chunks,
    /// not every entry, and a save re-encodes only the line that changed.
    private var chunks: [[Slot]] = []
    /// The bytes of the file the document was read from, which its raw lines are in (empty when it has none).
    private var source: [UInt8] = []
    /// The keys beyond ASCII, as the document spells them (never raw), to find a key by another spelling whose bytes
    /// sort elsewhere: a set of strings takes canonically equivalent spellings for one.
    private var keysBeyondASCII: Set<String> = []
    /// The number of lines, quarantined ones included.
    private(set) var count = 0
    static let chunkSize = 64
    /// Top-level members this build does not know, in file order.
    var unknownMembers: [Member] = []
    /// The problems found in the entries when the file was read, sorted by key; a key's problems go when its line
    /// is replaced or removed.
    private(set) var problems: [OverrideStoreProblem] = []

    init() {}

    init(entries: [String: OverrideEntry]) {
        let sorted = entries.sorted { Self.precedes($0.key, $1.key) }
        self.init(sortedLines: sorted.map { Line(key: $0.key, entry: $0.value) })
    }

    /// A document from lines already cut into sorted chunks of at most `2 * chunkSize` lines each, whose raw lines
    /// are in `source`.
    init(
        sortedChunks: [[Slot]], count: Int, source: [UInt8], unknownMembers: [Member], problems: [OverrideStoreProblem]
    ) {
        chunks = sortedChunks
        self.count = count
        self.source = source
        keysBeyondASCII = Self.keysBeyondASCII(sortedChunks.joined())
        self.unknownMembers = unknownMembers
        self.problems = problems
    }

    package init(sortedLines lines: [Line], unknownMembers: [Member] = [], problems: [OverrideStoreProblem] = []) {
        self.unknownMembers = unknownMembers
        self.problems = problems
        count = lines.count
        chunks = stride(from: 0, to: lines.count, by: Self.chunkSize).map {
            lines[$0..<min($0 + Self.chunkSize, lines.count)].map { .line(LineBox($0)) }
        }
        keysBeyondASCII = Self.keysBeyondASCII(chunks.joined())
    }

    /// The keys of `slots` beyond ASCII (raw lines' never are).
    private static func keysBeyondASCII(_ slots: some Sequence<Slot>) -> Set<String> {
        var keys: Set<String> = []
        for case .line(let box) in slots where !isASCII(box.line.key.utf8) {
            keys.insert(box.line.key)
        }
        return keys
    }

    package static func == (lhs: OverrideDocument, rhs: OverrideDocument) -> Bool {
        guard lhs.count == rhs.count, lhs.unknownMembers == rhs.unknownMembers else { return false }
        for (left, right) in zip(lhs.chunks.joined(), rhs.chunks.joined()) {
            guard lhs.sameKey(left, as: right, in: rhs), lhs.sameLine(left, as: right, in: rhs) else { return false }
        }
        return true
    }

    /// Whether the document has no lines (quarantined ones count).
    var isEmpty: Bool { count == 0 }

    /// Every usable entry, as a dictionary (built on each call).
    var entries: [String: OverrideEntry] {
        var result: [String: OverrideEntry] = [:]
        result.reserveCapacity(count)
        source.withUnsafeBufferPointer { source in
            for slot in chunks.joined() {
                switch slot {
                case .raw(let raw): result[Self.key(raw, in: source)] = Self.entry(raw, in: source)
                case .line(let box): if let entry = box.line.entry { result[box.line.key] = entry }
                }
            }
        }
        return result
    }

    /// Every line in key order, raw ones made into lines.
    var lines: [Line] { chunks.joined().map(line) }

    /// How many lines are kept raw.
    var rawLineCount: Int {
        chunks.joined().reduce(0) { count, slot in
            guard case .raw = slot else { return count }
            return count + 1
        }
    }

    /// The quarantined entries' problems (those not applied), sorted by key.
    var quarantinedProblems: [OverrideStoreProblem] { problems.filter { !$0.isApplied } }

    /// Removes every line (quarantined ones included); unknown top-level members stay.
    mutating func removeAllLines() {
        chunks = []
        source = []
        keysBeyondASCII = []
        count = 0
        problems = []
    }

    /// The line of `key`, usable or quarantined.
    func line(forKey key: String) -> Line? {
        let (chunk, index, found) = position(of: key)
        return found ? line(chunks[chunk][index]) : nil
    }

    // MARK: Raw lines

    /// The line `slot` stands for.
    private func line(_ slot: Slot) -> Line {
        switch slot {
        case .line(let box):
            return box.line
        case .raw(let raw):
            return source.withUnsafeBufferPointer { buffer in
                Line(key: Self.key(raw, in: buffer), entry: Self.entry(raw, in: buffer), source: source[raw.text])
            }
        }
    }

    /// `slot`'s key.
    private func key(_ slot: Slot) -> String {
        switch slot {
        case .line(let box): box.line.key
        case .raw(let raw): source.withUnsafeBufferPointer { Self.key(raw, in: $0) }
        }
    }

    private static func key(_ raw: RawLine, in source: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: source[raw.key]), as: UTF8.self)
    }

    /// A raw line's entry, read again from its text exactly as it was read when the file was (which found it usable
    /// and without problems, so reading it again cannot fail).
    private static func entry(_ raw: RawLine, in source: UnsafeBufferPointer<UInt8>) -> OverrideEntry {
        var parser = DocumentParser(cursor: JSONCursor(UnsafeBufferPointer(rebasing: source[raw.entry])))
        guard case .success(let parsed)? = try? parser.parseEntry(key: "") else {
            preconditionFailure("an override's entry read differently the second time")
        }
        return parsed.entry
    }

    /// Calls `body` with the UTF-8 of `slot`'s key.
    private func withKey<Result>(_ slot: Slot, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch slot {
        case .raw(let raw):
            return source.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[raw.key])) }
        case .line(let box):
            var key = box.line.key
            return key.withUTF8(body)
        }
    }

    /// Whether `slot`'s key and `other`'s `otherSlot`'s are one key: the same bytes, or strings Swift takes as equal
    /// (canonically equivalent spellings, which only keys beyond ASCII can be).
    private func sameKey(_ slot: Slot, as otherSlot: Slot, in other: OverrideDocument) -> Bool {
        let (order, ascii) = withKey(slot) { left in
            other.withKey(otherSlot) { right in
                (KeyNameOrder.compare(left, right), Self.isASCII(left) && Self.isASCII(right))
            }
        }
        return order == 0 || !ascii && key(slot) == other.key(otherSlot)
    }

    /// Whether `slot` and `other`'s `otherSlot` are the same line (key, entry and quarantined text); two raw lines with
    /// the same text are, without reading their entries.
    private func sameLine(_ slot: Slot, as otherSlot: Slot, in other: OverrideDocument) -> Bool {
        if case .raw(let left) = slot, case .raw(let right) = otherSlot {
            let sameText = source.withUnsafeBufferPointer { mine in
                other.source.withUnsafeBufferPointer { theirs in
                    KeyNameOrder.compare(
                        UnsafeBufferPointer(rebasing: mine[left.text]),
                        UnsafeBufferPointer(rebasing: theirs[right.text])) == 0
                }
            }
            if sameText { return true }
        }
        return line(slot) == other.line(otherSlot)
    }

    /// Whether `bytes` are all ASCII.
    static func isASCII(_ bytes: some Sequence<UInt8>) -> Bool { bytes.allSatisfy { $0 < 0x80 } }

    // MARK: Changing

    /// The keys whose entries differ between `self` and `other`, found by walking both in key order.
    func changedKeys(comparedTo other: OverrideDocument) -> Set<String> {
        var changed: Set<String> = []
        var left = (chunk: 0, line: 0)
        var right = (chunk: 0, line: 0)
        func advance(_ position: inout (chunk: Int, line: Int), in document: OverrideDocument) {
            position.line += 1
            if position.line == document.chunks[position.chunk].count { position = (position.chunk + 1, 0) }
        }
        while left.chunk < chunks.count || right.chunk < other.chunks.count {
            guard left.chunk < chunks.count else {
                changed.insert(other.key(other.chunks[right.chunk][right.line]))
                advance(&right, in: other)
                continue
            }
            guard right.chunk < other.chunks.count else {
                changed.insert(key(chunks[left.chunk][left.line]))
                advance(&left, in: self)
                continue
            }
            let mine = chunks[left.chunk][left.line]
            let theirs = other.chunks[right.chunk][right.line]
            if sameKey(mine, as: theirs, in: other) {
                if !sameLine(mine, as: theirs, in: other) { changed.insert(key(mine)) }
                advance(&left, in: self)
                advance(&right, in: other)
            } else if withKey(mine, { mine in other.withKey(theirs) { KeyNameOrder.compare(mine, $0) } }) < 0 {
                changed.insert(key(mine))
                advance(&left, in: self)
            } else {
                changed.insert(other.key(theirs))
                advance(&right, in: other)
            }
        }
        return changed
    }

    /// The usable entry of `key`; setting replaces the key's line (quarantined or not), `nil` removes it.
    subscript(key: String) -> OverrideEntry? {
        get {
            let (chunk, index, found) = position(of: key)
            guard found else { return nil }
            switch chunks[chunk][index] {
            case .raw(let raw): return source.withUnsafeBufferPointer { Self.entry(raw, in: $0) }
            case .line(let box): return box.line.entry
            }
        }
        set {
            if !problems.isEmpty { problems.removeAll { $0.key == key } }
            let (chunk, index, found) = position(of: key)
            guard let newValue else {
                guard found else { return }
                if case .line(let box) = chunks[chunk][index] { keysBeyondASCII.remove(box.line.key) }
                chunks[chunk].remove(at: index)
                if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
                count -= 1
                if count == 0 { source = [] }
                return
            }
            // The file keeps times to the millisecond: keep the same here, so what was saved equals what is read
            // back (a reload of this process's own save then announces no change).
            var entry = newValue
            entry.setAt = entry.setAt.map(Timestamp.truncatedToMilliseconds)
            // A key set by another spelling keeps the file's: one line, where its bytes sort.
            let line = Slot.line(LineBox(Line(key: found ? self.key(chunks[chunk][index]) : key, entry: entry)))
            if found {
                chunks[chunk][index] = line
                return
            }
            count += 1
            if !Self.isASCII(key.utf8) { keysBeyondASCII.insert(key) }
            guard !chunks.isEmpty else {
                chunks = [[line]]
                return
            }
            chunks[chunk].insert(line, at: index)
            if chunks[chunk].count > 2 * Self.chunkSize {
                let upper = Array(chunks[chunk][Self.chunkSize...])
                chunks[chunk].removeSubrange(Self.chunkSize...)
                chunks.insert(upper, at: chunk + 1)
            }
        }
    }

    /// UTF-8 byte order: the order keys are written in (``KeyNameOrder``).
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool { KeyNameOrder.precedes(lhs, rhs) }

    /// Where `key` is, or where it would be inserted; a key spelled otherwise in the document is found too.
    private func position(of key: String) -> (chunk: Int, index: Int, found: Bool) {
        let byBytes = bytePosition(of: key)
        if byBytes.found || keysBeyondASCII.isEmpty && Self.isASCII(key.utf8) { return byBytes }
        // Another spelling: one the document has beyond ASCII, or (a raw line's key is ASCII) the canonical form of a
        // key beyond ASCII when that is ASCII (`K` for the Kelvin sign).
        var spellings: [String] = []
        if let stored = keysBeyondASCII.firstIndex(of: key) { spellings.append(keysBeyondASCII[stored]) }
        if !Self.isASCII(key.utf8) { spellings.append(key.precomposedStringWithCanonicalMapping) }
        for spelling in spellings {
            let found = bytePosition(of: spelling)
            if found.found { return found }
        }
        return byBytes
    }

    /// Where `key`'s bytes are (or where they would be inserted); at that place, a canonically equivalent spelling
    /// counts as found too.
    private func bytePosition(of key: String) -> (chunk: Int, index: Int, found: Bool) {
        guard !chunks.isEmpty else { return (0, 0, false) }
        var query = key
        return query.withUTF8 { query in
            // The first chunk whose last key is not before `key`; past the end means "append to the last chunk".
            var low = 0
            var high = chunks.count
            while low < high {
                let middle = (low + high) / 2
                if withKey(chunks[middle][chunks[middle].count - 1], { KeyNameOrder.compare($0, query) }) < 0 {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            let chunk = min(low, chunks.count - 1)
            let lines = chunks[chunk]
            var first = 0
            var last = lines.count
            while first < last {
                let middle = (first + last) / 2
                if withKey(lines[middle], { KeyNameOrder.compare($0, query) }) < 0 {
                    first = middle + 1
                } else {
                    last = middle
                }
            }
            // One key as a dictionary takes it: the same bytes, or (beyond ASCII) canonically equivalent strings.
            if first < lines.count {
                let (order, ascii) = withKey(lines[first]) { (KeyNameOrder.compare($0, query), Self.isASCII($0)) }
                if order == 0 || !(ascii && Self.isASCII(query)) && self.key(lines[first]) == key {
                    return (chunk, first, true)
                }
            }
            return (chunk, first, false)
        }
    }

    // MARK: Encoding

    /// The whole file, keeping the encoded lines for the next call.
    mutating func encodedBytes() -> [UInt8] {
        var buffer: [UInt8] = []
        encode(into: &buffer)
        return buffer
    }

    /// The whole file, byte for byte deterministic.
    func encoded() -> [UInt8] {
        var copy = self
        var buffer: [UInt8] = []
        copy.encode(into: &buffer)
        return buffer
    }

    /// Writes the whole file into `buffer`, reusing its capacity (a save of a large store then touches no fresh
    /// memory pages). Lines not encoded yet are encoded and kept, so the next save re-encodes nothing.
    mutating func encode(into buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(
            contentsOf: Array("{\n  \"format\": \"\(Self.formatName)\",\n  \"version\": \(Self.version),\n".utf8))
        for member in unknownMembers {
            buffer.append(contentsOf: [0x20, 0x20])
            JSONWriter.appendString(member.name, to: &buffer)
            buffer.append(contentsOf: [UInt8(ascii: ":"), 0x20])
            buffer.append(contentsOf: member.json)
            buffer.append(contentsOf: [UInt8(ascii: ","), 0x0A])
        }
        if chunks.isEmpty {
            buffer.append(contentsOf: Array("  \"overrides\": {}\n}\n".utf8))
            return
        }
        // Sized once for the whole file (a line to encode counted at a typical size): growing a buffer of megabytes
        // by doubling copies and touches fresh pages several times over.
        var size = buffer.count + 32
        for slot in chunks.joined() {
            switch slot {
            case .raw(let raw): size += 6 + raw.text.count
            case .line(let box):
                let (kept, read) = (box.line.bytes.count, box.line.source.count)
                size += 2 + (kept > 0 ? kept : read > 0 ? 4 + read : 128)
            }
        }
        buffer.reserveCapacity(size)
        buffer.append(contentsOf: Array("  \"overrides\": {\n".utf8))
        // Each line's bytes are read in place (through its box); copies of the lines would retain and release every
        // string of every entry, which costs more than the copying itself at 10,000 entries.
        let source = source
        source.withUnsafeBufferPointer { source in
            var first = true
            for chunk in chunks.indices {
                for index in chunks[chunk].indices {
                    if !first {
                        buffer.append(UInt8(ascii: ","))
                        buffer.append(0x0A)
                    }
                    first = false
                    switch chunks[chunk][index] {
                    case .raw(let raw):
                        // A line as the file had it (the first save of a process re-encodes nothing it read).
                        buffer.append(contentsOf: [0x20, 0x20, 0x20, 0x20])
                        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: source[raw.text]))
                    case .line(let box) where !box.line.bytes.isEmpty:
                        box.line.bytes.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
                    case .line(let box) where !box.line.source.isEmpty:
                        buffer.append(contentsOf: [0x20, 0x20, 0x20, 0x20])
                        box.line.source.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
                    case .line(let box):
                        // Written into the file's buffer, then kept: one array of the line's exact size.
                        let start = buffer.count
                        Self.encode(box.line, into: &buffer)
                        var line = box.line
                        line.bytes = Array(buffer[start...])
                        chunks[chunk][index] = .line(LineBox(line))
                    }
                }
            }
        }
        buffer.append(contentsOf: Array("\n  }\n}\n".utf8))
    }

    /// One line, indented, without the separating comma and newline: fields in UTF-8 byte order of their names,
    /// preserved fields among them.
    private static func encode(_ line: Line) -> [UInt8] {
        var buffer: [UInt8] = []
        encode(line, into: &buffer)
        return buffer
    }

    /// Appends ``encode(_:)``'s bytes to `buffer`.
    private static func encode(_ line: Line, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: [0x20, 0x20, 0x20, 0x20])
        JSONWriter.appendString(line.key, to: &buffer)
        buffer.append(contentsOf: [UInt8(ascii: ":"), 0x20])
        guard let entry = line.entry else {
            buffer.append(contentsOf: line.quarantined)
            return
        }
        appendEntry(entry, to: &buffer)
    }

    /// One entry as a JSON object on one line, as the store writes it: `{"note": "…", "setAt": "…", "value": "Y"}`.
    /// The journal writes entries the same way, so an undo puts back exactly what was stored.
    package static func appendEntry(_ entry: OverrideEntry, to buffer: inout [UInt8]) {
        guard entry.preservedFields.isEmpty else { return appendSortingFields(entry, to: &buffer) }
        // The known fields alone, written straight into `buffer` in the UTF-8 order of their names (the order below),
        // as `appendSortingFields` would: a save of 100,000 entries then makes no arrays of its own per entry.
        buffer.append(UInt8(ascii: "{"))
        var first = true
        func name(_ name: StaticString) {
            if !first { buffer.append(contentsOf: [UInt8(ascii: ","), 0x20]) }
            first = false
            buffer.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { buffer.append(contentsOf: $0) }
            buffer.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":"), 0x20])
        }
        func time(_ date: Date) {
            buffer.append(UInt8(ascii: "\""))
            Timestamp.append(date, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        if let expiresAt = entry.expiry.expiresAt {
            name("expiresAt")
            time(expiresAt)
        }
        if let note = entry.note {
            name("note")
            JSONWriter.appendString(note, to: &buffer)
        }
        if let server = entry.serverValueWhenSet {
            name("serverValueWhenSet")
            JSONWriter.appendString(server, to: &buffer)
        }
        if let setAt = entry.setAt {
            name("setAt")
            time(setAt)
        }
        if entry.expiry.untilServerChanges {
            name("untilServerChanges")
            buffer.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        }
        if let version = entry.expiry.untilVersion {
            name("untilVersion")
            JSONWriter.appendString(version.description, to: &buffer)
        }
        name("value")
        JSONWriter.appendString(entry.value, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// ``appendEntry(_:to:)`` for an entry with preserved fields: every field is gathered, then written in the UTF-8
    /// order of the names.
    package static func appendSortingFields(_ entry: OverrideEntry, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
        var fields: [(name: String, json: [UInt8])] = []
        func string(_ text: String) -> [UInt8] {
            var bytes: [UInt8] = []
            JSONWriter.appendString(text, to: &bytes)
            return bytes
        }
        // In UTF-8 order of the names; the expiry fields are written only when set, so an entry without expiry is
        // byte for byte what builds before expiry wrote.
        if let expiresAt = entry.expiry.expiresAt { fields.append(("expiresAt", string(Timestamp.format(expiresAt)))) }
        if let note = entry.note { fields.append(("note", string(note))) }
        if let server = entry.serverValueWhenSet { fields.append(("serverValueWhenSet", string(server))) }
        if let setAt = entry.setAt { fields.append(("setAt", string(Timestamp.format(setAt)))) }
        if entry.expiry.untilServerChanges { fields.append(("untilServerChanges", Array("true".utf8))) }
        if let version = entry.expiry.untilVersion { fields.append(("untilVersion", string(version.description))) }
        fields.append(("value", string(entry.value)))
        if !entry.preservedFields.isEmpty {
            for (name, json) in entry.preservedFields where !fields.contains(where: { $0.name == name }) {
                fields.append((name, Array(json.utf8)))
            }
            fields.sort { precedes($0.name, $1.name) }
        }
        for (offset, field) in fields.enumerated() {
            if offset > 0 { buffer.append(contentsOf: [UInt8(ascii: ","), 0x20]) }
            JSONWriter.appendString(field.name, to: &buffer)
            buffer.append(contentsOf: [UInt8(ascii: ":"), 0x20])
            buffer.append(contentsOf: field.json)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// Why a file's contents were refused.
    struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
        /// The file is in a newer version of the format: no writer of this build may replace it.
        var isNewerFormat = false
        init(_ description: String, isNewerFormat: Bool = false) {
            self.description = description
            self.isNewerFormat = isNewerFormat
        }
    }
}

extension OverrideDocument {
    /// One entry's JSON object exactly as a line of the file holds it (`{"setAt": "...", "value": "Y"}`): what a
    /// store keeping one record per override (``EtcdOverrideStore``) writes, so both stores share one entry format.
    package static func encodedEntry(_ entry: OverrideEntry) -> [UInt8] {
        var entry = entry
        entry.setAt = entry.setAt.map(Timestamp.truncatedToMilliseconds)
        // The line of the empty key is `    "": {...}`: the object starts after those 8 bytes.
        return Array(encode(Line(key: "", entry: entry)).dropFirst(8))
    }
}
