import Core

/// A last change to each request before it is sent (a DPoP proof, a
/// refreshed credential, a header only some origins may see), or a refusal.
/// `HTTPClient` calls its adapters in order for every request of a flow.
/// An adapter never sends: a request that must go again is sent again
/// through `HTTPClient.send`, so that it passes the policy, every adapter
/// and the trace like the first.
package protocol RequestAdapter: AnyObject {
    func adapt(_ request: inout HTTPRequest) throws(HTTPError)
}
