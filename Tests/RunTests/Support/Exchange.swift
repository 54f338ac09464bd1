@testable import HTTP

/// An authorization request the server accepted and has not answered yet.
struct Pending: Sendable {
    var clientID: String
    var redirectURI: String
    var state: String?
    var nonce: String?
    var scope: String
    var challenge: String?
    var challengeMethod: String?
    var responseMode: String
    var txn: String
}

/// One request as the server sees it.
struct Exchange {
    let request: HTTPRequest
    var path: String { request.path }
    var method: String { request.method.rawValue }
    var query: [String: String] { request.query }
    var form: [String: String] { request.form }
    /// The query of a GET, the form of a POST.
    var params: [String: String] { method == "GET" ? query : form }
    var cookies: [String: String] { request.cookies }
}
