import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

@Suite("config-menu audit: keys past their removal or due soon, keys without an owner, overrides to clean up")
struct AuditCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-audit-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }
    var manifest: URL { folder.appendingPathComponent("shop.manifest.json") }
    var serverValues: URL { folder.appendingPathComponent("server.json") }
    var options: [String] {
        ["--store", store.path, "--manifest", manifest.path, "--server-values", serverValues.path]
    }

    /// The UTC day `days` from today, `YYYY-MM-DD`.
    func day(_ days: Int) -> String {
        String(Timestamp.format(Date().addingTimeInterval(Double(days) * 86_400)).prefix(10))
    }

    /// A catalog whose dues are relative to today (so the test means the same any day), a server value, and a store
    /// holding one override of each kind the audit lists.
    func writeFixture() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func toggle(_ name: String, _ extra: String) -> String {
            #"{"name": "\#(name)", "control": {"kind": "toggle", "on": "Y", "off": "N"}, "default": "N"\#(extra)}"#
        }
        let keys = [
            toggle(
                "shop.old_flag", #", "owner": "shop-team", "ticket": "SHOP-1", "removeBy": {"date": "\#(day(-3))"}"#),
            toggle("shop.soon_flag", #", "owner": "shop-team", "removeBy": {"date": "\#(day(10))"}"#),
            toggle("shop.later_flag", #", "owner": "shop-team", "removeBy": {"date": "\#(day(100))"}"#),
            toggle("shop.versioned", #", "owner": "growth-team", "removeBy": {"version": "8.4"}"#),
            #"{"name": "shop.greeting", "control": {"kind": "text"}, "default": "hello"}"#,
            #"{"name": "shop.limit", "control": {"kind": "number", "number": "integer"}, "default": "3", "owner": "shop-team"}"#,
        ]
        let manifestText = """
            {"format": "service-configuration-manifest", "version": 1, "requiresOwners": true,
             "scopes": [{"name": "Shop", "keys": [\(keys.joined(separator: ",\n"))]}]}
            """
        try Data(manifestText.utf8).write(to: manifest)
        try Data(#"{"shop.limit": "5"}"#.utf8).write(to: serverValues)
        let now = Timestamp.format(Date())
        let storeText = """
            {"format": "service-configuration-overrides", "version": 1, "overrides": {
              "shop.old_flag": {"value": "Y", "setAt": "\(now)"},
              "shop.later_flag": {"value": "Y", "setAt": "2020-01-01T00:00:00Z"},
              "shop.limit": {"value": "5", "setAt": "\(now)"},
              "shop.greeting": {"value": "hello", "setAt": "\(now)"},
              "shop.gone": {"value": "1", "setAt": "\(now)"}}}
            """
        try Data(storeText.utf8).write(to: store)
    }

    func run(_ arguments: [String]) throws -> ToolRun { try configMenu(arguments + options) }

    @Test("text: each group with its keys and the reset line that removes it; exit 0 without --fail-past-due")
    func text() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeFixture()
        let audit = try run(["audit"])
        #expect(audit.status == 0, "\(audit.error)")
        let text = audit.output
        #expect(
            text.contains(
                "Keys past their removal (1):\n  shop.old_flag  shop-team · SHOP-1 · remove by \(day(-3)) (past due by 3 days)"
            ), "\(text)")
        #expect(
            text.contains(
                "Keys due within 30 days (1):\n  shop.soon_flag  shop-team · remove by \(day(10)) (due in 9 days)"),
            "\(text)")
        #expect(!text.contains("shop.later_flag  shop-team"), "100 days away is not due soon")
        #expect(text.contains("Keys due at a version, not judged without --program-version (1):\n  shop.versioned"))
        #expect(text.contains("Keys without an owner (1; the catalog requires one):\n  Shop: shop.greeting\n"))
        let reset = "config-menu reset"
        #expect(
            text.contains("Overrides set more than 30 days ago (1):\n  shop.later_flag  set 2020-01-01 ·"), "\(text)")
        #expect(
            text.contains("  remove: \(reset) --store \(store.path) --manifest \(manifest.path) shop.later_flag\n"),
            "\(text)")
        #expect(text.contains("Overrides equal to the server value (they change nothing) (1):\n  shop.limit  = \"5\""))
        #expect(
            text.contains(
                "Overrides equal to the default while the server sends nothing (1):\n  shop.greeting  = \"hello\""))
        #expect(text.contains("Overrides of keys past their removal (1):\n  shop.old_flag  remove by \(day(-3))"))
        #expect(text.contains("Overrides of keys this catalog does not know (1):\n  shop.gone  = \"1\""))
        #expect(
            text.hasSuffix("1 past due, 1 due within 30 days, 1 without an owner, 5 overrides to clean up\n"), "\(text)"
        )

        // The line it prints works: pasted, it removes exactly that group.
        let line = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("  remove: \(reset) ") && $0.hasSuffix("shop.gone") })
        let words = line.dropFirst("  remove: config-menu ".count).split(separator: " ").map(String.init)
        let removed = try configMenu(words)
        #expect(removed.status == 0, "\(removed.error)")
        #expect(removed.output == "removed 1 override: shop.gone\n")
        #expect(!(try run(["audit"])).output.contains("shop.gone"))
    }

    @Test("--json, --program-version judging a version due, --due-within, --older-than, --fail-past-due exit 3")
    func jsonAndOptions() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeFixture()
        let audit = try run(["audit", "--json", "--program-version", "8.4", "--due-within", "5", "--older-than", "0"])
        #expect(audit.status == 0, "\(audit.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(audit.output.utf8)) as? [String: Any])
        let names = { (field: String) in
            ((object[field] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
        }
        #expect(names("pastDue") == ["shop.old_flag", "shop.versioned"])
        #expect(names("dueSoon").isEmpty, "10 days is not within 5")
        #expect(names("dueAtVersion").isEmpty)
        #expect(names("withoutOwner") == ["shop.greeting"])
        #expect(object["requiresOwners"] as? Bool == true)
        #expect(object["programVersion"] as? String == "8.4")
        let first = try #require((object["pastDue"] as? [[String: Any]])?.first)
        #expect(first["owner"] as? String == "shop-team")
        #expect(first["ticket"] as? String == "SHOP-1")
        #expect((first["removeBy"] as? [String: String]) == ["date": day(-3)])
        #expect(first["daysPastDue"] as? Int == 3)
        let overrides = try #require(object["overrides"] as? [String: [String: Any]])
        // Older than 0 days: every override with a time.
        #expect(
            Set(overrides["old"]?["keys"] as? [String] ?? []) == [
                "shop.old_flag", "shop.later_flag", "shop.limit", "shop.greeting",
            ])
        #expect(overrides["redundant"]?["keys"] as? [String] == ["shop.limit"])
        #expect(overrides["pastDueKey"]?["keys"] as? [String] == ["shop.old_flag"], "shop.versioned has no override")
        #expect((overrides["orphan"]?["remove"] as? String)?.hasSuffix(" shop.gone") == true)

        let failing = try run(["audit", "--fail-past-due"])
        #expect(failing.status == 3)
        #expect(failing.error.contains("--fail-past-due: 1 key past due: shop.old_flag"), "\(failing.error)")
        #expect(failing.output.contains("Keys past their removal (1)"), "the report comes first")

        for bad in [["--due-within", "x"], ["--older-than", "-1"], ["--due-within", "4000"]] {
            let refused = try run(["audit"] + bad)
            #expect(refused.status == 2, "\(bad)")
            #expect(refused.error.contains("needs a number of days from 0 to 3650"), "\(refused.error)")
        }
    }

    @Test("the demo: its past-due like flag and the two scopes without an owner; reset takes several keys")
    func demo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let storeOption = ["--store", store.path]
        let audit = try configMenu(["audit"] + storeOption)
        #expect(audit.status == 0, "\(audit.error)")
        #expect(audit.output.contains("  function.album.like.enabled"))
        #expect(audit.output.contains("album-team · ALB-1024 · remove by 2026-10-31 (past due by "))
        #expect(audit.output.contains("  Network: function.network.timeout_sec, function.network.retry_count, "))
        #expect(audit.output.contains("  Notifications: function.notifications.quiet_hours, "))
        #expect(try configMenu(["audit", "--fail-past-due"] + storeOption).status == 3)

        for key in ["function.album.like.enabled", "function.payments.enabled", "function.chat.bubble_style"] {
            let set = try configMenu(["set", key, key.hasSuffix("style") ? "minimal" : "Y"] + storeOption)
            #expect(set.status == 0, "\(set.error)")
        }
        let typo = try configMenu(["reset", "function.album.like.enabled", "function.paymens.enabled"] + storeOption)
        #expect(typo.status == 3)
        #expect(typo.error.contains("function.paymens.enabled"))
        #expect(try configMenu(["list", "--overridden"] + storeOption).output.contains("function.album.like.enabled"))
        let reset = try configMenu(
            ["reset", "function.album.like.enabled", "function.payments.enabled", "function.timeline.ranking"]
                + storeOption)
        #expect(reset.status == 0, "\(reset.error)")
        #expect(
            reset.output
                == "function.timeline.ranking has no override\nremoved 2 overrides: function.album.like.enabled, function.payments.enabled\n"
        )
        let left = try configMenu(["list", "--overridden", "--json"] + storeOption)
        #expect(left.output.contains("function.chat.bubble_style"))
        #expect(!left.output.contains("function.payments.enabled"))
    }
}
