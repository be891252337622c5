public import Foundation

/// Certificates made by the tests with the `openssl` command (`scripts/setup-debian` installs it): a self-signed
/// certificate and its key, which a client trusts by naming the certificate as its CA file.
///
/// ```swift
/// let good = try TestCertificates.selfSigned(in: folder)                       // for 127.0.0.1, valid 2 days
/// let expired = try TestCertificates.selfSigned(in: folder, name: "old", expired: true)
/// ```
public enum TestCertificates {
    /// A certificate and its private key, PEM files.
    public struct Pair: Sendable {
        /// The certificate (also the CA file that trusts it).
        public var certificate: URL
        /// The private key, unencrypted.
        public var key: URL
    }

    /// A self-signed certificate for `subjectAltName` (`IP:127.0.0.1`), valid from now for two days, or valid only on
    /// 1 January 2020 when `expired`.
    public static func selfSigned(
        in folder: URL, name: String = "server", subjectAltName: String = "IP:127.0.0.1", expired: Bool = false
    ) throws -> Pair {
        let pair = Pair(
            certificate: folder.appendingPathComponent("\(name).crt"), key: folder.appendingPathComponent("\(name).key")
        )
        if !expired {
            try openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=\(subjectAltName)", "-keyout", pair.key.path, "-out", pair.certificate.path,
            ])
            return pair
        }
        // `openssl req -x509` cannot date a certificate in the past; `openssl ca -selfsign` can.
        let ca = folder.appendingPathComponent("\(name)-ca")
        try FileManager.default.createDirectory(at: ca, withIntermediateDirectories: true)
        try Data().write(to: ca.appendingPathComponent("index.txt"))
        try Data("01\n".utf8).write(to: ca.appendingPathComponent("serial"))
        let configuration = ca.appendingPathComponent("openssl.cnf")
        try Data(
            """
            [ ca ]
            default_ca = test
            [ test ]
            database = \(ca.path)/index.txt
            new_certs_dir = \(ca.path)
            serial = \(ca.path)/serial
            default_md = sha256
            policy = anything
            unique_subject = no
            [ anything ]
            commonName = supplied
            [ req ]
            distinguished_name = dn
            prompt = no
            [ dn ]
            CN = 127.0.0.1
            [ server ]
            subjectAltName = \(subjectAltName)
            basicConstraints = critical,CA:TRUE

            """.utf8
        ).write(to: configuration)
        let request = ca.appendingPathComponent("request.csr")
        try openssl([
            "req", "-new", "-newkey", "rsa:2048", "-nodes", "-config", configuration.path, "-keyout", pair.key.path,
            "-out", request.path,
        ])
        try openssl([
            "ca", "-batch", "-selfsign", "-config", configuration.path, "-keyfile", pair.key.path, "-in", request.path,
            "-out", pair.certificate.path, "-startdate", "20200101000000Z", "-enddate", "20200102000000Z",
            "-extensions", "server",
        ])
        return pair
    }

    private static func openssl(_ arguments: [String]) throws {
        guard
            let binary = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw FixtureError("openssl is not installed (scripts/setup-debian installs it)")
        }
        let run = try ChildProcess.run(binary, arguments, standardOutput: .discard)
        guard run.status == 0 else {
            throw FixtureError("openssl \(arguments.prefix(2).joined(separator: " ")) failed: " + run.error.suffix(400))
        }
    }
}
