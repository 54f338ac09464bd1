import Core

/// Which certificates verify the servers of a run (ARCHITECTURE.md "TLS
/// trust"), in order: `--cacert`; else OpenSSL's `SSL_CERT_FILE` and
/// `SSL_CERT_DIR` as the environment sets them (curl's tool reads them
/// too); else the system's own store, which the transport finds on the
/// machine (Curl/TrustStore.swift). Read like ProxySettings reads proxies.
package enum TrustSource: Equatable, Sendable {
    case cacert(String)
    /// At least one of the two is set.
    case environment(file: String?, directory: String?)
    case system

    static let variableNames = ["SSL_CERT_FILE", "SSL_CERT_DIR"]

    /// The variables of the environment that choose a store, as set.
    package static func variables(in environment: [String: String]) -> [String: String] {
        environment.filter { variableNames.contains($0.key) }
    }

    /// A variable set to "" counts as unset, as an empty path names nothing.
    package init(cacert: String?, environment: [String: String]) {
        if let cacert {
            self = .cacert(cacert)
            return
        }
        let file = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        let directory = environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        self = file == nil && directory == nil ? .system : .environment(file: file, directory: directory)
    }
}
