import HTTP

import CCurl

extension LibraryVersions {
    /// libcurl and its TLS library as loaded now, and the commit the
    /// Makefile baked in (CCurl/shim.c).
    package static var loaded: LibraryVersions {
        LibraryVersions(commit: String(cString: ac_build_commit()),
                        curl: ac_curl_version().map { String(cString: $0) } ?? "unknown",
                        tls: ac_curl_ssl_version().map { String(cString: $0) })
    }
}
