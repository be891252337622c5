import Foundation

/// The manifest's JSON shape: read by ``ManifestCompactForm`` when it can, else by Foundation's `JSONDecoder`;
/// written by ``ManifestCompactForm``.
struct ManifestDocument: Decodable {
    var format: String
    var version: Int
    var scopes: [Scope]
    var requiresOwners: Bool?

    /// The two members read first, so that a file that is not a manifest is called that.
    struct Header: Decodable {
        var format: String?
        var version: Int?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            format = try? container.decodeIfPresent(String.self, forKey: .format)
            version = try? container.decodeIfPresent(Int.self, forKey: .version)
        }

        enum CodingKeys: String, CodingKey {
            case format, version
        }
    }

    struct Scope: Decodable {
        var name: String
        var keys: [Key]
    }

    /// One key's entry. A class, not a struct: each entry the reader makes is handed from its scope's list to
    /// ``descriptor(scope:sharing:packed:)``, and the struct (nineteen strings) was copied for that call, each string
    /// retained and released, and destroyed after it: about a twelfth of the instructions of reading a manifest
    /// (callgrind, BENCHMARKS.md).
    final class Key: Decodable {
        let name: String
        let title: String?
        let type: String?
        let `default`: String?
        let control: Control
        let summary: String?
        let pattern: String?
        let format: String?
        let owner: String?
        let ticket: String?
        let removeBy: RemoveBy?

        init(
            name: String, title: String?, type: String?, default defaultValue: String?, control: Control,
            summary: String?, pattern: String?, format: String?, owner: String?, ticket: String?, removeBy: RemoveBy?
        ) {
            self.name = name
            self.title = title
            self.type = type
            self.default = defaultValue
            self.control = control
            self.summary = summary
            self.pattern = pattern
            self.format = format
            self.owner = owner
            self.ticket = ticket
            self.removeBy = removeBy
        }
    }

    /// `{"date": "2027-03-31"}` or `{"version": "8.4"}`.
    struct RemoveBy: Decodable {
        var date: String?
        var version: String?
    }

    struct Control: Decodable {
        var kind: String
        var on: String?
        var off: String?
        var number: String?
        var minimum: String?
        var maximum: String?
        var step: String?
        var choices: [Choice]?
    }

    struct Choice: Decodable {
        var value: String
        var title: String?
        var enabled: Bool?
    }

    /// A problem inside one key, as a path relative to the key and a message: `.control.choices[2]: duplicate …`.
    struct KeyProblem: Error {
        var problem: String
    }

    /// One line for a decoding failure: where in the document, and what is wrong.
    static func problem(decoding error: any Error, in data: Data) -> String {
        guard let error = error as? DecodingError else { return "not valid JSON: \(error.localizedDescription)" }
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
            let problem = ConfigurationDecodingError.jsonSyntaxProblem(in: data)
        {
            return "not valid JSON: \(problem)"
        }
        switch error {
        case .typeMismatch(let type, let context):
            let place = path(context.codingPath)
            return "\(place.isEmpty ? "the document" : place) must be \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) must be \(typeName(type)), found null"
        case .keyNotFound(let key, let context):
            let parent = path(context.codingPath)
            return "\(parent.isEmpty ? "" : parent + ".")\(key.stringValue) is missing"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let detail = underlying ?? context.debugDescription
            return context.codingPath.isEmpty ? "not valid JSON: \(detail)" : "\(path(context.codingPath)): \(detail)"
        @unknown default:
            return "not valid JSON: \(error.localizedDescription)"
        }
    }

    /// `scopes[1].keys[3].control` for a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for component in codingPath {
            if let index = component.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? component.stringValue : ".\(component.stringValue)"
            }
        }
        return text
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}

extension ManifestDocument.Key {
    /// The manifest entry of `descriptor`.
    convenience init(_ descriptor: ConfigurationKeyDescriptor) {
        let control: ManifestDocument.Control
        switch descriptor.control {
        case .toggle:
            control = .init(kind: "toggle", on: descriptor.toggleStrings.on, off: descriptor.toggleStrings.off)
        case .text: control = .init(kind: "text")
        case .json: control = .init(kind: "json")
        case .number(let kind, let range):
            control = .init(
                kind: "number", number: kind.rawValue, minimum: range?.minimum, maximum: range?.maximum,
                step: range?.step)
        case .picker(let choices):
            control = .init(
                kind: "picker",
                choices: choices.map { .init(value: $0.value, title: $0.title, enabled: $0.isEnabled) }
            )
        }
        self.init(
            name: descriptor.name, title: descriptor.title, type: descriptor.valueTypeName,
            default: descriptor.defaultValueString, control: control, summary: descriptor.summary,
            pattern: descriptor.pattern.regularExpression, format: descriptor.pattern.format,
            owner: descriptor.lifecycle.owner, ticket: descriptor.lifecycle.ticket,
            removeBy: descriptor.lifecycle.removeBy.map { due in
                due.kind == .date
                    ? ManifestDocument.RemoveBy(date: due.text) : ManifestDocument.RemoveBy(version: due.text)
            })
    }

    /// The descriptor this entry describes, after checking that it is consistent; its picker list or number range
    /// is shared with the earlier descriptors made with `sharing` that have an equal one.
    func descriptor(
        scope: String, sharing: ConfigurationKeyDescriptor.ControlSharing,
        packed: ConfigurationKeyDescriptor.PackedPlace? = nil
    ) throws(ManifestDocument.KeyProblem) -> ConfigurationKeyDescriptor {
        func fail(_ problem: String) -> ManifestDocument.KeyProblem { .init(problem: problem) }
        guard !name.isEmpty else { throw fail(".name must not be empty") }
        let control = try self.control.erased()
        let toggle = ConfigurationKeyDescriptor.ToggleStrings(on: self.control.on ?? "Y", off: self.control.off ?? "N")
        if case .toggle = control, toggle.on == toggle.off {
            throw fail(
                ".control.off: equals control.on (\(ConfigurationDecodingError.quoted(toggle.on))); a toggle needs two "
                    + "different wire strings")
        }
        if pattern == nil, format != nil {
            throw fail(".format: describes a pattern, but the key has none")
        }
        let pattern = self.pattern.map { ConfigurationValuePattern($0, format: format) } ?? .any
        if let problem = pattern.problem {
            throw fail(".pattern: not a valid regular expression (\(problem))")
        }
        let lifecycle = try self.lifecycle()
        if let defaultValue = `default` {
            if case .picker(let choices) = control, !choices.contains(where: { $0.value == defaultValue }) {
                throw fail(
                    ".default: \(ConfigurationDecodingError.quoted(defaultValue)) is not one of the picker's choices ("
                        + choices.map(\.value).joined(separator: ", ") + ")")
            }
            do {
                _ = try ManifestValidation.validate(defaultValue, control: control, toggle: toggle, pattern: pattern)
            } catch {
                throw fail(".default: \(error.description)")
            }
        }
        return ConfigurationKeyDescriptor(
            describedAs: name,
            scopeName: scope,
            title: packed != nil ? "" : displayTitle,
            summary: summary.flatMap { $0.isEmpty ? nil : $0 },
            valueTypeName: type ?? "String",
            control: control,
            defaultValueString: `default`,
            toggleStrings: toggle,
            pattern: pattern,
            lifecycle: lifecycle,
            sharing: sharing,
            packed: packed
        )
    }

    /// The title the menu shows: the manifest's, or one made from the name.
    var displayTitle: String { title ?? ConfigurationDebugTitle.derive(from: name) }

    /// The owner, ticket and removal due, after checking them.
    private func lifecycle() throws(ManifestDocument.KeyProblem) -> ConfigurationKeyLifecycle {
        var due: ConfigurationRemovalDue?
        switch (removeBy?.date, removeBy?.version) {
        case (nil, nil):
            if removeBy != nil { throw .init(problem: ".removeBy needs a date or a version") }
        case (let date?, nil): due = .date(date)
        case (nil, let version?): due = .version(version)
        case (_?, _?): throw .init(problem: ".removeBy has both a date and a version; give one")
        }
        let lifecycle = ConfigurationKeyLifecycle(owner: owner, ticket: ticket, removeBy: due)
        if let problem = lifecycle.problem { throw .init(problem: ": \(problem)") }
        return lifecycle
    }
}

extension ManifestDocument.Control {
    /// The first choice whose value an earlier one has (`index`), and that earlier one (`first`). A short list is
    /// compared pair by pair: a dictionary for each picker was a sixth of the instructions of reading a manifest a
    /// quarter of whose keys are pickers (callgrind, BENCHMARKS.md).
    static func firstDuplicate(in choices: [ManifestDocument.Choice]) -> (first: Int, index: Int)? {
        guard choices.count > 16 else {
            for index in choices.indices {
                if let first = choices[..<index].firstIndex(where: { $0.value == choices[index].value }) {
                    return (first, index)
                }
            }
            return nil
        }
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(choices.count)
        for (index, choice) in choices.enumerated() {
            if let first = firstIndex[choice.value] { return (first, index) }
            firstIndex[choice.value] = index
        }
        return nil
    }

    /// The control this entry describes; problems are relative to the key.
    func erased() throws(ManifestDocument.KeyProblem) -> ConfigurationDebugControl {
        func fail(_ problem: String) -> ManifestDocument.KeyProblem { .init(problem: problem) }
        switch kind {
        case "toggle": return .toggle
        case "text": return .text
        case "json": return .json
        case "number":
            guard let number else {
                throw fail(".control.number must be \"integer\" or \"floatingPoint\", found nothing")
            }
            guard let numberKind = ConfigurationNumberKind(rawValue: number) else {
                throw fail(
                    ".control.number must be \"integer\" or \"floatingPoint\", found \(ConfigurationDecodingError.quoted(number))"
                )
            }
            switch (minimum, maximum) {
            case (nil, nil): return .number(numberKind)
            case (let low?, let high?):
                let range = ConfigurationNumberRange(minimum: low, maximum: high, step: step ?? "1")
                for (field, text) in [("minimum", low), ("maximum", high), ("step", range.step)]
                where Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) == nil {
                    throw fail(
                        ".control.\(field) must be a number in a string, found \(ConfigurationDecodingError.quoted(text))"
                    )
                }
                guard range.problem(with: low) == nil, range.problem(with: high) == nil else {
                    throw fail(".control.minimum \(low) is above .control.maximum \(high)")
                }
                return .number(numberKind, range)
            default:
                throw fail(".control needs both minimum and maximum, or neither")
            }
        case "picker":
            guard let choices, !choices.isEmpty else { throw fail(".control.choices must list at least one choice") }
            if let (first, index) = Self.firstDuplicate(in: choices) {
                throw fail(
                    ".control.choices[\(index)]: duplicate value \(ConfigurationDecodingError.quoted(choices[index].value)) "
                        + "(also choices[\(first)])")
            }
            return .picker(
                choices.map { .init(value: $0.value, title: $0.title ?? $0.value, isEnabled: $0.enabled) }
            )
        default:
            throw fail(
                ".control.kind must be toggle, picker, number, text or json, found \(ConfigurationDecodingError.quoted(kind))"
            )
        }
    }
}
