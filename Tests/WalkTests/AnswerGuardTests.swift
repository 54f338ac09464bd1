import Testing
@testable import Core
@testable import HTTP
@testable import Walk

/// Every way a page can deliver the answer passes the redirect_uri test (Walk/AnswerGuard.swift).
struct AnswerGuardTests {
    static let state = "St4te-ours"
    static let target = RedirectTarget(URIReference("http://127.0.0.1:8765/callback")!)
    static let page = "https://as.example/authorize?x=1"

    static func html(_ body: String, headers: [HTTPHeader] = [HTTPHeader("Content-Type", "text/html")]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: headers, body: Array(body.utf8))
    }

    @Test(arguments: [
        ([("state", state), ("code", "c")], true),
        ([("error", "access_denied"), ("state", state)], true),
        ([("state", state)], false),                       // the authorization request itself
        ([("code", "c"), ("state", "other")], false),
        ([("code", "c")], false),
        ([("error", "x"), ("next", "/")], false),          // a login page's own ?error
    ])
    func answerFields(fields: [(String, String)], isAnswer: Bool) {
        #expect(AnswerGuard.isAnswer(fields, state: Self.state) == isAnswer)
    }

    @Test(arguments: [
        ("0; url=https://evil.example/cb?code=c&state=\(state)", "https://evil.example/cb"),
        ("0;URL=/other-callback#state=\(state)&error=access_denied", "https://as.example/other-callback"),
    ])
    func refreshHeaderElsewhereIsRefused(header: String, place: String) {
        let response = Self.html("<p>moving on</p>", headers: [HTTPHeader("Content-Type", "text/plain"), HTTPHeader("Refresh", header)])
        #expect(throws: WalkError.answerMisdirected(.refreshHeader, to: place, at: "https://as.example/authorize")) {
            _ = try AnswerGuard.inspect(response, at: Self.page, target: Self.target, state: Self.state)
        }
    }

    @Test func metaRefreshElsewhereIsRefusedEvenBesideAForm() {
        let response = Self.html("""
            <meta http-equiv="refresh" content="0; url=//evil.example/x?state=\(Self.state)&amp;code=c">
            <form method="post" action="/login"><input name="username"><input type="password" name="password"></form>
            """)
        #expect(throws: WalkError.answerMisdirected(.metaRefresh, to: "https://evil.example/x", at: "https://as.example/authorize")) {
            _ = try AnswerGuard.inspect(response, at: Self.page, target: Self.target, state: Self.state)
        }
    }

    @Test func selfSubmittingFormElsewhereIsRefused() {
        let response = Self.html("""
            <body onload="document.forms[0].submit()"><form method="post" action="https://evil.example/cb">
            <input type="hidden" name="code" value="c"><input type="hidden" name="state" value="\(Self.state)"></form></body>
            """)
        #expect(throws: WalkError.answerMisdirected(.form, to: "https://evil.example/cb", at: "https://as.example/authorize")) {
            _ = try AnswerGuard.inspect(response, at: Self.page, target: Self.target, state: Self.state)
        }
    }

    @Test(arguments: [
        "HTTP://127.0.0.1:8765/%63allback?code=c&state=\(state)",
        "http://127.0.0.1:8765/x/../callback?code=c",
        "http://127.0.0.1:8765/callback",
    ])
    func refreshToTheRedirectURIIsTheAnswer(url: String) throws {
        let response = Self.html("<meta http-equiv=refresh content='0;url=\(url)'>")
        let answer = try AnswerGuard.inspect(response, at: Self.page, target: Self.target, state: Self.state)
        #expect(answer == .redirect(URIReference(url)!.resolved(against: URIReference(Self.page)!)))
    }

    @Test func ordinaryPagesPass() throws {
        let login = Self.html("""
            <meta http-equiv="refresh" content="300">
            <form method="post" action="/login?error=1"><input type="hidden" name="state" value="\(Self.state)">
            <input name="username"><input type="password" name="password"></form>
            """, headers: [HTTPHeader("Content-Type", "text/html"), HTTPHeader("Refresh", "5; url=/login?state=\(Self.state)")])
        #expect(try AnswerGuard.inspect(login, at: Self.page, target: Self.target, state: Self.state) == nil)
    }

    @Test(arguments: [
        (HTTPRequest(method: "GET", url: "https://evil.example/cb?code=c&state=\(state)"), true),
        (HTTPRequest.form(url: "https://evil.example/cb", fields: [("state", state), ("error", "access_denied")]), true),
        (HTTPRequest(method: "POST", url: "https://evil.example/cb", headers: [HTTPHeader("Content-Type", "application/json")],
                     body: Array("state=\(state)&code=c".utf8)), false),
        (HTTPRequest.form(url: "https://as.example/authorize", fields: [("state", state), ("client_id", "app")]), false),
    ])
    func outgoingRequests(request: HTTPRequest, carries: Bool) {
        #expect(AnswerGuard.carriesAnswer(request, state: Self.state) == carries)
    }
}

/// Nothing of a flow fetches the redirect_uri (Walk/RedirectURIGuard.swift).
struct RedirectURIGuardTests {
    static let guardian = RedirectURIGuard(RedirectTarget(URIReference("http://127.0.0.1:8765/callback")!))

    @Test(arguments: ["http://127.0.0.1:8765/callback?x=1", "http://127.0.0.1:8765/%63allback", "HTTP://127.0.0.1:8765/a/../callback"])
    func refused(url: String) {
        var request = HTTPRequest(method: "GET", url: url)
        #expect(throws: HTTPError.redirectURI(url: URIReference(url)!.withoutQuery)) {
            try Self.guardian.adapt(&request)
        }
    }

    @Test func otherURLsPass() throws {
        var request = HTTPRequest(method: "GET", url: "http://127.0.0.1:8765/callback2")
        try Self.guardian.adapt(&request)
    }

    @Test func endpointsEqualToTheRedirectURI() throws {
        try Self.guardian.refuseEndpoints([(.authorization, "http://127.0.0.1:8765/authorize"), (.token, nil)])
        #expect(throws: WalkError.endpointIsRedirectURI(.token, at: "http://127.0.0.1:8765/callback")) {
            try Self.guardian.refuseEndpoints([(.authorization, "http://127.0.0.1:8765/authorize"),
                                               (.token, "http://127.0.0.1:8765/callback")])
        }
    }
}
