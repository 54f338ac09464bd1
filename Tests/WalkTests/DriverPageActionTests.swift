import Testing
@testable import Core
@testable import HTTP
@testable import Walk

/// A driver posts a form where a browser would (README "How the walk works", step 3, issue
/// 26 class 6): DriverPage.action goes through FormTarget, as the generic
/// walk does — the page's <base href>, the URL parser's clean-up, an empty
/// action the page itself, and no URL at all for an action that is none.
struct DriverPageActionTests {
    static let pageURL = "https://kc.example/realms/demo/protocol/openid-connect/auth?client_id=app"

    static func action(_ html: String) -> String? {
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(html.utf8))
        let page = DriverPage(request: HTTPRequest(method: .get, url: pageURL), response: response, parsed: ParsedPage(response))
        return page.forms.first.flatMap(page.action(of:))
    }

    @Test(arguments: [
        (#"<form action="/realms/demo/login-actions/authenticate?code=c1"></form>"#,
         "https://kc.example/realms/demo/login-actions/authenticate?code=c1"),
        (#"<form action=" /realms/demo/login-act&#10;ions/authenticate?code=c1 "></form>"#,
         "https://kc.example/realms/demo/login-actions/authenticate?code=c1"),
        (#"<base href="https://kc.example/other/"><form action="login-actions/authenticate"></form>"#,
         "https://kc.example/other/login-actions/authenticate"),
        (##"<form action="#"></form>"##, "https://kc.example/realms/demo/protocol/openid-connect/auth?client_id=app"),
        (#"<form></form>"#, "https://kc.example/realms/demo/protocol/openid-connect/auth?client_id=app"),
    ])
    func resolvedAsABrowserDoes(html: String, expected: String) {
        #expect(Self.action(html) == expected)
    }

    @Test func anActionThatIsNoURLGoesNowhere() {
        #expect(Self.action(#"<form action="http://[::1"></form>"#) == nil)
    }
}
