import Foundation
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The debug binary of `config-menu` in tmux on an etcd store, with a real `config-demo` publishing its report into
/// that etcd.
@Suite(
    "What a program on etcd read, end to end: config-demo and the menu on one etcd prefix", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement),
    .enabled(if: EtcdTestServer.unavailableReason == nil, "etcd is not installed (scripts/setup-debian installs it)"))
struct EtcdCoverageEndToEndTests {
    @Test("the menu marks what config-demo on etcd read, follows new reads; after kill -9 the marks go with the lease")
    func demoOnEtcd() async throws {
        let etcd = try EtcdTestServer.shared.get()
        let url = etcd.url(prefix: "/menu-coverage/\(UUID().uuidString.prefix(8))").absoluteString
        let session = try TmuxSession(environment: ["CONFIG_OVERRIDES_STORE": url])
        let demo = try DemoProcess(
            arguments: ["--store", url, "--report-lifetime", "6"],
            environment: ["XDG_STATE_HOME": session.home.appendingPathComponent("state").path])
        #expect(try await demo.wait(for: "press Enter to open the profile screen"))

        try session.run(TmuxSession.binary)
        // The start screen's six keys; the unregistered one is counted apart.
        try await session.waitFor("Keys · 55 · 6 read by config-demo · 1 unregistered")
        #expect(try session.screen().contains("│•Image Medium"))
        #expect(try !session.screen().contains("orphan"))

        // The demo opens its profile screen: three more keys read, and the menu follows.
        demo.pressEnter()
        try await session.waitFor("Keys · 55 · 9 read by config-demo · 1 unregistered")

        // Killed: nothing keeps the lease alive, etcd lets the report expire and the menu drops its marks. (On this
        // machine the menu shows it stale in between, for as long as the lease lasts; a loaded machine may read it
        // only once it is gone: config-menu coverage's kill -9 test checks stale with a longer lease.)
        #expect(try await demo.stop(with: SIGKILL))
        #expect(try await session.waitUntil(timeout: 60) { (try? session.screen().contains("read by")) == false })
        #expect(try !session.screen().contains("│•Image Medium"))
        try session.press("q")
        try await session.waitForMenuExit()
    }
}
