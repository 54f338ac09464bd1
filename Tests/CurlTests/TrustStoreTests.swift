import Testing
@testable import Core
@testable import HTTP
@testable import Curl

/// The process's certificate stores (Curl/TrustStore.swift over
/// CCurl/trust.c), without a server.
struct TrustStoreTests {
    /// One store per set of sources for the process: asking again returns
    /// the same one, never a second parse.
    @Test func oneStorePerProcess() throws {
        let store = TrustStore(.environment(file: "/etc/ssl/certs/ca-certificates.crt", directory: nil))
        let first = try store.shared(at: "https://as.example/")
        let second = try TrustStore(.environment(file: "/etc/ssl/certs/ca-certificates.crt", directory: nil)).shared(at: "https://b.example/")
        #expect(first == second)
        let other = try TrustStore(.environment(file: nil, directory: "/etc/ssl/certs")).shared(at: "https://as.example/")
        #expect(other != first)
    }

    @Test(arguments: [
        (TrustSource.cacert("/etc/hostname"), "--cacert /etc/hostname", "no CA certificate could be read from /etc/hostname"),
        (.environment(file: nil, directory: "/etc/ssl/certs:/nonexistent"), "SSL_CERT_DIR=/etc/ssl/certs:/nonexistent",
         "/nonexistent is not a directory"),
        (.environment(file: "/etc/hostname", directory: "/etc/ssl/certs"), "SSL_CERT_FILE=/etc/hostname and SSL_CERT_DIR=/etc/ssl/certs",
         "no CA certificate could be read from /etc/hostname"),
    ])
    func aStoreThatCannotBeBuiltSaysWhy(source: TrustSource, name: String, reason: String) {
        do throws(Failure) {
            _ = try TrustStore(source).shared(at: "https://as.example/authorize")
            Issue.record("\(source) was accepted")
        } catch {
            #expect(error.exitCode == .network)
            #expect(error.message == "TLS failed: the trust store (\(name)) cannot be used: \(reason)")
            #expect(error.location == "https://as.example/authorize")
        }
    }

    /// On this Debian machine the system's store is the hashed directory.
    @Test func theSystemStoreIsTheHashedDirectory() {
        let store = TrustStore(.system)
        #expect(store.directory == "/etc/ssl/certs" && store.file == nil)
        #expect(store.note(insecure: false)
                == "TLS trust: the system's certificate directory /etc/ssl/certs (the directory looked up by subject hash, one store for the process)")
    }
}
