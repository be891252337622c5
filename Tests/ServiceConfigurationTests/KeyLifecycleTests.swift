import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationTesting
import Synchronization
import Testing

extension ConfigurationScopes {
    /// Keys with lifecycles, for the tests below.
    struct Governed: ConfigurationScope {
        static let owner = "platform-team"

        let oldFlag: OldFlagKey
        enum OldFlagKey: ConfigurationKey {
            static let name = "test.governed.old_flag"
            static let defaultValue = false
            static let lifecycle = ConfigurationKeyLifecycle(
                owner: "growth-team", ticket: "EXP-1", removeBy: .date("2026-03-31"))
        }

        let laterFlag: LaterFlagKey
        enum LaterFlagKey: ConfigurationKey {
            static let name = "test.governed.later_flag"
            static let defaultValue = true
            static let lifecycle = ConfigurationKeyLifecycle(removeBy: .version("8.4"))
        }

        let plain: PlainKey
        enum PlainKey: ConfigurationKey {
            static let name = "test.governed.plain"
            static let defaultValue = 3
        }
    }

    struct Ungoverned: ConfigurationScope {
        let flag: FlagKey
        enum FlagKey: ConfigurationKey {
            static let name = "test.ungoverned.flag"
            static let defaultValue = false
        }
    }

    struct BadRemoval: ConfigurationScope {
        let flag: FlagKey
        enum FlagKey: ConfigurationKey {
            static let name = "test.bad_removal.flag"
            static let defaultValue = false
            static let lifecycle = ConfigurationKeyLifecycle(removeBy: .date("2027-02-29"))
        }
    }
}

@Suite("Key lifecycles: owners, tickets and removal dues in the declaration, the manifest and the test helper")
struct KeyLifecycleTests {
    /// 2026-03-31T00:00:00Z plus `seconds`.
    func day31(_ seconds: TimeInterval = 0) -> Date { Date(timeIntervalSince1970: 1_774_915_200 + seconds) }

    @Test("a day is due from 00:00 UTC: a second before it is 'due within a day', at it and after it past due")
    func dayStanding() throws {
        let due = ConfigurationRemovalDue.date("2026-03-31")
        #expect(due.dueDate == day31())
        #expect(due.problem == nil)
        #expect(due.standing(at: day31(-1), version: nil) == .dueIn(days: 0))
        #expect(due.standing(at: day31(-86_400 * 10 - 1), version: nil) == .dueIn(days: 10))
        #expect(due.standing(at: day31(), version: nil) == .pastDue(days: 0))
        #expect(due.standing(at: day31(86_400 * 3 + 5), version: nil) == .pastDue(days: 3))
        #expect(due.standing(at: day31(86_400 * 3 + 5), version: nil).description == "past due by 3 days")
        #expect(!due.standing(at: day31(-1), version: nil).isPastDue)
        #expect(due.standing(at: day31(), version: nil).isPastDue)
    }

    @Test("a version is due once the program runs as it or later; without a version it is not judged")
    func versionStanding() {
        let due = ConfigurationRemovalDue.version("8.4")
        #expect(due.standing(at: day31(), version: ProgramVersion("8.3.9")) == .notYetVersion)
        #expect(due.standing(at: day31(), version: ProgramVersion("8.4")) == .pastDueVersion)
        #expect(due.standing(at: day31(), version: ProgramVersion("8.10")) == .pastDueVersion)
        #expect(due.standing(at: day31(), version: nil) == .versionUnknown)
        #expect(!ConfigurationRemovalDue.Standing.versionUnknown.isPastDue)
    }

    @Test(
        "a day or a version that is not one is refused, naming what to write",
        arguments: [
            ("2027-02-29", "removeBy date \"2027-02-29\" is not a day; write YYYY-MM-DD, for example 2027-03-31"),
            ("2026-3-31", "removeBy date \"2026-3-31\" is not a day; write YYYY-MM-DD, for example 2027-03-31"),
            ("31/03/2026", "removeBy date \"31/03/2026\" is not a day; write YYYY-MM-DD, for example 2027-03-31"),
            ("2026-03-31\n", "removeBy date \"2026-03-31\\n\" is not a day; write YYYY-MM-DD, for example 2027-03-31"),
        ])
    func invalidDay(text: String, problem: String) {
        #expect(ConfigurationRemovalDue.date(text).problem == problem)
        #expect(ConfigurationRemovalDue.date(text).standing(at: day31(), version: nil) == .invalid)
    }

    @Test("the catalog refuses a key whose removal is not a day, naming the key; a leap day is a day")
    func catalogRefuses() {
        #expect(ConfigurationRemovalDue.date("2028-02-29").problem == nil)
        #expect(ConfigurationRemovalDue.version("8.x").problem?.contains("is not a version") == true)
        #expect(
            ConfigurationKeyLifecycle(owner: "team\u{1B}[31m").problem
                == "owner \"team\\u{001B}[31m\" holds a control character; write it on one line")
        do {
            _ = try ConfigurationCatalog(scopes: [ConfigurationScopes.BadRemoval.self])
            Issue.record("a catalog with an invalid removal was built")
        } catch {
            #expect(
                error.description.contains("test.bad_removal.flag")
                    && error.description.contains("removeBy date \"2027-02-29\" is not a day"),
                "\(error)")
        }
    }

    @Test("a scope's owner fills keys that name none; a key's own owner wins; the descriptor and the manifest keep all")
    func ownersAndManifest() throws {
        let catalog = try ConfigurationCatalog(scopes: [ConfigurationScopes.Governed.self], requiresOwners: true)
        let old = try #require(catalog.descriptor(named: "test.governed.old_flag"))
        #expect(
            old.lifecycle
                == ConfigurationKeyLifecycle(owner: "growth-team", ticket: "EXP-1", removeBy: .date("2026-03-31")))
        #expect(catalog.descriptor(named: "test.governed.later_flag")?.lifecycle.owner == "platform-team")
        #expect(catalog.descriptor(named: "test.governed.plain")?.lifecycle.owner == "platform-team")
        #expect(catalog.descriptor(named: "test.governed.plain")?.lifecycle.removeBy == nil)
        let json = String(decoding: catalog.manifestJSON(), as: UTF8.self)
        #expect(json.contains(#""requiresOwners":true"#), "\(json)")
        #expect(json.contains(#""removeBy":{"#) && json.contains(#""date":"2026-03-31""#))
        #expect(json.contains(#""version":"8.4""#))
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        #expect(restored.requiresOwners)
        #expect(restored.keys.map(\.lifecycle) == catalog.keys.map(\.lifecycle))
        #expect(restored.manifestJSON() == catalog.manifestJSON())
        // A catalog without lifecycles writes none of the new members: older readers see the same manifest.
        let plain = String(
            decoding: try ConfigurationCatalog(scopes: [ConfigurationScopes.Ungoverned.self]).manifestJSON(),
            as: UTF8.self)
        #expect(
            !plain.contains("requiresOwners") && !plain.contains("owner") && !plain.contains("removeBy"), "\(plain)")
    }

    @Test(
        "a manifest's bad lifecycle is refused with its place",
        arguments: [
            (#""removeBy": {"date": "2026-13-01"}"#, "scopes[0].keys[0]: removeBy date \"2026-13-01\" is not a day"),
            (
                #""removeBy": {"date": "2026-12-01", "version": "8"}"#,
                "scopes[0].keys[0].removeBy has both a date and a version"
            ),
            (#""removeBy": {}"#, "scopes[0].keys[0].removeBy needs a date or a version"),
            (#""owner": 5"#, "scopes[0].keys[0].owner must be a string"),
        ])
    func badManifest(member: String, problem: String) {
        let text = """
            {"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "S", "keys": [
              {"name": "k", "control": {"kind": "text"}, \(member)}]}]}
            """
        do {
            _ = try ConfigurationCatalog(manifest: Data(text.utf8))
            Issue.record("accepted \(member)")
        } catch {
            #expect(error.description.contains(problem), "\(error.description)")
        }
    }

    @Test("keysPastDue and expectNoKeyPastDue: one failure per key past due, naming owner and ticket; none before")
    func testHelper() throws {
        let catalog = try ConfigurationCatalog(scopes: [ConfigurationScopes.Governed.self])
        #expect(catalog.keysPastDue(at: day31(-1)).isEmpty)
        #expect(catalog.keysPastDue(at: day31()).map(\.key.name) == ["test.governed.old_flag"])
        #expect(
            catalog.keysPastDue(at: day31(), version: ProgramVersion("8.4")).map(\.key.name)
                == ["test.governed.old_flag", "test.governed.later_flag"])

        #expect(catalog.expectNoKeyPastDue(at: day31(-1), version: ProgramVersion("8.3")))
        let recorded = Mutex<[String]>([])
        var result = true
        withKnownIssue {
            result = catalog.expectNoKeyPastDue(at: day31(86_400 * 2), version: ProgramVersion("9.0"))
        } matching: { issue in
            recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        #expect(!result)
        let messages = recorded.withLock { $0 }
        #expect(messages.count == 2, "\(messages)")
        #expect(
            messages.first?.contains(
                "The configuration key test.governed.old_flag (Governed) is past its removal: growth-team · EXP-1 · "
                    + "remove by 2026-03-31 (past due by 2 days)") == true, "\(messages)")
        #expect(messages.last?.contains("test.governed.later_flag") == true)
    }

    @Test("the demo declares owners per scope and lifecycles on five keys; two scopes have no owner")
    func demo() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        #expect(catalog.requiresOwners)
        let unowned = Set(catalog.keys.filter { $0.lifecycle.owner == nil }.map(\.scopeName))
        #expect(unowned == ["Network", "Notifications"])
        #expect(catalog.keys.filter { $0.lifecycle.removeBy != nil }.count == 5)
        #expect(catalog.descriptor(named: "function.album.like.enabled")?.lifecycle.owner == "album-team")
    }
}
