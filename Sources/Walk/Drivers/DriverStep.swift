import HTTP

/// Where the walk goes on after a driver has done its part.
package enum DriverStep {
    /// The walk sends this next, as a hop (the authorization endpoint again,
    /// now with a session; a form the provider answers with; its success
    /// redirect), and the redirect_uri test applies to it and to its answer.
    case send(HTTPRequest)
    /// The driver sent the last request itself (DriverSession.send); the
    /// walk goes on from that answer as if it had sent it: a 302 to the
    /// redirect_uri, a federated provider's HTML login page.
    case received(HTTPResponse, for: HTTPRequest)
    /// Not a page this driver needs to handle: the generic HTML walk takes it.
    case generic
}
