import Testing
import TestSupport
@testable import HTTP

/// How the `-v` trace and the CLI's error lines name a run's certificates
/// (HTTP/TrustStoreName.swift), with the option names the CLI hands down.
struct TrustStoreNameTests {
    /// Each kind of store.
    @Test(arguments: [
        (TrustStoreName.cacert("/ci/ca.pem"), "--cacert /ci/ca.pem"),
        (.environment(file: nil, directory: "/etc/ssl/certs:/nonexistent"), "SSL_CERT_DIR=/etc/ssl/certs:/nonexistent"),
        (.environment(file: "/etc/hostname", directory: "/etc/ssl/certs"), "SSL_CERT_FILE=/etc/hostname and SSL_CERT_DIR=/etc/ssl/certs"),
        (.systemDirectory("/etc/ssl/certs"), "the system's certificate directory /etc/ssl/certs"),
        (.builtIn(file: "/etc/pki/tls/certs/ca-bundle.crt"), "libcurl's built-in CA bundle /etc/pki/tls/certs/ca-bundle.crt"),
        (.builtIn(file: nil), "libcurl's built-in CA bundle"),
    ])
    func storeNames(name: TrustStoreName, text: String) {
        #expect(name.text(.standard) == text)
    }

    @Test func trustNotes() {
        #expect(TrustNote.notVerified.line(.standard) == "TLS: certificates are not verified (--insecure)")
        #expect(TrustNote.perConnection(.builtIn(file: nil)).line(.standard) == "TLS trust: libcurl's built-in CA bundle, read by libcurl for each connection")
        #expect(TrustNote.sharedStore(.cacert("/ci/ca.pem"), file: true, directory: false).line(.standard)
                == "TLS trust: --cacert /ci/ca.pem (the file read once, one store for the process)")
        #expect(TrustNote.sharedStore(.environment(file: "/a.pem", directory: "/d"), file: true, directory: true).line(.standard)
                == "TLS trust: SSL_CERT_FILE=/a.pem and SSL_CERT_DIR=/d (the file read once, the directory looked up by subject hash, one store for the process)")
    }
}
