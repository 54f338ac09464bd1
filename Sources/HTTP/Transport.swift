import Core

/// Sends one request and returns its response, never following redirects:
/// authcode decides every hop itself (ARCHITECTURE.md, "Constraints").
package protocol Transport: AnyObject {
    /// Throws a `Failure` with exit code 3 (network) or 8 (oversized body).
    func send(_ request: HTTPRequest) throws(Failure) -> HTTPResponse
    /// Which certificates verify https servers, for `-v` (nil: nothing to say).
    var trustNote: String? { get }
}

extension Transport {
    package var trustNote: String? { nil }
}

/// Makes the transport of one flow, with the run's connection settings.
/// The executable passes libcurl's (Curl/CurlTransport.swift); tests pass
/// their own. Sendable: a batch calls it from each worker thread.
package typealias TransportFactory = @Sendable (TransportSettings) throws(Failure) -> any Transport
