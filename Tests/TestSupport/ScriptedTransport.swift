import Core
import HTTP

/// A Transport that answers from a script in memory and records every
/// request, so flow logic is tested without a network (the real transport
/// and servers are the end-to-end tests'). One instance may serve every
/// flow of a batch at once: the record is locked.
package final class ScriptedTransport: Transport, Sendable {
    private let sent = Lock([HTTPRequest]())
    private let script: @Sendable (HTTPRequest) throws(Failure) -> HTTPResponse

    /// `script` answers each request; it may throw what a real transport
    /// throws (exit 3, exit 8).
    package init(_ script: @escaping @Sendable (HTTPRequest) throws(Failure) -> HTTPResponse) {
        self.script = script
    }

    /// Every request, in the order sent.
    package var requests: [HTTPRequest] { sent.withLock { $0 } }

    package func send(_ request: HTTPRequest) throws(Failure) -> HTTPResponse {
        sent.withLock { $0.append(request) }
        return try script(request)
    }

    /// A factory handing out this one transport, for `AuthCode.run` and `TokenFlow`.
    package var factory: TransportFactory {
        { _ throws(Failure) in self }
    }
}
