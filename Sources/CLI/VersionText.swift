import Core
import HTTP

/// `authcode --version`: one fact per line, so a bug report can paste it
/// and a script can pick a line.
///
///     authcode 0.1.0
///     commit 528490d1c0de
///     libcurl 7.88.1
///     OpenSSL 3.0.15
enum VersionText {
    static func text(_ versions: LibraryVersions) -> String {
        var lines = ["authcode \(Version.current)", "commit \(versions.commit)", "libcurl \(versions.curl)"]
        // libcurl writes `OpenSSL/3.0.15`; the name and version as the lines above.
        if let tls = versions.tls {
            lines.append(tls.split(separator: "/", maxSplits: 1).joined(separator: " "))
        } else {
            lines.append("TLS none")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
