import Foundation
import Testing

/// Which certificates verify a server (ARCHITECTURE "TLS trust";
/// Sources/CCurl/trust.c): `--cacert`, else SSL_CERT_FILE / SSL_CERT_DIR,
/// else the system's hashed directory, looked up and never the bundle file
/// parsed. The https fixture's CA is added to private copies of the
/// system's directory and bundle; files opened are counted with strace.
@Suite("TLS trust store: cacert, SSL_CERT_FILE/DIR, the system's directory")
struct TrustStoreTests {
    /// The system's hashed directory and bundle on Debian (ca-certificates).
    static let systemDirectory = "/etc/ssl/certs"
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    /// A private copy of the system's certificates in OpenSSL's hashed
    /// layout (`openssl rehash`), with the test CA or without it.
    static func hashedCopy(with ca: String?) throws -> String {
        let directory = NSTemporaryDirectory() + "authcode-certs-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: systemDirectory) where name.hasSuffix(".pem") {
            try FileManager.default.copyItem(atPath: "\(systemDirectory)/\(name)", toPath: "\(directory)/\(name)")
        }
        if let ca { try FileManager.default.copyItem(atPath: ca, toPath: "\(directory)/authcode-test-ca.pem") }
        try tool("/usr/bin/env", ["openssl", "rehash", directory])
        return directory
    }

    /// The system bundle with the test CA at its end, as a distribution's
    /// bundle with a company CA added looks.
    static func bundleCopy(with ca: String) throws -> TempFile {
        try TempFile(String(contentsOfFile: systemBundle, encoding: .utf8) + String(contentsOfFile: ca, encoding: .utf8))
    }

    @discardableResult
    static func tool(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HarnessError("\(arguments.first ?? executable) failed: \(String(decoding: data, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// authcode under `strace -f`, its file opens written to a log: the
    /// run's result and every path it opened (successfully or not).
    static func traced(_ arguments: [String], env: [String: String]) async throws -> (RunResult, [String]) {
        let strace = try #require(["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "strace is needed (make test installs it)")
        let binary = try Paths.binary.get()
        let log = NSTemporaryDirectory() + "authcode-strace-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let result = try await run(["-f", "-qq", "-e", "trace=open,openat,openat2", "-o", log, binary] + arguments,
                                   env: env, executable: strace)
        let opened = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            guard let start = line.firstIndex(of: "\""), let end = line[line.index(after: start)...].firstIndex(of: "\"") else { return nil }
            return String(line[line.index(after: start)..<end])
        }
        return (result, opened)
    }

    /// The test CA in a private copy of the system's directory, named by
    /// SSL_CERT_DIR: accepted, and `-v` says which store.
    @Test func aCAInTheHashedDirectoryIsTrusted() async throws {
        let tls = try await TLSServers.shared.servers()
        let directory = try Self.hashedCopy(with: "\(tls.pki)/ca.pem")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try await run(TLSTests.flow(tls.good) + ["-v"], env: Fixture.demoSecretEnv.merging(["SSL_CERT_DIR": directory]) { $1 })
        expectTokenJSON(result)
        #expect(result.stderr.contains("* TLS trust: SSL_CERT_DIR=\(directory) (the directory looked up by subject hash, one store for the process)\n"),
                "\(result)")
    }

    /// The same directory without the test CA: refused, with the store
    /// named and the `--cacert` hint.
    @Test func aCANotInTheDirectoryIsRefusedWithTheHint() async throws {
        let tls = try await TLSServers.shared.servers()
        let directory = try Self.hashedCopy(with: nil)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try await run(TLSTests.flow(tls.good), env: Fixture.demoSecretEnv.merging(["SSL_CERT_DIR": directory]) { $1 })
        expectFailure(result, exit: 3, ["TLS failed", "unable to get local issuer certificate", "/authorize"])
        #expect(result.stderr.hasSuffix("\nThe server's certificate does not lead to a CA in SSL_CERT_DIR=\(directory); "
                                        + "pass the CA that signed it with --cacert FILE (or, for a throwaway test server, -k, which verifies nothing).\n"), "\(result)")
    }

    /// A default run on a system with a hashed /etc/ssl/certs looks the
    /// issuer up there and never opens the bundle file; the fixture's CA is
    /// not the system's, so the run is refused with the hint.
    @Test func aDefaultRunLooksUpTheSystemDirectoryAndNeverOpensTheBundle() async throws {
        let tls = try await TLSServers.shared.servers()
        try #require(FileManager.default.fileExists(atPath: Self.systemBundle), "this test needs Debian's ca-certificates")
        let (result, opened) = try await Self.traced(TLSTests.flow(tls.good), env: Fixture.demoSecretEnv)
        expectFailure(result, exit: 3, ["unable to get local issuer certificate"])
        #expect(result.stderr.contains("\nThe server's certificate does not lead to a CA in the system's certificate directory "
                                       + "\(Self.systemDirectory); pass the CA that signed it with --cacert FILE (or, for a throwaway test server, -k, which verifies nothing).\n"), "\(result)")
        #expect(opened.contains(Self.systemDirectory), "\(opened)")
        #expect(!opened.contains { $0.hasSuffix(".crt") || $0.hasSuffix("/cert.pem") }, "a bundle file was opened: \(opened)")
    }

    /// SSL_CERT_FILE naming a bundle that holds the test CA: accepted; in a
    /// batch the file is opened once for the process, not once per user.
    @Test func aBundleFromTheEnvironmentIsReadOncePerBatch() async throws {
        let tls = try await TLSServers.shared.servers()
        let bundle = try Self.bundleCopy(with: "\(tls.pki)/ca.pem")
        let users = try TempFile(BatchTests.csv(1...6))
        let fx = Fixture(base: tls.good, run: "tls-bundle-\(UUID().uuidString.prefix(8))")
        let (result, opened) = try await Self.traced(fx.publicClient("users") + ["--users", users.path, "--parallel", "3"],
                                                     env: ["SSL_CERT_FILE": bundle.path])
        #expect(result.exitCode == 0, "\(result)")
        #expect(BatchTests.lines(result).compactMap { $0["token"] }.count == 6, "\(result)")
        #expect(opened.filter { $0 == bundle.path }.count == 1, "\(opened.filter { $0.contains("authcode-e2e") })")
    }

    /// `--cacert` wins over SSL_CERT_FILE and SSL_CERT_DIR: with both naming
    /// stores that lack the test CA, `--cacert` with it is enough.
    @Test func cacertWinsOverTheEnvironment() async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(TLSTests.flow(tls.good) + ["--cacert", "\(tls.pki)/ca.pem", "-v"],
                                   env: Fixture.demoSecretEnv.merging(["SSL_CERT_FILE": Self.systemBundle, "SSL_CERT_DIR": Self.systemDirectory]) { $1 })
        expectTokenJSON(result)
        #expect(result.stderr.contains("* TLS trust: --cacert \(tls.pki)/ca.pem (the file read once, one store for the process)\n"), "\(result)")
    }

    /// A variable naming something that holds no certificate is exit 3 at
    /// the first https request, saying which store and why; never a crash
    /// and never a silent fallback to another store.
    @Test(arguments: [("SSL_CERT_FILE", "/etc/hostname", "no CA certificate could be read from /etc/hostname"),
                      ("SSL_CERT_FILE", "/nonexistent/bundle.pem", "no CA certificate could be read from /nonexistent/bundle.pem"),
                      ("SSL_CERT_DIR", "/nonexistent/certs", "/nonexistent/certs is not a directory")])
    func aStoreThatCannotBeReadIsANetworkError(variable: String, value: String, reason: String) async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(TLSTests.flow(tls.good), env: Fixture.demoSecretEnv.merging([variable: value]) { $1 })
        expectFailure(result, exit: 3, ["TLS failed: the trust store (\(variable)=\(value)) cannot be used: \(reason) (https://"])
    }

    /// `-k` needs no store at all: a broken SSL_CERT_FILE does not matter.
    @Test func insecureReadsNoStore() async throws {
        let tls = try await TLSServers.shared.servers()
        let result = try await run(TLSTests.flow(tls.good) + ["-k", "-v"], env: Fixture.demoSecretEnv.merging(["SSL_CERT_FILE": "/nonexistent"]) { $1 })
        expectTokenJSON(result)
        #expect(result.stderr.contains("* TLS: certificates are not verified (--insecure)\n"), "\(result)")
    }
}
