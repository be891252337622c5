import Foundation
public import ServiceConfigurationCore
import ServiceConfigurationFiles

extension FileOverrideStore {
    /// The changes recorded in the journal beside the file (see ``OverrideJournal``), oldest first, with a change the
    /// file shows that no writer recorded yet (a hand edit) as ``OverrideHistory/unrecorded``. Reading it writes
    /// nothing; the journal is read again only when it changed.
    public func history() -> OverrideHistory {
        let target: String
        do throws(StoreFile.Failure) {
            target = try file.target()
        } catch {
            return OverrideHistory(problem: error.problem)
        }
        let journal = OverrideJournal(storePath: target, faults: nil)
        let fingerprints = journal.fingerprints()
        let cache =
            state.withLock { $0.journalCache }.flatMap { $0.fingerprints == fingerprints ? $0 : nil }
            ?? {
                let (records, unreadable, problem) = journal.readRecords()
                let cache = JournalCache(
                    fingerprints: fingerprints, records: records, unreadable: unreadable, problem: problem)
                state.withLock { $0.journalCache = cache }
                return cache
            }()
        let current = file.fingerprint()
        let unrecorded = outsideChange(journal, fingerprint: current, document: nil, records: cache.records)
        return OverrideHistory(
            records: cache.records, unrecorded: unrecorded, unreadableLines: cache.unreadable,
            problem: cache.problem ?? state.withLock { $0.journalProblem })
    }

    /// The change made outside the journaling writers since the journal's last record, if the file (which has
    /// `fingerprint`; `document` as read from it, `nil` to read it here) differs from what the journal recorded:
    /// its snapshot brought up to date by the `records` after it (read here when `nil` and needed), or without one,
    /// what the records leave the keys they name. Writers call it under the lock, before their own change; readers to
    /// show it.
    func outsideChange(
        _ journal: OverrideJournal, fingerprint: FileFingerprint?, document: OverrideDocument?,
        records: [OverrideJournalRecord]? = nil
    ) -> OverrideJournalRecord? {
        let state = journal.base(comparedTo: fingerprint, records: records)
        if case .current = state { return nil }
        let bytes = fingerprint == nil ? [] : ((try? file.load())??.bytes ?? [])
        let document = document ?? (try? OverrideDocument(parsing: bytes)) ?? OverrideDocument()
        let base: [UInt8]
        switch state {
        case .current: return nil
        case .recorded(let recorded): base = recorded.bytes
        case .missing:
            guard
                let derived = OverrideJournal.derivedBase(
                    records: records ?? journal.readRecords().records, current: document)
            else { return nil }
            base = derived
        }
        return Self.outsideRecord(base: base, current: bytes, fingerprint: fingerprint, document: document)
    }

    /// The record of the change from the journal's base to the file's `current` bytes (`document` as read from
    /// them), stamped with the file's modification time; `nil` when no entry differs.
    private static func outsideRecord(
        base: [UInt8], current: [UInt8], fingerprint: FileFingerprint?, document: OverrideDocument
    ) -> OverrideJournalRecord? {
        guard base != current else { return nil }
        let before = (try? OverrideDocument(parsing: base))?.entries ?? [:]
        let after = document.entries
        let time = fingerprint.map { Date(timeIntervalSince1970: Double($0.modified) / 1_000_000_000) } ?? Date()
        let record = OverrideJournalRecord(
            id: OverrideJournal.outsideID(base: base, current: current), time: time, origin: .outside,
            reason: OverrideChangeReason(.outside), before: before, after: after,
            keys: Set(before.keys).union(after.keys))
        return record.changes.isEmpty ? nil : record
    }

    /// After a save: appends the change made outside (if any) and this one, the last naming the file as saved, then
    /// writes the saved bytes as a new snapshot when one is due (``OverrideJournal/needsSnapshot(after:)``). A
    /// failure is kept in ``journalProblem``; the save stands.
    func record(
        in journal: OverrideJournal,
        saved bytes: [UInt8],
        fingerprint: FileFingerprint?,
        outside: OverrideJournalRecord?,
        change: (before: OverrideDocument, after: OverrideDocument, keys: Set<String>?),
        reason: OverrideChangeReason
    ) {
        let now = Date()
        let keys = change.keys ?? change.before.changedKeys(comparedTo: change.after)
        let changes = keys.sorted(by: OverrideDocument.precedes).map { key in
            OverrideJournalRecord.Change(key: key, old: change.before[key], new: change.after[key])
        }
        let record = OverrideJournalRecord(
            id: OverrideJournalRecord.makeID(time: now), time: now, origin: origin, reason: reason, changes: changes)
        // The line first, then the snapshot: if the line cannot be written (a journal made unwritable, a full disk),
        // the snapshot and the records still show the store as it was, so the next writer records this change as made
        // outside instead of the history silently missing it (and an undo then undoing an older change). A crash
        // between the two leaves the previous snapshot, which the records bring up to date.
        let appended: OverrideJournal.Appended
        do throws(StoreFile.Failure) {
            appended = try journal.append((outside.map { [$0] } ?? []) + [record], store: fingerprint)
        } catch {
            state.withLock {
                $0.journalProblem = error.problem + "; the change was saved but not recorded in the history"
            }
            return
        }
        var problem = appended.rotationProblem.map { $0 + "; the change was recorded in the history" }
        if journal.needsSnapshot(after: appended) {
            do throws(StoreFile.Failure) {
                try journal.writeBase(bytes, fingerprint: fingerprint, through: record.id, journalSize: appended.size)
            } catch {
                // The line names the file it left, so the change is in the history all the same.
                problem = error.problem + "; the change was recorded in the history, the snapshot beside it not updated"
            }
        }
        state.withLock { [problem] in $0.journalProblem = problem }
    }
}
