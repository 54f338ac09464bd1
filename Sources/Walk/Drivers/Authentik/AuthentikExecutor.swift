import Core
import HTTP

/// The flow executor API as authentik's web client calls it: GET the
/// current stage's challenge, POST JSON `{component, …}` to answer it with
/// the CSRF header Django's SessionAuthentication wants (`X-authentik-CSRF`,
/// the `authentik_csrf` cookie's value); a passed stage answers 302 back to
/// the executor, which `fetch` follows with a GET (authentik.md, "State
/// machine"). Every request is one hop of the walk.
struct AuthentikExecutor {
    let session: DriverSession
    let url: String

    var place: String { Walker.place(url) }

    func challenge(step: String) throws(DriverError) -> AuthentikChallenge {
        try read(try following(try session.send(HTTPRequest(method: .get, url: url), step: step)))
    }

    /// Answers the stage; `credential`: the body holds a password, a code or
    /// a passkey's answer. Returns the next challenge.
    func answer(_ component: String, _ members: [String: JSONValue], step: String, credential: Bool = false) throws(DriverError) -> AuthentikChallenge {
        var body = members
        body["component"] = .string(component)
        var request = HTTPRequest(method: .post, url: url, headers: [HTTPHeader("Content-Type", "application/json")],
                                  body: Array(JSONText.serialize(.object(body)).utf8))
        if let csrf = session.cookie(named: "authentik_csrf", for: url) {
            session.remember(secret: csrf)
            request.headers.append(HTTPHeader("X-authentik-CSRF", csrf))
        }
        if credential { request.credential = .filledForm }
        return try read(try following(try session.send(request, step: step)))
    }

    /// A stage that passes answers 302 back to the executor, a POST's and a
    /// GET's alike (a stage that asks nothing passes on the GET); `fetch`
    /// follows each, and so does this, one hop each.
    private func following(_ first: HTTPResponse) throws(DriverError) -> HTTPResponse {
        var response = first
        var from = url
        while response.isRedirect {
            guard let location = response.headers.first(named: "Location"), let next = URIReference(location),
                  let base = URIReference(from) else {
                throw .pageUnknown(provider: .authentik, saw: "a \(response.status) answer without a Location", at: place)
            }
            from = next.resolved(against: base).text
            response = try session.send(HTTPRequest(method: .get, url: from), step: "next stage")
        }
        return response
    }

    /// The challenge in an answer; a 403 names DRF's `detail` (a CSRF refusal).
    private func read(_ response: HTTPResponse) throws(DriverError) -> AuthentikChallenge {
        let json = try session.json(response, at: place)
        guard case .object(let fields) = json else {
            throw .pageUnknown(provider: .authentik, saw: "a \(response.status) answer that is not a JSON object", at: place)
        }
        if !response.isSuccess {
            let detail = fields["detail"]?.stringValue.map { ": " + $0 } ?? ""
            throw .pageUnknown(provider: .authentik, saw: "a \(response.status) answer of the flow executor\(detail)", at: place)
        }
        return AuthentikChallenge(fields: fields)
    }
}
