import Core
import HTTP

/// Glewlwyd's login API (`/api/auth/…`, `/api/profile/…`) as its login app
/// calls it: JSON bodies, the session in the `GLEWLWYD2_SESSION_ID` cookie
/// the walk's jar keeps. Every call is one hop of the walk.
struct GlewlwydAPI {
    let session: DriverSession
    let page: GlewlwydLoginPage

    /// What the login app shows when the API answers 401, which Glewlwyd
    /// sends with an empty body for a wrong password, code or passkey
    /// (Fixtures/glewlwyd/README.md, "Second factors").
    static let authenticationError = "Authentication error"

    func url(_ path: String) -> String { page.apiBase + path }

    /// Sends one call; `credential`: the body holds the user's password, a
    /// one-time code or a passkey's answer, so it goes to a trusted origin only.
    func call(_ method: HTTPMethod, _ path: String, _ body: JSONValue? = nil, step: String,
              credential: Bool = false) throws(DriverError) -> HTTPResponse {
        var request = HTTPRequest(method: method, url: url(path))
        if let body {
            request.headers.append(HTTPHeader("Content-Type", "application/json"))
            request.body = Array(JSONText.serialize(body).utf8)
        }
        if credential { request.credential = .filledForm }
        return try session.send(request, step: step)
    }

    /// A call whose success is 200; 401 is the login app's "Authentication
    /// error"; another status is named with Glewlwyd's text when it sent one
    /// (a JSON list of messages, or a short plain text such as
    /// `bad scheme response`).
    func expectOK(_ response: HTTPResponse, _ path: String) throws(DriverError) {
        if response.status == 200 { return }
        let place = Walker.place(url(path))
        if response.status == 401 {
            throw .loginRejected(provider: .glewlwyd, text: Self.authenticationError, at: place)
        }
        if let text = Self.serverText(response) {
            throw .loginRejected(provider: .glewlwyd, text: text, at: place)
        }
        throw .pageUnknown(provider: .glewlwyd, saw: "a \(response.status) answer of \(response.body.count) bytes", at: place)
    }

    /// Glewlwyd's own words in an error answer: the strings of a JSON array
    /// (`["authData.rpIdHash invalid"]`), or a one-line text body.
    static func serverText(_ response: HTTPResponse) -> String? {
        guard !response.body.isEmpty, response.body.count <= 512 else { return nil }
        if case .array(let items)? = JSONValue.parse(response.body) {
            let texts = items.compactMap(\.stringValue)
            return texts.isEmpty ? nil : texts.joined(separator: "; ")
        }
        let text = response.text
        guard !text.contains("<"), !text.contains("\n"), !text.contains("{") else { return nil }
        return text
    }

    /// The answer as a JSON object, or what came instead.
    func object(_ response: HTTPResponse, _ path: String) throws(DriverError) -> [String: JSONValue] {
        let place = Walker.place(url(path))
        guard case .object(let members) = try session.json(response, at: place) else {
            throw .pageUnknown(provider: .glewlwyd, saw: "a \(response.status) answer that is not a JSON object", at: place)
        }
        return members
    }
}
