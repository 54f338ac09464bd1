import Core
import HTTP

/// A Transport that answers from a script in memory and records every
/// request, so flow logic is tested without a network (the real transport
/// and servers are the end-to-end tests'). One instance may serve every
/// flow of a batch at once: the record is locked.
package final class ScriptedTransport: Transport, Sendable {
    private let sent = Lock([HTTPRequest]())
    private let script: @Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse

    /// `script` answers each request; it may throw what a real transport
    /// throws (a network failure, an oversized body).
    package init(_ script: @escaping @Sendable (HTTPRequest) throws(HTTPError) -> HTTPResponse) {
        self.script = script
    }

    /// Every request, in the order sent.
    package var requests: [HTTPRequest] { sent.withLock { $0 } }

    package func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        sent.withLock { $0.append(request) }
        return try script(request)
    }

    /// A factory handing out this one transport, for `AuthCode.run` and `TokenFlow`.
    package var factory: TransportFactory {
        { _ throws(HTTPError) in self }
    }
}
