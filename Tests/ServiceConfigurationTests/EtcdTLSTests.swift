import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// `etcds://` on Linux: a real etcd serving HTTPS with a certificate the test makes (openssl), trusted through
/// `CONFIG_ETCD_CA_FILE`; every certificate problem is reported plainly and nothing is read or written past it.
@Suite(
    "etcds://: TLS to a real etcd, the certificate always checked",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdTLSTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("trusted through CONFIG_ETCD_CA_FILE: writes, a watch and a sync work; wrong host and unknown CA are refused")
    func trustedAndRefused() async throws {
        let folder = TemporaryFolder()
        let pair = try TestCertificates.selfSigned(in: folder.url)
        let etcd = try EtcdTestServer.start(tls: pair)
        let trusting = [EtcdEndpoint.certificateAuthorityVariable: pair.certificate.path]
        let url = etcd.url(prefix: "/tls/overrides")
        #expect(url.scheme == "etcds")

        let writer = try EtcdOverrideStore(url: url, environment: trusting)
        let reader = try EtcdOverrideStore(url: url, environment: trusting)
        #expect(reader.reload() == nil)
        reader.startWatching()
        try writer.modify { $0[Fixture.FlagKey.name] = OverrideEntry(value: "Y", note: "over TLS") }
        #expect(await pollUntil { reader.entry(forKey: Fixture.FlagKey.name)?.value == "Y" }, "the watch over TLS")
        let seen = try etcd.etcdctl(["get", "--prefix", "/tls/overrides/", "--print-value-only"])
        #expect(seen.output.contains(#""note": "over TLS""#), "etcdctl reads what the store wrote: \(seen)")

        _ = try etcd.etcdctl(["put", "/tls/values/\(Fixture.CountKey.name)", "42"])
        let source = try EtcdServerValuesSource(url: etcd.url(prefix: "/tls/values"), environment: trusting)
        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        let sync = ServerValuesSync(source: source, service: service, snapshotURL: nil, environment: .live)
        #expect(await sync.sync() == .updated(previousValues: [Fixture.CountKey.name: nil]))
        #expect(service.serverValues == [Fixture.CountKey.name: "42"])
        reader.stopWatching()

        // Another name for the same address: the certificate is for IP 127.0.0.1 only.
        let elsewhere = try EtcdOverrideStore(
            url: etcd.url(prefix: "/tls/overrides", host: "localhost"), environment: trusting)
        let wrongHost = try #require(elsewhere.reload())
        #expect(wrongHost.problem.contains("TLS: the server's certificate is not for localhost"), "\(wrongHost)")
        #expect(elsewhere.entries.isEmpty)

        // No CA file: the system's authorities do not know the test's certificate.
        let untrusting = try EtcdOverrideStore(url: url, environment: [:])
        let unknown = try #require(untrusting.reload())
        #expect(
            unknown.problem.contains(
                "TLS: the server's certificate is not signed by an authority this client trusts (the system's "
                    + "authorities); not connected; name etcd's certificate authority with CONFIG_ETCD_CA_FILE"),
            "\(unknown)")
        let refusedWrite = #expect(throws: OverrideStoreError.self) {
            try untrusting.modify { $0["x"] = OverrideEntry(value: "1") }
        }
        #expect(refusedWrite?.problem.hasSuffix("; nothing was saved") == true)
        #expect(
            try EtcdFixture.keys(under: "/tls/overrides", in: etcd).keys.sorted() == [
                "/tls/overrides/\(Fixture.FlagKey.name)"
            ])
        let sourceError = try #require(
            await ServerValuesSync(
                source: try EtcdServerValuesSource(url: etcd.url(prefix: "/tls/values"), environment: [:]),
                service: nil, snapshotURL: nil, environment: .live
            ).sync().error)
        #expect(sourceError.kind == .unreachable)
        #expect(sourceError.reason.contains("not signed by an authority this client trusts"), "\(sourceError)")
    }

    @Test("an expired certificate is refused, saying so, even when trusted")
    func expired() throws {
        let folder = TemporaryFolder()
        let pair = try TestCertificates.selfSigned(in: folder.url, name: "expired", expired: true)
        let etcd = try EtcdTestServer.start(tls: pair)
        let store = try EtcdOverrideStore(
            url: etcd.url(prefix: "/tls/expired"),
            environment: [EtcdEndpoint.certificateAuthorityVariable: pair.certificate.path])
        let error = try #require(store.reload())
        #expect(error.problem.contains("TLS: the server's certificate has expired; not connected"), "\(error)")
        #expect(store.entries.isEmpty)
    }

    @Test("a CA file that cannot be read is refused when the store is made, naming the variable and the file")
    func unreadableCAFile() {
        let missing = "/nonexistent/ca.pem"
        let error = #expect(throws: OverrideStoreError.self) {
            try EtcdOverrideStore(
                url: URL(string: "etcds://127.0.0.1:2379/x")!,
                environment: [EtcdEndpoint.certificateAuthorityVariable: missing])
        }
        #expect(error?.problem.contains("CONFIG_ETCD_CA_FILE names /nonexistent/ca.pem, which cannot be read") == true)
    }
}
