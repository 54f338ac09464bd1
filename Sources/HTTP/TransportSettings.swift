import Core

/// Connection settings that apply to every request of a run.
package struct TransportSettings: Equatable, Sendable {
    package var timeout: Double = 30
    package var connectTimeout: Double = 10
    package var cacert: String?
    /// OpenSSL's SSL_CERT_FILE and SSL_CERT_DIR as the environment sets them.
    package var certificateVariables: [String: String] = [:]
    /// Which certificates verify servers (TrustSource.swift): `--cacert`,
    /// else those variables, else the system's; `insecure` skips them.
    package var trust: TrustSource { TrustSource(cacert: cacert, environment: certificateVariables) }
    package var insecure = false
    package var cert: String?
    package var key: String?
    package var connectTo: [ConnectTo] = []
    /// A batch's flows share TLS sessions and DNS answers (never
    /// connections or cookies): each user's connection resumes a session
    /// instead of a full handshake. One flow on its own shares nothing.
    package var sharesSessions = false
    /// Decides the proxy of every request (ProxySettings.swift).
    package var proxy = ProxySettings()
    /// Bodies over this size end the run with exit 8 instead of eating memory.
    package var maxBodyBytes = 4 << 20
    package var userAgent = "authcode/\(Version.current)"

    package init() {}
}
