import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

@Suite("Launch overrides: reading -configOverride, CONFIG_OVERRIDES_JSON and CONFIG_SCENARIO")
struct LaunchOverrideParsingTests {
    typealias Launch = ConfigurationLaunchOverrides

    /// The error `body` throws, or `nil`.
    func error(_ body: () throws(ConfigurationLaunchOverrideError) -> Launch) -> ConfigurationLaunchOverrideError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("every -configOverride counts, the later of two for one key wins, and a value keeps its own = signs")
    func repeatedArguments() throws {
        let launch = try Launch(
            arguments: [
                "/path/App", "-configOverride", "a.b=Y", "-NSDoubleLocalizedStrings", "YES", "-configOverride",
                "c.d=x=1,y=2", "-configOverride", "a.b=N", "-configOverride", "e.f=",
            ],
            environment: [:])
        #expect(launch.values == ["a.b": "N", "c.d": "x=1,y=2", "e.f": ""])
        #expect(launch.origins["a.b"] == .argument)
        #expect(launch.scenario == nil)
        #expect(
            launch.lines == [
                #"a.b = "N" (-configOverride)"#, #"c.d = "x=1,y=2" (-configOverride)"#, #"e.f = "" (-configOverride)"#,
            ])
    }

    @Test("no launch arguments or variables give no launch overrides")
    func nothing() throws {
        let launch = try Launch(arguments: ["/path/App", "--store", "x.json"], environment: ["HOME": "/root"])
        #expect(launch.isEmpty)
        #expect(launch.values.isEmpty)
    }

    @Test(
        "a malformed -configOverride is an error naming the argument",
        arguments: [
            (["-configOverride"], "-configOverride: needs KEY=VALUE after it (it is the last argument)"),
            (["-configOverride", "a.b"], #"-configOverride a.b: expected KEY=VALUE, found no "=""#),
            (["-configOverride", "=Y"], #"-configOverride =Y: expected KEY=VALUE, found no key before "=""#),
            (["-configOverride=a.b=Y"], "-configOverride=a.b=Y: not a launch argument this program reads"),
            (["--configOverride", "a.b=Y"], "--configOverride: not a launch argument this program reads"),
        ])
    func malformedArgument(arguments: [String], message: String) {
        let failure = error { () throws(ConfigurationLaunchOverrideError) in
            try Launch(arguments: ["App"] + arguments, environment: [:])
        }
        #expect(failure?.description.hasPrefix(message) == true, "\(String(describing: failure))")
    }

    @Test("CONFIG_OVERRIDES_JSON gives wire strings; -configOverride wins over it for the same key")
    func json() throws {
        let launch = try Launch(
            arguments: ["App", "-configOverride", "a.b=N"],
            environment: ["CONFIG_OVERRIDES_JSON": #"{"a.b": "Y", "c.d": "3", "e.f": "1280,70"}"#])
        #expect(launch.values == ["a.b": "N", "c.d": "3", "e.f": "1280,70"])
        #expect(launch.origins["a.b"] == .argument)
        #expect(launch.origins["c.d"] == .json)
    }

    @Test(
        "CONFIG_OVERRIDES_JSON that is not an object of strings is an error naming the variable and the key",
        arguments: [
            (#"{"a.b": true}"#, #"CONFIG_OVERRIDES_JSON: the value of "a.b" must be a string"#),
            (#"{"a.b": 3}"#, #"CONFIG_OVERRIDES_JSON: the value of "a.b" must be a string"#),
            (#"["a.b=Y"]"#, "CONFIG_OVERRIDES_JSON: must be a JSON object of key names to wire strings"),
            (#"{"a.b": "Y""#, "CONFIG_OVERRIDES_JSON: is not valid JSON"),
            (#"{"a.b": "Y", "a.b": "N"}"#, "CONFIG_OVERRIDES_JSON: is not valid JSON"),
            ("", "CONFIG_OVERRIDES_JSON: is not valid JSON"),
        ])
    func malformedJSON(text: String, message: String) {
        let failure = error { () throws(ConfigurationLaunchOverrideError) in
            try Launch(arguments: ["App"], environment: ["CONFIG_OVERRIDES_JSON": text])
        }
        #expect(failure?.argument == "CONFIG_OVERRIDES_JSON")
        #expect(failure?.description.hasPrefix(message) == true, "\(String(describing: failure))")
    }

    @Test("CONFIG_SCENARIO names a scenario whose values go under the arguments' and the JSON's")
    func scenarioOrder() throws {
        let launch = try Launch(
            arguments: ["App", "-configOverride", "a.b=N"],
            environment: ["CONFIG_SCENARIO": "checkout", "CONFIG_OVERRIDES_JSON": #"{"c.d": "3"}"#])
        #expect(launch.scenario == "checkout")
        #expect(!launch.isScenarioResolved)
        let resolved = launch.resolvingScenario(with: ["a.b": "Y", "c.d": "9", "g.h": "x"])
        #expect(resolved.isScenarioResolved)
        #expect(resolved.values == ["a.b": "N", "c.d": "3", "g.h": "x"])
        #expect(resolved.origins["g.h"] == .scenario("checkout"))
    }

    @Test(
        "a CONFIG_SCENARIO that is empty or a path is an error naming the variable", arguments: ["", "../x", ".hidden"])
    func badScenarioName(name: String) {
        let failure = error { () throws(ConfigurationLaunchOverrideError) in
            try Launch(arguments: ["App"], environment: ["CONFIG_SCENARIO": name])
        }
        #expect(failure?.argument == "CONFIG_SCENARIO")
    }
}

#if DebugOverrides
    @Suite("Launch overrides in the service: launch > stored > server > default, checked, never stored")
    struct LaunchOverrideServiceTests {
        typealias Fixture = ConfigurationScopes.Fixture

        func service(
            _ store: any OverrideStore, launch: ConfigurationLaunchOverrides, warnings: WarningLog? = nil,
            policy: ConfigurationOverridePolicy = .allBuilds
        ) throws -> LiveConfigurationService {
            var options = LiveConfigurationService.Options(
                onWarning: warnings?.hook, publishesProgramReport: false, launchOverrides: launch)
            options.programName = "launch-test"
            return LiveConfigurationService(
                serverValues: [Fixture.CountKey.name: "5", Fixture.FlagKey.name: "N", Fixture.GreetingKey.name: "hi"],
                catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil, overridePolicy: policy,
                options: options)
        }

        @Test("a launch override wins over the stored override, which wins over the server value and the default")
        func precedence() throws {
            let store = InMemoryOverrideStore(entries: [
                Fixture.CountKey.name: OverrideEntry(value: "7", setAt: nil),
                Fixture.GreetingKey.name: OverrideEntry(value: "stored", setAt: nil),
            ])
            let service = try service(store, launch: ConfigurationLaunchOverrides([Fixture.CountKey.name: "9"]))
            let count = service.resolution(of: Fixture.CountKey.self)
            #expect(count.value == 9)
            #expect(count.source == .launch)
            #expect(count.rawValue == "9")
            #expect(service.resolution(of: Fixture.GreetingKey.self).source == .overridden)
            #expect(service.resolution(of: Fixture.FlagKey.self).source == .server)
            #expect(service.resolution(of: Fixture.RatioKey.self).source == .default)
            #expect(service.values()[Fixture.CountKey.self] == 9)
            #expect(service.launchOverrides == [Fixture.CountKey.name: "9"])
            #expect(service.overrides[Fixture.CountKey.name] == "7")
            let status = ConfigurationLayersReading(service: service).status(
                of: fixtureDescriptor(Fixture.CountKey.self))
            #expect(status.source == .launch)
            #expect(status.launchValue == "9")
            #expect(status.override?.value == "7")
        }

        @Test("a stored override set while a launch override holds the key does not change its value in this run")
        func storedChangeDoesNotReachLaunchKey() throws {
            let store = InMemoryOverrideStore()
            let service = try service(store, launch: ConfigurationLaunchOverrides([Fixture.CountKey.name: "9"]))
            let log = NotificationLog()
            let observation = service.observe { log.append($0) }
            defer { observation.cancel() }
            try service.setOverride(rawValue: "1", forKeyNamed: Fixture.CountKey.name, note: nil)
            try service.setOverride(rawValue: "Y", forKeyNamed: Fixture.FlagKey.name, note: nil)
            #expect(service.count == 9)
            #expect(service.resolution(of: Fixture.CountKey.self).source == .launch)
            #expect(store.entries[Fixture.CountKey.name]?.value == "1")
            #expect(service.flag == true)
            #expect(log.all.allSatisfy { !$0.contains(Fixture.CountKey.name) })
            #expect(log.all.contains { $0.contains(Fixture.FlagKey.name) })
        }

        @Test("launch overrides are never written to the store: a file store's file is not even created")
        func neverStored() throws {
            let folder = TemporaryFolder()
            let url = folder.storeURL()
            let service = try service(
                FileOverrideStore(url: url),
                launch: try ConfigurationLaunchOverrides(
                    arguments: ["App", "-configOverride", "\(Fixture.FlagKey.name)=Y"], environment: [:]))
            #expect(service.flag == true)
            #expect(service.resolution(of: Fixture.FlagKey.self).source == .launch)
            #expect(!FileManager.default.fileExists(atPath: url.path))
            #expect(service.overrideStore.entries.isEmpty)
        }

        @Test("an unknown key (with the nearest name) and a value its key refuses are reported and not applied")
        func checkedAgainstCatalog() throws {
            let warnings = WarningLog()
            let store = InMemoryOverrideStore(entries: [Fixture.FlagKey.name: OverrideEntry(value: "Y", setAt: nil)])
            let launch = try ConfigurationLaunchOverrides(
                arguments: [
                    "App", "-configOverride", "test.feature.flag.enabld=Y", "-configOverride",
                    "\(Fixture.FlagKey.name)=yes", "-configOverride", "\(Fixture.CountKey.name)=4",
                ], environment: [:])
            let service = try service(store, launch: launch, warnings: warnings)
            #expect(service.launchOverrides == [Fixture.CountKey.name: "4"])
            #expect(service.count == 4)
            #expect(service.resolution(of: Fixture.FlagKey.self).source == .overridden)
            let messages = service.launchOverrideProblems.map(\.description)
            #expect(messages.count == 2)
            #expect(
                messages.first?.hasPrefix(
                    #"launch override test.feature.flag.enabld = "Y" (-configOverride) not applied: unknown key "test.feature.flag.enabld"; did you mean test.feature.flag.enabled"#
                ) == true)
            #expect(
                messages.last
                    == #"launch override test.feature.flag.enabled = "yes" (-configOverride) not applied: test.feature.flag.enabled expects Y or N, got "yes""#
            )
            #expect(warnings.all == service.launchOverrideProblems.map { .launchOverrideNotApplied($0) })
        }

        @Test("where overrides do not apply, launch overrides are reported as not applied")
        func overridesOff() throws {
            let warnings = WarningLog()
            let service = try service(
                InMemoryOverrideStore(), launch: ConfigurationLaunchOverrides([Fixture.CountKey.name: "9"]),
                warnings: warnings, policy: .never)
            #expect(service.count == 5)
            #expect(service.launchOverrides.isEmpty)
            #expect(service.launchOverrideProblems.map(\.error) == [.overridesDisabled])
            #expect(warnings.all.count == 1)
        }

        @Test("CONFIG_SCENARIO reads scenarios/NAME.json beside a file store; a missing one is an error naming it")
        func scenario() throws {
            let folder = TemporaryFolder()
            let store = FileOverrideStore(url: folder.storeURL())
            try FileManager.default.createDirectory(at: store.scenariosFolder, withIntermediateDirectories: true)
            try Data(#"{"\#(Fixture.CountKey.name)": "8", "\#(Fixture.FlagKey.name)": "Y"}"#.utf8)
                .write(to: store.scenariosFolder.appendingPathComponent("qa-run.json"))
            let launch = try ConfigurationLaunchOverrides(
                arguments: ["App", "-configOverride", "\(Fixture.CountKey.name)=2"],
                environment: ["CONFIG_SCENARIO": "qa-run"])
            let resolved = try store.resolvingLaunchScenario(launch)
            #expect(resolved.values == [Fixture.CountKey.name: "2", Fixture.FlagKey.name: "Y"])

            // The service reads the scenario through its store when given it unresolved.
            let resolving = try service(store, launch: launch)
            #expect(resolving.flag == true)
            #expect(resolving.resolution(of: Fixture.FlagKey.self).source == .launch)
            #expect(resolving.count == 2)
            #expect(!FileManager.default.fileExists(atPath: store.url.path))

            let missing = try ConfigurationLaunchOverrides(arguments: [], environment: ["CONFIG_SCENARIO": "qa-rnu"])
            do {
                _ = try store.resolvingLaunchScenario(missing)
                Issue.record("a missing scenario was accepted")
            } catch {
                #expect(error.argument == "CONFIG_SCENARIO=qa-rnu")
                #expect(error.description.contains(#"no scenario "qa-rnu" in "#))
                #expect(error.description.contains("it has qa-run"))
            }
            let warnings = WarningLog()
            let unresolved = try service(store, launch: missing, warnings: warnings)
            #expect(unresolved.launchOverrideProblems.count == 1)
            #expect(unresolved.launchOverrideProblems.first?.description.contains(#"no scenario "qa-rnu""#) == true)
            #expect(warnings.all.count == 1)
        }

        @Test("the mock takes launch overrides: they win over its overrides and over one set later")
        func mock() throws {
            let mock = MockConfigurationService(
                overrides: [Fixture.CountKey.name: "7"], catalog: try fixtureCatalog(),
                launchOverrides: ConfigurationLaunchOverrides([Fixture.CountKey.name: "9"]))
            #expect(mock.count == 9)
            try mock.setOverride(1, for: Fixture.CountKey.self)
            #expect(mock.count == 9)
            #expect(mock.resolution(of: Fixture.CountKey.self).source == .launch)
        }

        @Test("a program report carries the launch overrides and reads them back")
        func reportField() throws {
            var report = ProgramReport(
                programName: "App", processIdentifier: 42, processStart: nil, storePath: "/tmp/x.json",
                startedAt: Date(timeIntervalSince1970: 1_800_000_000),
                writtenAt: Date(timeIntervalSince1970: 1_800_000_001),
                endedAt: nil, recordsReads: true, reads: [], unregistered: [], rejectedOverrides: [])
            report.launchOverrides = ["a.b": "Y", "c.d": "x\"y"]
            let data = try report.encoded()
            #expect(String(decoding: data, as: UTF8.self).contains(#""launchOverrides": {"#))
            let read = try ProgramReport(decoding: data)
            #expect(read.launchOverrides == report.launchOverrides)
            report.launchOverrides = [:]
            #expect(!String(decoding: try report.encoded(), as: UTF8.self).contains("launchOverrides"))
        }
    }
#endif
