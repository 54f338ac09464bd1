import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import CLI

extension HTTPRequest {
    var path: String { URIReference(url)?.path ?? "" }
    var query: [String: String] { formFields(URIReference(url)?.query ?? "") }
    /// The body's form fields (empty for other bodies).
    var form: [String: String] {
        guard headers.first(named: "Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true, let body else { return [:] }
        return formFields(String(decoding: body, as: UTF8.self))
    }
    /// The body as a JSON object (empty for other bodies).
    var json: [String: Any] { body.flatMap { jsonObject(String(decoding: $0, as: UTF8.self)) } ?? [:] }
    func header(_ name: String) -> String? { headers.first(named: name) }
    /// The cookies the request carries, by name (the first of a name wins).
    var cookies: [String: String] {
        var found: [String: String] = [:]
        for piece in (header("Cookie") ?? "").split(separator: ";") {
            let parts = piece.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if found[String(parts[0])] == nil { found[String(parts[0])] = parts.count > 1 ? String(parts[1]) : "" }
        }
        return found
    }
}

extension HTTPResponse {
    static func redirect(_ location: String, status: Int = 302, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Location", location)] + headers)
    }

    static func html(_ page: String, status: Int = 200, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")] + headers, body: Array(page.utf8))
    }

    static func json(_ text: String, status: Int = 200, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }

    static func text(_ text: String, status: Int, type: String = "text/plain") -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", type)], body: Array(text.utf8))
    }
}
