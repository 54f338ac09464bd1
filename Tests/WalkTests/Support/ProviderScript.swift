import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// A provider played from a script in memory for a driver's decisions: each
/// answer is chosen by the request's URL without its query (and, where a
/// test needs it, by what was sent), and every request is recorded. The
/// shapes of the answers follow the replicas' sources (Fixtures/server/
/// replicas/*.md); what a real server accepts is the end-to-end tests'.
final class ProviderScript: @unchecked Sendable {
    typealias Answer = @Sendable (HTTPRequest) -> HTTPResponse
    private let routes: Lock<[String: [Answer]]>
    let transport: ScriptedTransport

    /// `routes`: for each URL (no query), the answers in order; the last
    /// one repeats.
    init(_ routes: [String: [Answer]]) {
        let table = Lock(routes)
        self.routes = table
        transport = ScriptedTransport { request in
            let key = URIReference(request.url)?.withoutQuery ?? request.url
            return table.withLock { routes -> HTTPResponse in
                guard var answers = routes[key], !answers.isEmpty else { return HTTPResponse(status: 404, body: Array("no route \(key)".utf8)) }
                let answer = answers.count > 1 ? answers.removeFirst() : answers[0]
                routes[key] = answers
                return answer(request)
            }
        }
    }

    var requests: [HTTPRequest] { transport.requests }

    /// Requests to `url` (no query), in order.
    func requests(to url: String) -> [HTTPRequest] {
        requests.filter { (URIReference($0.url)?.withoutQuery ?? $0.url) == url }
    }

    static let redirect = "http://127.0.0.1:8765/cb"
    static let state = "st4te-S1"

    /// A walk over this script with the given drivers, `--form` values and
    /// TOTP seed, `-v` into `console`, trusting `trusted`.
    func walker(drivers: [any LoginDriver], form: [NameValue], seed: [UInt8]? = nil, trusted: [String],
                console: CapturingConsole = CapturingConsole(), maxHops: Int = 10) -> Walker {
        let redactor = Redactor()
        for value in form { redactor.remember(value.value) }
        let trace = Trace(enabled: true, redactor: redactor, console: console, names: .standard)
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: true),
                                trace: trace, now: { 0 })
        client.adapters.append(OriginPolicy(trusting: trusted, userHeaders: [], trace: trace))
        let walker = Walker(client: client, target: RedirectTarget(URIReference(Self.redirect)!), maxHops: maxHops, formValues: form,
                            submit: nil, state: Self.state, drivers: DriverRegistry(choice: .auto, drivers: drivers))
        if let seed, let totp = try? TOTP(secret: seed) {
            walker.codes = OneTimeCodes(totp: totp, fieldName: nil, now: { Self.clock })
        }
        return walker
    }

    /// The moment every scripted TOTP code is made at (RFC 6238 App. B's T = 59).
    static let clock = 59.0
    /// RFC 6238 Appendix B's SHA-1 seed, "12345678901234567890".
    static let seed = Array("12345678901234567890".utf8)
    /// The 6-digit code for `seed` at `clock` (RFC 6238 App. B: 94287082).
    static let code = "287082"

    /// The answer that ends a login: the redirect to the redirect_uri.
    static let done = HTTPResponse(status: 302, headers: [HTTPHeader("Location", redirect + "?code=c0de&state=" + state)])
    static let answer = AuthorizationAnswer.redirect(URIReference(redirect + "?code=c0de&state=" + state)!)

    static func json(_ status: Int, _ body: String, type: String = "application/json") -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", type)], body: Array(body.utf8))
    }

    static func html(_ body: String, status: Int = 200, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")] + headers, body: Array(body.utf8))
    }

    /// A request's JSON body.
    static func body(_ request: HTTPRequest) -> JSONValue? {
        request.body.flatMap(JSONValue.parse)
    }

    /// A request's form body, decoded.
    static func form(_ request: HTTPRequest) -> [String: String] {
        var out: [String: String] = [:]
        for (name, value) in FormEncoding.decode(String(decoding: request.body ?? [], as: UTF8.self)) where out[name] == nil { out[name] = value }
        return out
    }
}
