import Core

/// Where secrets may travel: never over plain http to a host that is not this
/// machine, unless the user says `--allow-http` (ARCHITECTURE.md "Security rules"). Checked
/// before every request, so a redirect from https down to http is refused too.
package struct SecurityPolicy: Sendable {
    var allowHTTP: Bool
    /// `--connect-to` entries: plain http is only for a connection that stays
    /// on this machine, so the host really connected to must be loopback
    /// too, and no entry turns a name into "loopback". Each was read by the
    /// one parser libcurl's reading follows (ConnectTo.swift), so none is
    /// unknown here.
    var connectTo: [ConnectTo]

    package init(allowHTTP: Bool, connectTo: [ConnectTo] = []) {
        self.allowHTTP = allowHTTP
        self.connectTo = connectTo
    }

    func check(_ url: String) throws(Failure) {
        guard let reference = URIReference(url), let scheme = reference.scheme?.lowercased() else {
            throw Failure(.noAuthorizationResponse, "not a URL authcode can fetch", at: ServerText.printable(url))
        }
        guard scheme == "http" || scheme == "https" else {
            throw Failure(.noAuthorizationResponse, "cannot follow a '\(scheme):' URL", at: reference.withoutQuery)
        }
        // `http:/.//host/…` has no authority: what curl would make of it is
        // not what was checked here.
        guard let host = reference.host, !host.isEmpty else {
            throw Failure(.noAuthorizationResponse, "a \(scheme) URL without a host cannot be fetched", at: ServerText.printable(reference.withoutQuery))
        }
        guard scheme == "http" && !allowHTTP else { return }
        if !Self.isLoopback(host) {
            throw Failure(.securityCheck, "refusing plain http to '\(host)': secrets would travel unencrypted", at: reference.withoutQuery,
                          hint: "Use https, or pass --allow-http if this network is trusted.")
        }
        // libcurl takes the first CURLOPT_CONNECT_TO entry that matches.
        if let entry = connectTo.first(where: { $0.applies(host: host, port: reference.effectivePort) }),
           !Self.isLoopback(entry.destination(for: host)) {
            let target = entry.destination(for: host)
            throw Failure(.securityCheck, "refusing plain http to '\(host)': --connect-to sends it to '\(target)', which is not this machine",
                          at: reference.withoutQuery, hint: "Use https, or pass --allow-http if this network is trusted.")
        }
    }

    /// 127.0.0.0/8, ::1 and localhost (RFC 6761 §6.3) never leave the machine.
    static func isLoopback(_ host: String) -> Bool {
        let lower = host.lowercased()
        if lower == "localhost" || lower.hasSuffix(".localhost") || lower == "::1" || lower == "0:0:0:0:0:0:0:1" { return true }
        let octets = lower.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
