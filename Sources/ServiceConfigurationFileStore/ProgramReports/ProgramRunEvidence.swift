package import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFiles

/// What a set of runs (from the ``ProgramRunHistory``) says about each key: how many runs read it and which values
/// they saw; and, for a Bool or choice key, whether each of its sides was read (`config-menu coverage --runs
/// --require-both`).
///
/// ```swift
/// let evidence = ProgramRunEvidence(runs: history.read().reports, since: .version(ProgramVersion("8.2")!))
/// evidence.key(named: "function.album.like.enabled")?.values.map(\.value)   // ["Y", "N"]
/// ```
package struct ProgramRunEvidence: Sendable {
    /// Which runs count: those of a version or newer, or those started at or after a time.
    package enum Since: Sendable, Hashable, CustomStringConvertible {
        /// Runs of this version or newer (``ProgramVersion`` order); runs that name no version do not count.
        case version(ProgramVersion)
        /// Runs started at or after this time.
        case date(Date)

        /// Reads `2026-12-01` (midnight UTC), a UTC timestamp (`2026-12-01T14:05:00Z`, as `Timestamp.parse`
        /// reads), or else a version (`8.2`); `nil` for anything else.
        package init?(_ text: String) {
            if let date = Self.day(text) ?? Timestamp.parse(text) {
                self = .date(date)
            } else if let version = ProgramVersion(text) {
                self = .version(version)
            } else {
                return nil
            }
        }

        /// `YYYY-MM-DD` as midnight UTC.
        private static func day(_ text: String) -> Date? {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]),
                (1...12).contains(month), day >= 1, day <= Timestamp.daysInMonth(year, month)
            else { return nil }
            return Date(timeIntervalSince1970: Double(Timestamp.days(fromCivil: year, month, day)) * 86_400)
        }

        /// Whether `run` counts.
        package func includes(_ run: ProgramReport) -> Bool {
            switch self {
            case .version(let version): run.programVersion.flatMap(ProgramVersion.init).map { $0 >= version } ?? false
            case .date(let date): run.startedAt >= date
            }
        }

        /// `version 8.2 or newer`, `started at or after 2026-12-01T00:00:00.000Z`.
        package var description: String {
            switch self {
            case .version(let version): "version \(version) or newer"
            case .date(let date): "started at or after \(Timestamp.format(date))"
            }
        }
    }

    /// What the runs say about one key.
    package struct Key: Sendable, Hashable {
        /// One value read, and how many runs read it.
        package struct Value: Sendable, Hashable {
            /// The wire string.
            package var value: String
            /// How many runs read it.
            package var runs: Int

            /// `value`, read by `runs` runs.
            package init(value: String, runs: Int) {
                self.value = value
                self.runs = runs
            }
        }

        /// The key's wire name.
        package var name: String
        /// How many runs read it.
        package var runs = 0
        /// Each value read, with how many runs read it, in the order first seen (newest run first).
        package var values: [Value] = []
        /// How many runs read more values than their report kept (see `ConfigurationReadCoverage.Read.values`).
        package var runsWithValuesOmitted = 0
        /// How many runs read it without saying which values (reports of a build before values were recorded).
        package var runsWithoutValues = 0
    }

    /// The runs that count, newest first.
    package let runs: [ProgramReport]
    /// Every key any of them read, sorted by name.
    package let keys: [Key]
    private let positions: [String: Int]

    /// The evidence of the `runs` that `since` lets count (all of them without it).
    package init(runs: [ProgramReport], since: Since? = nil) {
        let counted = runs.filter { since?.includes($0) ?? true }
        var keys: [String: Key] = [:]
        for run in counted {
            for read in run.reads {
                var key = keys[read.name] ?? Key(name: read.name)
                key.runs += 1
                if read.values.isEmpty { key.runsWithoutValues += 1 }
                if read.valuesOmitted > 0 { key.runsWithValuesOmitted += 1 }
                for value in read.values {
                    if let index = key.values.firstIndex(where: { $0.value == value }) {
                        key.values[index].runs += 1
                    } else {
                        key.values.append(Key.Value(value: value, runs: 1))
                    }
                }
                keys[read.name] = key
            }
        }
        self.runs = counted
        self.keys = keys.values.sorted { $0.name < $1.name }
        positions = Dictionary(uniqueKeysWithValues: self.keys.enumerated().map { ($0.element.name, $0.offset) })
    }

    /// What the runs say about the key named `name`, or `nil` when none read it.
    package func key(named name: String) -> Key? { positions[name].map { keys[$0] } }

    /// The names in `catalogKeys` that no run read: candidates for removal (sorted).
    package func neverRead(catalogKeys: [String]) -> [String] {
        catalogKeys.filter { positions[$0] == nil }.sorted()
    }

    /// The programs and versions the runs were of, with how many runs each (most runs first, then by name and
    /// version).
    package var programs: [(name: String, version: String?, runs: Int)] {
        var counts: [String: (name: String, version: String?, runs: Int)] = [:]
        for run in runs {
            let id = run.programName + "\u{0}" + (run.programVersion ?? "")
            counts[id, default: (run.programName, run.programVersion, 0)].runs += 1
        }
        return counts.values.sorted {
            ($1.runs, $0.name, $0.version ?? "") < ($0.runs, $1.name, $1.version ?? "")
        }
    }

    // MARK: Both sides

    /// Whether the runs read every side of a Bool or choice key.
    package struct Exercise: Sendable, Hashable {
        /// The kinds of key that have sides.
        package enum Kind: String, Sendable, Hashable {
            /// A Bool (a toggle): its on and its off string.
            case bool
            /// A picker (every choice) or an experiment (every enabled variant, and one that is not).
            case choice
        }

        /// The key's wire name.
        package var name: String
        /// Bool or choice.
        package var kind: Kind
        /// The sides that must be read, each as the wire strings that count for it: a side is read when any of its
        /// values was (`[["Y"], ["N"]]` for a Bool; an experiment's off side is every variant that is not enabled).
        package var sides: [[String]]
        /// The values the runs read, as the key's canonical wire strings.
        package var seen: [String]
        /// How many runs read the key.
        package var runs: Int

        /// The sides no run read.
        package var missing: [[String]] { sides.filter { side in !side.contains(where: seen.contains) } }
        /// Whether every side was read.
        package var isExercised: Bool { missing.isEmpty }
    }

    /// Why a key cannot be checked for both sides.
    package enum ExerciseProblem: Error, Sendable, Hashable {
        /// The key is neither a Bool nor a choice key: its control.
        case notBoolOrChoice(String)
        /// A choice key without choices to require.
        case noChoices
    }

    /// What the runs read of `descriptor`'s values, against its sides: a Bool's on and off strings; a picker's every
    /// choice; an experiment's (a picker whose choices say whether they are enabled) every enabled variant, and
    /// one variant that is not enabled, its off side. The values the runs saw are compared as the key's canonical
    /// wire strings (`descriptor.validate`), so `"true"` counts as `"Y"` for a key that reads both.
    package func exercise(of descriptor: ConfigurationKeyDescriptor) throws(ExerciseProblem) -> Exercise {
        let kind: Exercise.Kind
        var sides: [[String]]
        switch descriptor.control {
        case .toggle:
            kind = .bool
            sides = [[descriptor.toggleStrings.on], [descriptor.toggleStrings.off]]
        case .picker(let choices):
            kind = .choice
            guard !choices.isEmpty else { throw .noChoices }
            if choices.contains(where: { $0.isEnabled != nil }) {
                let off = choices.filter { $0.isEnabled != true }.map(\.value)
                sides = choices.filter { $0.isEnabled == true }.map { [$0.value] } + (off.isEmpty ? [] : [off])
            } else {
                sides = choices.map { [$0.value] }
            }
        default:
            throw .notBoolOrChoice(descriptor.control.kindName)
        }
        sides = sides.map { side in side.map { (try? descriptor.validate($0)) ?? $0 } }
        let key = key(named: descriptor.name)
        var seen: [String] = []
        for value in key?.values ?? [] {
            let canonical = (try? descriptor.validate(value.value)) ?? value.value
            if !seen.contains(canonical) { seen.append(canonical) }
        }
        return Exercise(name: descriptor.name, kind: kind, sides: sides, seen: seen, runs: key?.runs ?? 0)
    }
}
