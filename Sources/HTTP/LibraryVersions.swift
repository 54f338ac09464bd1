/// What the binary runs on, for `--version`: the libraries as loaded at run
/// time (a distribution updates them under us) and the commit it was built
/// from. The executable fills it from the libraries it links
/// (Curl/LibraryVersions+Loaded.swift); tests and other callers see
/// "unknown".
package struct LibraryVersions: Sendable, Equatable {
    /// A commit hash, or `unknown` for a build outside the Makefile or git.
    package var commit: String
    /// `7.88.1`.
    package var curl: String
    /// `OpenSSL/3.0.15` as libcurl names it; nil for a libcurl without TLS.
    package var tls: String?

    package init(commit: String = "unknown", curl: String = "unknown", tls: String? = nil) {
        self.commit = commit
        self.curl = curl
        self.tls = tls
    }
}
