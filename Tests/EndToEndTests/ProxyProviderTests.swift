import Foundation
import Testing

/// No `--form` value is ever part of the authorization request, GET or POST
/// (README "How the walk works", step 2; OAuth/AuthorizationRequest.swift): the
/// authorization endpoint may be a proxy provider, as SATOSA is, whose users
/// log in at an upstream provider on another path or origin, and which keeps
/// (and logs) every request it receives. The fixture's `proxy-path` and
/// `proxy-origin` scenarios (Fixtures/server/proxy.py) record what each
/// listener received: the password reaches only the upstream login form.
@Suite("A proxy provider never sees the password")
struct ProxyProviderTests {
    static let username = "alice"
    static let password = "wonderland"

    /// Every place a hit may hold the password: its form, its query (decoded
    /// once and twice), and its cookies (the proxy's state cookie is base64url
    /// JSON of the request it kept; a signed one is `<base64url>.<signature>`).
    static func holdsPassword(_ hit: Hit) -> Bool {
        if hit.form.values.contains(where: { $0.contains(password) }) { return true }
        var query = hit.query
        for _ in 0...2 {
            if query.contains(password) { return true }
            query = query.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? query
        }
        for pair in (hit.headers["cookie"] ?? "").split(separator: ";") {
            let value = pair.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            if value.contains(password) { return true }
            for part in value.split(separator: ".") {
                var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
                if let data = Data(base64Encoded: base64), String(decoding: data, as: UTF8.self).contains(password) { return true }
            }
        }
        return false
    }

    /// `METHOD path-after-the-scenario @listener`, for exact assertions.
    static func route(_ hits: [Hit], _ scenario: String, _ fx: Fixture) -> [String] {
        hits.map { "\($0.method) \($0.path.replacingOccurrences(of: "/t/\(fx.run)/\(scenario)/", with: "")) @\($0.listener)" }
    }

    @Test(arguments: ["POST", "GET"])
    func theLoginAtAnotherPathGetsThePasswordAndTheProxyNever(method: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("proxy-path") + ["--method", method, "--form", "username=\(Self.username)", "--form", "password=@-"],
                                   stdin: Self.password + "\n")
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "\(result)")
        let hits = try fx.hits()
        let here = Fixture.listener(fx.base)
        #expect(Self.route(hits, "proxy-path", fx) == ["\(method) authorize @\(here)", "GET upstream/login @\(here)", "POST upstream/login @\(here)",
                                                       "GET proxy/acs @\(here)", "POST token @\(here)"], "\(hits)")
        let authorize = try #require(hits.first)
        #expect(authorize.form["username"] == nil && authorize.queryItems["username"] == nil, "no --form value in the authorization request")
        #expect(hits.filter(Self.holdsPassword).map(\.endpoint) == ["login"], "only the login form has the password")
        #expect(hits.first { $0.method == "POST" && $0.endpoint == "login" }?.form["password"] == Self.password)
        expectNoSecrets(in: result, fixture: fx, extra: [Self.password])
    }

    /// The login on another origin (127.0.0.2), trusted by the user: the
    /// proxy's listener receives nothing that holds the password.
    @Test(arguments: ["POST", "GET"])
    func theLoginAtAnotherOriginGetsThePasswordAndTheProxyNever(method: String) async throws {
        let fx = try await Fixture.make()
        let other = try await fx.otherHost()
        try fx.useOther(other)
        let result = try await run(fx.publicClient("proxy-origin") + ["--method", method, "--trust-origin", other,
                                                                      "--form", "username=\(Self.username)", "--form", "password=@-"],
                                   stdin: Self.password + "\n")
        expectTokenJSON(result)
        #expect(result.stderr.isEmpty, "\(result)")
        let hits = try fx.hits()
        let (here, there) = (Fixture.listener(fx.base), Fixture.listener(other))
        #expect(Self.route(hits, "proxy-origin", fx) == ["\(method) authorize @\(here)", "GET upstream/login @\(there)", "POST upstream/login @\(there)",
                                                         "GET proxy/acs @\(here)", "POST token @\(here)"], "\(hits)")
        #expect(!hits.filter { $0.listener == here }.contains(where: Self.holdsPassword), "the proxy never receives the password")
        #expect(hits.filter(Self.holdsPassword).map { "\($0.method) \($0.endpoint) @\($0.listener)" } == ["POST login @\(there)"])
        expectNoSecrets(in: result, fixture: fx, extra: [Self.password])
    }

    /// Without --trust-origin the upstream form is another origin's: the
    /// password goes nowhere (exit 6), and the proxy still has none of it.
    @Test func anUntrustedUpstreamGetsNothing() async throws {
        let fx = try await Fixture.make()
        let other = try await fx.otherHost()
        try fx.useOther(other)
        let result = try await run(fx.publicClient("proxy-origin") + ["--form", "username=\(Self.username)", "--form", "password=@-", "-q"],
                                   stdin: Self.password + "\n")
        #expect(result.exitCode == 6, "\(result)")
        #expect(result.errorLine == "authcode: error: refusing to send the filled-in form (--form values) to \(other), which is not a trusted origin (\(other)/t/\(fx.run)/proxy-origin/upstream/login)", "\(result)")
        #expect(try !fx.hits().contains(where: Self.holdsPassword), "no listener received the password")
    }
}
