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
        (TrustSource.cacert("/etc/hostname"), TrustStoreName.cacert("/etc/hostname"), "no CA certificate could be read from /etc/hostname"),
        (.environment(file: nil, directory: "/etc/ssl/certs:/nonexistent"), .environment(file: nil, directory: "/etc/ssl/certs:/nonexistent"),
         "/nonexistent is not a directory"),
        (.environment(file: "/etc/hostname", directory: "/etc/ssl/certs"), .environment(file: "/etc/hostname", directory: "/etc/ssl/certs"),
         "no CA certificate could be read from /etc/hostname"),
    ])
    func aStoreThatCannotBeBuiltSaysWhy(source: TrustSource, name: TrustStoreName, reason: String) {
        #expect(throws: HTTPError.trustStoreUnusable(name, reason: reason, url: "https://as.example/authorize")) {
            try TrustStore(source).shared(at: "https://as.example/authorize")
        }
    }

    /// On this Debian machine the system's store is the hashed directory.
    @Test func theSystemStoreIsTheHashedDirectory() {
        let store = TrustStore(.system)
        #expect(store.directory == "/etc/ssl/certs" && store.file == nil)
        #expect(store.note(insecure: false) == .sharedStore(.systemDirectory("/etc/ssl/certs"), file: false, directory: true))
        #expect(store.note(insecure: true) == .notVerified)
    }
}
