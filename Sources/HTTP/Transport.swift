import Core

/// Sends one request and returns its response, never following redirects:
/// authcode decides every hop itself (ARCHITECTURE.md, "Constraints").
package protocol Transport: AnyObject {
    /// Throws the network failure, or an answer that cannot be read
    /// (an oversized body, a malformed header section).
    func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse
    /// Which certificates verify https servers, for `-v` (nil: nothing to say).
    var trustNote: TrustNote? { get }
}

extension Transport {
    package var trustNote: TrustNote? { nil }
}

/// Makes the transport of one flow, with the run's connection settings.
/// The executable passes libcurl's (Curl/CurlTransport.swift); tests pass
/// their own. Sendable: a batch calls it from each worker thread.
package typealias TransportFactory = @Sendable (TransportSettings) throws(HTTPError) -> any Transport
