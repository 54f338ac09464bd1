import Testing
@testable import HTTP

/// Which certificates a run trusts (HTTP/TrustSource.swift): `--cacert`,
/// else OpenSSL's variables, else the system's store.
struct TrustSourceTests {
    @Test func cacertWinsOverTheEnvironment() {
        let source = TrustSource(cacert: "/ca.pem", environment: ["SSL_CERT_FILE": "/bundle.pem", "SSL_CERT_DIR": "/certs"])
        #expect(source == .cacert("/ca.pem"))
    }

    @Test(arguments: [
        (["SSL_CERT_FILE": "/bundle.pem"], TrustSource.environment(file: "/bundle.pem", directory: nil)),
        (["SSL_CERT_DIR": "/certs"], .environment(file: nil, directory: "/certs")),
        (["SSL_CERT_FILE": "/bundle.pem", "SSL_CERT_DIR": "/certs"], .environment(file: "/bundle.pem", directory: "/certs")),
        // set but empty names nothing
        (["SSL_CERT_FILE": "", "SSL_CERT_DIR": "/certs"], .environment(file: nil, directory: "/certs")),
        (["SSL_CERT_FILE": "", "SSL_CERT_DIR": ""], .system),
        // curl's and others' variables are not OpenSSL's
        (["CURL_CA_BUNDLE": "/bundle.pem", "ssl_cert_file": "/x"], .system),
        ([:], .system),
    ])
    func environmentThenSystem(environment: [String: String], expected: TrustSource) {
        #expect(TrustSource(cacert: nil, environment: environment) == expected)
    }
}
