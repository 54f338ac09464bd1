import Core

/// Sends one request and returns its response, never following redirects:
/// authcode decides every hop itself (ARCHITECTURE.md, "Constraints").
package protocol Transport: AnyObject {
    /// Throws a `Failure` with exit code 3 (network) or 8 (oversized body).
    func send(_ request: HTTPRequest) throws(Failure) -> HTTPResponse
}
