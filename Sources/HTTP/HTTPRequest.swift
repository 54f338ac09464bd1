import Core

/// A request as authcode means to send it. The URL is a string because it is
/// sent exactly as built: no Foundation normalisation in between.
package struct HTTPRequest: Equatable, Sendable {
    package var method: HTTPMethod
    package var url: String
    package var headers: [HTTPHeader]
    package var body: [UInt8]?
    /// The user's credential this request carries, if any: it may go only
    /// to a trusted origin (OriginPolicy.swift).
    package var credential: CarriedCredential?

    package init(method: HTTPMethod, url: String, headers: [HTTPHeader] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A form POST (`application/x-www-form-urlencoded`).
    package static func form(_ method: HTTPMethod = .post, url: String, fields: [(String, String)], headers: [HTTPHeader] = []) -> HTTPRequest {
        var all = headers
        all.append(HTTPHeader("Content-Type", "application/x-www-form-urlencoded"))
        return HTTPRequest(method: method, url: url, headers: all, body: Array(FormEncoding.encode(fields).utf8))
    }
}
