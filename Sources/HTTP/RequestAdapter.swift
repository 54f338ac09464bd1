import Core

/// A last change to each request before it is sent (a DPoP proof, a
/// refreshed credential, a header only some origins may see), and a
/// decision after each response: done, or send again once. `HTTPClient`
/// calls its adapters in order for every request of a flow.
package protocol RequestAdapter: AnyObject {
    func adapt(_ request: inout HTTPRequest) throws(Failure)
    /// Whether to send the (adapted again) request once more; the default
    /// is never.
    func shouldRetry(_ request: HTTPRequest, after response: HTTPResponse) -> Bool
}

extension RequestAdapter {
    package func shouldRetry(_ request: HTTPRequest, after response: HTTPResponse) -> Bool { false }
}
