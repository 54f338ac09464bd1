import Core
import HTTP

import CCurl

/// The run's trust source (HTTP/TrustSource.swift) found on this machine,
/// and the process's store for it (CCurl/trust.c): built at the first https
/// request and shared by every flow of the process, so a CA file is parsed
/// once and a hashed directory only looked up (ARCHITECTURE.md "TLS trust").
struct TrustStore {
    /// What the store holds; both nil: libcurl's built-in bundle, where the
    /// system has no hashed certificate directory.
    let file: String?
    let directory: String?
    /// Where it comes from, for `-v`, errors and the hint of an unknown
    /// issuer (HTTP/TrustStoreName.swift words it).
    let name: TrustStoreName

    init(_ source: TrustSource) {
        switch source {
        case .cacert(let path):
            (file, directory, name) = (path, nil, .cacert(path))
        case .environment(let file, let directory):
            (self.file, self.directory) = (file, directory)
            name = .environment(file: file, directory: directory)
        case .system:
            if let system = ac_system_ca_directory() {
                (file, directory, name) = (nil, String(cString: system), .systemDirectory(String(cString: system)))
            } else {
                (file, directory) = (nil, nil)
                name = .builtIn(file: ac_builtin_ca_file().map { String(cString: $0) })
            }
        }
    }

    /// libcurl's own CA options stay as built (no store of ours).
    var isBuiltIn: Bool { file == nil && directory == nil }

    /// Whether authcode may hook libcurl's TLS context at all: libcurl's TLS
    /// library is the OpenSSL authcode links (CCurl.h).
    static let hookUsable = ac_tls_context_usable() != 0

    /// The `-v` line: which store, and how it is read.
    func note(insecure: Bool) -> TrustNote {
        if insecure { return .notVerified }
        if isBuiltIn || !Self.hookUsable { return .perConnection(name) }
        return .sharedStore(name, file: file != nil, directory: directory != nil)
    }

    /// The process's store for these sources, built now if this is the
    /// first https request; refused at `location` (the request's URL
    /// without its query) when it cannot be.
    func shared(at location: String) throws(HTTPError) -> OpaquePointer {
        let size = 512
        let result: (OpaquePointer?, String) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { error in
            let store = ac_trust_get(file, directory, error.baseAddress, size)
            return (store, store == nil ? String(cString: error.baseAddress!) : "")
        }
        guard let store = result.0 else {
            throw .trustStoreUnusable(name, reason: result.1, url: location)
        }
        return store
    }
}
