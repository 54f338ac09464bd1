import Core
import HTTP

import CCurl

/// The run's trust source (HTTP/TrustSource.swift) found on this machine,
/// and the process's store for it (CCurl/trust.c): built at the first https
/// request and shared by every flow of the process, so a CA file is parsed
/// once and a hashed directory only looked up (DESIGN.md §11, "TLS trust").
struct TrustStore {
    /// What the store holds; both nil: libcurl's built-in bundle, where the
    /// system has no hashed certificate directory.
    let file: String?
    let directory: String?
    /// Where it comes from, for `-v`, errors and the `--cacert` hint.
    let name: String

    init(_ source: TrustSource) {
        switch source {
        case .cacert(let path):
            (file, directory, name) = (path, nil, "--cacert \(path)")
        case .environment(let file, let directory):
            (self.file, self.directory) = (file, directory)
            name = [file.map { "SSL_CERT_FILE=\($0)" }, directory.map { "SSL_CERT_DIR=\($0)" }].compactMap { $0 }.joined(separator: " and ")
        case .system:
            if let system = ac_system_ca_directory() {
                (file, directory, name) = (nil, String(cString: system), "the system's certificate directory \(String(cString: system))")
            } else {
                (file, directory) = (nil, nil)
                name = "libcurl's built-in CA bundle" + (ac_builtin_ca_file().map { " \(String(cString: $0))" } ?? "")
            }
        }
    }

    /// libcurl's own CA options stay as built (no store of ours).
    var isBuiltIn: Bool { file == nil && directory == nil }

    /// Whether authcode may hook libcurl's TLS context at all: libcurl's TLS
    /// library is the OpenSSL authcode links (CCurl.h).
    static let hookUsable = ac_tls_context_usable() != 0

    /// The `-v` line: which store, and how it is read.
    func note(insecure: Bool) -> String {
        if insecure { return "TLS: certificates are not verified (--insecure)" }
        if isBuiltIn { return "TLS trust: \(name), read by libcurl for each connection" }
        let how = [file.map { _ in "the file read once" }, directory.map { _ in "the directory looked up by subject hash" }]
            .compactMap { $0 }.joined(separator: ", ")
        return Self.hookUsable ? "TLS trust: \(name) (\(how), one store for the process)"
            : "TLS trust: \(name), read by libcurl for each connection"
    }

    /// The process's store for these sources, built now if this is the
    /// first https request; exit 3 at `location` when it cannot be.
    func shared(at location: String) throws(Failure) -> OpaquePointer {
        let size = 512
        let result: (OpaquePointer?, String) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { error in
            let store = ac_trust_get(file, directory, error.baseAddress, size)
            return (store, store == nil ? String(cString: error.baseAddress!) : "")
        }
        guard let store = result.0 else {
            throw Failure(.network, "TLS failed: the trust store (\(name)) cannot be used: \(result.1)", at: location)
        }
        return store
    }

    /// For an unknown issuer: where authcode looked, and what to do.
    var untrustedHint: String {
        "The server's certificate does not lead to a CA in \(name); pass the CA that signed it with --cacert FILE."
    }
}
