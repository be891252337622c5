/// Overrides a program gets when it is launched, for that run only: what UI tests use to start an app in a known
/// configuration, whatever a person left in the override store.
///
/// ```swift
/// var options = LiveConfigurationService.Options()
/// options.launchOverrides = try ConfigurationLaunchOverrides(
///     arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)
/// let service = LiveConfigurationService(catalog: catalog, overrideStore: store, options: options)
/// ```
///
/// Three ways to give them, each read here:
///
/// - `-configOverride KEY=VALUE` in the launch arguments, repeatable: every occurrence counts (this is not read
///   through `UserDefaults`, which keeps only the last), and of two occurrences for one key the later wins. The
///   value is everything after the first `=`, so it may contain `=`; an empty value is the empty wire string.
/// - `CONFIG_OVERRIDES_JSON` in the environment: a JSON object of key names to wire strings,
///   `{"function.album.like.enabled": "Y", "function.album.like.limit": "3"}`. Values must be JSON strings (wire
///   strings, as the server sends them): `true` or `3` are refused with a message naming the key, because how a key
///   writes `true` is its codec's choice (`"Y"` for most, other pairs where a key declares them).
/// - `CONFIG_SCENARIO=name` in the environment: the overrides of a saved scenario of the store (with a file store,
///   `scenarios/name.json` beside the store file; see `FileOverrideStore.resolvingLaunchScenario(_:)`).
///
/// Where they name the same key, `-configOverride` wins over `CONFIG_OVERRIDES_JSON`, which wins over
/// `CONFIG_SCENARIO`.
///
/// **Precedence in the service**: a launch override wins over the stored override of its key, which wins over the
/// server value, which wins over the default (``ValueOrigin/launch`` > ``ValueOrigin/overridden`` >
/// ``ValueOrigin/server`` > ``ValueOrigin/default``). A stored override set while the program runs (the debug menu,
/// `config-menu set`) does not change a key that has a launch override in this run; it applies from the next run
/// launched without one. Launch overrides are applied before the first read, never written to the store, and apply
/// only where stored overrides do (``ConfigurationOverridePolicy``). The service checks them against its catalog:
/// an unknown key (with the nearest names) or a value the key refuses is not applied and is reported as a
/// ``ConfigurationWarning/launchOverrideNotApplied(_:)`` and in ``LiveConfigurationService/launchOverrideProblems``.
public struct ConfigurationLaunchOverrides: Sendable, Hashable {
    /// The launch argument that introduces one override: `-configOverride KEY=VALUE`.
    public static let argumentName = "-configOverride"
    /// The environment variable holding a JSON object of overrides.
    public static let jsonVariable = "CONFIG_OVERRIDES_JSON"
    /// The environment variable naming a saved scenario of the store.
    public static let scenarioVariable = "CONFIG_SCENARIO"

    /// Where one launch override came from.
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        /// A `-configOverride KEY=VALUE` launch argument.
        case argument
        /// The `CONFIG_OVERRIDES_JSON` environment variable.
        case json
        /// The saved scenario `CONFIG_SCENARIO` names.
        case scenario(String)
        /// Given in code (``ConfigurationLaunchOverrides/init(_:)``).
        case code

        /// `-configOverride`, `CONFIG_OVERRIDES_JSON`, `CONFIG_SCENARIO=name` or `code`.
        public var description: String {
            switch self {
            case .argument: ConfigurationLaunchOverrides.argumentName
            case .json: ConfigurationLaunchOverrides.jsonVariable
            case .scenario(let name): "\(ConfigurationLaunchOverrides.scenarioVariable)=\(VisibleText.escaped(name))"
            case .code: "code"
            }
        }
    }

    /// The launch overrides as wire strings by key name (before the service checks them against its catalog).
    public private(set) var values: [String: String] = [:]
    /// Where each of ``values`` came from, by key name.
    public private(set) var origins: [String: Origin] = [:]
    /// The scenario `CONFIG_SCENARIO` names, or `nil`.
    public private(set) var scenario: String?
    /// Whether the named ``scenario``'s overrides are in ``values`` yet: the store that keeps scenarios reads them
    /// (the service asks its store when it is created; `FileOverrideStore.resolvingLaunchScenario(_:)` does it
    /// beforehand, to stop at a missing scenario).
    public private(set) var isScenarioResolved = true

    /// No launch overrides.
    public init() {}

    /// Launch overrides given in code (a test, a preview), as wire strings by key name.
    public init(_ values: [String: String]) {
        self.values = values
        origins = values.mapValues { _ in .code }
    }

    /// Reads the launch arguments and the environment of this process (or of the one a test describes).
    ///
    /// Throws a ``ConfigurationLaunchOverrideError`` naming the argument or variable when one is malformed:
    /// `-configOverride` last or followed by text without `=` or with nothing before it, an argument spelled like it
    /// but not exactly it (`-configOverride=KEY=VALUE`, `--configOverride`), JSON that is not an object of strings,
    /// a scenario name that is empty or names a path. Keys and values are checked later, against the catalog, by the
    /// service.
    public init(arguments: [String], environment: [String: String]) throws(ConfigurationLaunchOverrideError) {
        if let name = environment[Self.scenarioVariable] {
            guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/"), !name.contains("\0") else {
                throw ConfigurationLaunchOverrideError(
                    argument: Self.scenarioVariable,
                    problem:
                        "\"\(VisibleText.escaped(name))\" is not a scenario name: give the name of a saved scenario "
                        + "(its file name without .json), not empty, not a path")
            }
            scenario = name
            isScenarioResolved = false
        }
        if let text = environment[Self.jsonVariable] {
            for (key, value) in try Self.parseJSON(text) {
                values[key] = value
                origins[key] = .json
            }
        }
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument == Self.argumentName else {
                let folded = argument.lowercased()
                if folded.hasPrefix("-configoverride") || folded.hasPrefix("--configoverride") {
                    throw ConfigurationLaunchOverrideError(
                        argument: argument,
                        problem:
                            "not a launch argument this program reads; write \(Self.argumentName) KEY=VALUE (two "
                            + "arguments)")
                }
                continue
            }
            guard index < arguments.endIndex else {
                throw ConfigurationLaunchOverrideError(
                    argument: Self.argumentName, problem: "needs KEY=VALUE after it (it is the last argument)")
            }
            let pair = arguments[index]
            index += 1
            guard let equals = pair.firstIndex(of: "=") else {
                throw ConfigurationLaunchOverrideError(
                    argument: "\(Self.argumentName) \(pair)",
                    problem: "expected KEY=VALUE, found no \"=\" (for an empty value write KEY=)")
            }
            let key = String(pair[..<equals])
            guard !key.isEmpty else {
                throw ConfigurationLaunchOverrideError(
                    argument: "\(Self.argumentName) \(pair)", problem: "expected KEY=VALUE, found no key before \"=\"")
            }
            values[key] = String(pair[pair.index(after: equals)...])
            origins[key] = .argument
        }
    }

    /// Whether nothing is to be overridden at launch (no value and no scenario).
    public var isEmpty: Bool { values.isEmpty && scenario == nil }

    /// One line per override, sorted by key: `function.album.like.enabled = "Y" (-configOverride)`, escaped for a
    /// terminal.
    public var lines: [String] {
        values.keys.sorted().map { key in
            "\(VisibleText.escaped(key)) = \"\(VisibleText.escaped(values[key] ?? ""))\" (\(origins[key] ?? .code))"
        }
    }

    /// These overrides with the named scenario's `entries` under them (the arguments and the JSON keep their keys).
    ///
    /// For the store that keeps scenarios; the service calls it through its store.
    public func resolvingScenario(with entries: [String: String]) -> ConfigurationLaunchOverrides {
        guard let scenario, !isScenarioResolved else { return self }
        var resolved = self
        for (key, value) in entries where resolved.values[key] == nil {
            resolved.values[key] = value
            resolved.origins[key] = .scenario(scenario)
        }
        resolved.isScenarioResolved = true
        return resolved
    }

    /// The object of `CONFIG_OVERRIDES_JSON`: key names to wire strings.
    private static func parseJSON(_ text: String) throws(ConfigurationLaunchOverrideError) -> [(String, String)] {
        let example = #"{"function.album.like.enabled": "Y"}"#
        let document: JSONValue
        do {
            document = try StrictJSON.parse(Array(text.utf8))
        } catch {
            throw ConfigurationLaunchOverrideError(
                argument: jsonVariable, problem: "is not valid JSON (\(error)); expected an object like \(example)")
        }
        guard case .object(let members) = document else {
            throw ConfigurationLaunchOverrideError(
                argument: jsonVariable,
                problem:
                    "must be a JSON object of key names to wire strings like \(example), found \(document.typeDescription)"
            )
        }
        return try members.map { member throws(ConfigurationLaunchOverrideError) in
            guard case .string(let value) = member.value else {
                throw ConfigurationLaunchOverrideError(
                    argument: jsonVariable,
                    problem:
                        "the value of \"\(VisibleText.escaped(member.key))\" must be a string (the key's wire string, "
                        + "like \"Y\", \"3\" or \"1280,70\"), found \(member.value.typeDescription)")
            }
            guard !member.key.isEmpty else {
                throw ConfigurationLaunchOverrideError(argument: jsonVariable, problem: "a key name is empty")
            }
            return (member.key, value)
        }
    }
}

/// A launch argument or environment variable for ``ConfigurationLaunchOverrides`` that cannot be read.
///
/// `print(error)` gives for example `-configOverride function.album.like.enabled: expected KEY=VALUE, found no "="`.
public struct ConfigurationLaunchOverrideError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The argument or variable at fault, as given: `-configOverride function.x`, `CONFIG_OVERRIDES_JSON`,
    /// `CONFIG_SCENARIO`.
    public var argument: String
    /// What is wrong and what to write instead.
    public var problem: String

    /// Creates an error about `argument`.
    public init(argument: String, problem: String) {
        self.argument = argument
        self.problem = problem
    }

    /// `ARGUMENT: PROBLEM`, escaped for a terminal.
    public var description: String { "\(VisibleText.escaped(argument)): \(problem)" }
}

/// A launch override the service did not apply, and why: an unknown key, a value its key refuses, a scenario that
/// cannot be read, or overrides that do not apply in this build.
public struct ConfigurationLaunchOverrideProblem: Sendable, Hashable, CustomStringConvertible {
    /// The key, or `nil` when the problem concerns every launch override (a scenario, this build).
    public var key: String?
    /// The wire string given, or `nil` with ``key``.
    public var value: String?
    /// Where the override came from, or `nil` with ``key``.
    public var origin: ConfigurationLaunchOverrides.Origin?
    /// Why it was not applied (``ConfigurationError/unknownKey(_:suggestions:)``,
    /// ``ConfigurationError/invalidValue(key:value:reason:)``, ``ConfigurationError/overridesDisabled``, or
    /// ``ConfigurationError/unsupported(_:)`` for a scenario).
    public var error: ConfigurationError

    /// Creates a problem.
    public init(
        key: String?, value: String?, origin: ConfigurationLaunchOverrides.Origin?, error: ConfigurationError
    ) {
        self.key = key
        self.value = value
        self.origin = origin
        self.error = error
    }

    /// For example `launch override function.album.like.enabld = "Y" (-configOverride) not applied: unknown key
    /// "function.album.like.enabld"; did you mean function.album.like.enabled?`.
    public var description: String {
        guard let key else {
            return error == .overridesDisabled
                ? "launch overrides not applied: \(error)" : "launch scenario not applied: \(error)"
        }
        let given = value.map { " = \"\(VisibleText.escaped($0))\"" } ?? ""
        let from = origin.map { " (\($0))" } ?? ""
        return "launch override \(VisibleText.escaped(key))\(given)\(from) not applied: \(error)"
    }
}

/// A store that keeps saved scenarios, so that `CONFIG_SCENARIO=name` can name one (the file store).
package protocol LaunchScenarioSource {
    /// `overrides` with its scenario's entries read, or the error naming the scenario that cannot be read.
    func resolvingLaunchScenario(_ overrides: ConfigurationLaunchOverrides) throws(ConfigurationLaunchOverrideError)
        -> ConfigurationLaunchOverrides
}

extension ConfigurationLaunchOverrides {
    /// The overrides to apply and the problems of the rest: each checked against the engine's catalog (unknown keys
    /// and refused values are left out; without a catalog every override applies as given), none where overrides
    /// do not apply, and the scenario read through `store` when it keeps scenarios.
    package func checked(
        catalog: ConfigurationCatalog?, overridesApply: Bool, store: any OverrideStore
    ) -> (applied: [String: String], problems: [ConfigurationLaunchOverrideProblem]) {
        guard !isEmpty else { return ([:], []) }
        guard overridesApply else {
            return ([:], [.init(key: nil, value: nil, origin: nil, error: .overridesDisabled)])
        }
        var problems: [ConfigurationLaunchOverrideProblem] = []
        var overrides = self
        if !isScenarioResolved, let scenario {
            if let source = store as? any LaunchScenarioSource {
                do {
                    overrides = try source.resolvingLaunchScenario(self)
                } catch {
                    problems.append(
                        .init(key: nil, value: nil, origin: .scenario(scenario), error: .unsupported("\(error)")))
                }
            } else {
                problems.append(
                    .init(
                        key: nil, value: nil, origin: .scenario(scenario),
                        error: .unsupported(
                            "\(Self.scenarioVariable)=\(VisibleText.escaped(scenario)): this override store (\(store.location)) "
                                + "keeps no scenarios; use a file store, or give the overrides with "
                                + "\(Self.argumentName) or \(Self.jsonVariable)")))
            }
        }
        var applied: [String: String] = [:]
        for (key, value) in overrides.values.sorted(by: { $0.key < $1.key }) {
            let origin = overrides.origins[key] ?? .code
            guard let catalog else {
                applied[key] = value
                continue
            }
            guard let descriptor = catalog.descriptor(named: key) else {
                problems.append(
                    .init(
                        key: key, value: value, origin: origin,
                        error: .unknownKey(key, suggestions: catalog.suggestions(for: key))))
                continue
            }
            do {
                _ = try descriptor.validate(value)
                applied[key] = value
            } catch {
                problems.append(
                    .init(
                        key: key, value: value, origin: origin,
                        error: .invalidValue(key: key, value: value, reason: error.description)))
            }
        }
        return (applied, problems)
    }
}
