/// The certificates a run trusts, as found on this machine (Curl/TrustStore.swift
/// resolves the run's TrustSource to one): what the `-v` trace, an error
/// line and a hint call them. Its words are made here once, for the trace
/// and the CLI alike, with the option names the CLI hands down.
package enum TrustStoreName: Equatable, Sendable {
    /// `--cacert FILE`.
    case cacert(String)
    /// `SSL_CERT_FILE` and `SSL_CERT_DIR`, as the environment set them (at least one).
    case environment(file: String?, directory: String?)
    /// The system's hashed certificate directory.
    case systemDirectory(String)
    /// libcurl's own CA bundle, and its file when libcurl names one.
    case builtIn(file: String?)

    package func text(_ names: OptionNames) -> String {
        switch self {
        case .cacert(let path):
            "\(names.cacert) \(path)"
        case .environment(let file, let directory):
            [file.map { "SSL_CERT_FILE=\($0)" }, directory.map { "SSL_CERT_DIR=\($0)" }].compactMap { $0 }.joined(separator: " and ")
        case .systemDirectory(let directory):
            "the system's certificate directory \(directory)"
        case .builtIn(let file):
            "libcurl's built-in CA bundle" + (file.map { " \($0)" } ?? "")
        }
    }
}

/// What `-v` says, once per flow, about which certificates verify servers
/// (HTTPClient.swift asks the transport).
package enum TrustNote: Equatable, Sendable {
    /// `--insecure`: nothing is verified.
    case notVerified
    /// libcurl reads the store itself for each connection.
    case perConnection(TrustStoreName)
    /// One store for the process, made of a file read once and/or a
    /// directory looked up by subject hash.
    case sharedStore(TrustStoreName, file: Bool, directory: Bool)

    package func line(_ names: OptionNames) -> String {
        switch self {
        case .notVerified:
            return "TLS: certificates are not verified (\(names.insecure))"
        case .perConnection(let name):
            return "TLS trust: \(name.text(names)), read by libcurl for each connection"
        case .sharedStore(let name, let file, let directory):
            let how = [file ? "the file read once" : nil, directory ? "the directory looked up by subject hash" : nil].compactMap { $0 }
                .joined(separator: ", ")
            return "TLS trust: \(name.text(names)) (\(how), one store for the process)"
        }
    }
}
