import CCurl

/// What this binary runs on, for `--version`: libcurl and its TLS library
/// as loaded at run time (a distribution updates them under us), and the
/// commit it was built from.
package enum LibraryVersions {
    /// `7.88.1`.
    package static var curl: String {
        ac_curl_version().map { String(cString: $0) } ?? "unknown"
    }

    /// `OpenSSL/3.0.15` as libcurl names it; nil for a libcurl without TLS.
    package static var tls: String? {
        ac_curl_ssl_version().map { String(cString: $0) }
    }

    /// A commit hash, or `unknown` for a build outside the Makefile or git.
    package static var commit: String {
        String(cString: ac_build_commit())
    }
}
