import HTTP

/// How every request of a flow travels: libcurl's settings (timeouts, TLS,
/// `--connect-to`, the proxy), the `-H` headers and the plain-http rule.
package struct ConnectionSettings: Equatable, Sendable {
    /// Handed to the transport factory as they are (Curl/CurlTransport.swift).
    package var transport = TransportSettings()
    /// `-H`, sent to trusted origins only (HTTP/OriginPolicy.swift).
    package var headers: [HTTPHeader] = []
    package var allowHTTP = false

    package init() {}

    /// Checked before each request (HTTP/SecurityPolicy.swift): every hop
    /// the transport takes — `--connect-to`, the proxy — is the one checked.
    package var policy: SecurityPolicy {
        SecurityPolicy(allowHTTP: allowHTTP, connectTo: transport.connectTo, proxy: transport.proxy)
    }
}
