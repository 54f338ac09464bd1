import Testing
@testable import Core
@testable import HTTP
@testable import Walk

/// How the driver knows a Keycloak page and which template it is
/// (Walk/Drivers/Keycloak/KeycloakPage.swift): from the path shape and the
/// markup, never the host name.
struct KeycloakPageTests {
    typealias Pages = KeycloakPages

    static func page(_ url: String, _ response: HTTPResponse) -> DriverPage {
        DriverPage(request: HTTPRequest(method: .get, url: url), response: response, parsed: ParsedPage(response))
    }

    @Test(arguments: [
        (Pages.realm + "/login-actions/authenticate?execution=e1", Pages.login("c1"), true),
        (Pages.authorize, Pages.keycloakify("login.ftl", ""), true),
        ("https://kc.example/auth/realms/old/login-actions/required-action?execution=X", Pages.html("<form id=\"x\"></form>"), true),
        ("https://app.example/login", Pages.login("c1"), false),
        (Pages.authorize, HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: Array("<form><input name=u></form>".utf8)), false),
        (Pages.authorize, HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"id":"kc-x"}"#.utf8)), false),
        (Pages.authorize, HTTPResponse(status: 401, headers: [HTTPHeader("WWW-Authenticate", "Negotiate")],
                                       body: Array(#"<FORM METHOD="POST" ACTION="https://kc.example/realms/demo/login-actions/authenticate?x=1"></FORM>"#.utf8)), true),
        (Pages.authorize, HTTPResponse(status: 401, headers: [HTTPHeader("WWW-Authenticate", "Basic")],
                                       body: Array(#"<FORM METHOD="POST" ACTION="https://kc.example/realms/demo/login-actions/authenticate?x=1"></FORM>"#.utf8)), false),
    ] as [(String, HTTPResponse, Bool)])
    func recognition(url: String, response: HTTPResponse, expected: Bool) {
        #expect(KeycloakPage.recognises(Self.page(url, response)) == expected)
    }

    @Test(arguments: [
        (#"<form id="kc-form-login"><input name="username"><input type="password" name="password"></form>"#, "login.ftl"),
        (#"<form id="kc-form-login"><input name="username"></form><form id="webauth"><input type="hidden" name="authenticatorData"></form>"#, "login-username.ftl"),
        (#"<form id="kc-form-login"><input type="password" name="password"></form>"#, "login-password.ftl"),
        (#"<form id="kc-otp-login-form"><input name="otp"></form>"#, "login-otp.ftl"),
        (#"<form id="kc-select-credential-form"></form>"#, "select-authenticator.ftl"),
        (#"<form id="webauth"><input type="hidden" name="authenticatorData"></form><form id="authn_select"></form>"#, "webauthn-authenticate.ftl"),
        (#"<form id="register"><input type="hidden" name="attestationObject"></form>"#, "webauthn-register.ftl"),
        (#"<form id="kc-error-credential-form"></form>"#, "webauthn-error.ftl"),
        (#"<form class="form-actions" action="/realms/demo/login-actions/consent?client_id=a" method="POST"><input name="accept" type="submit"></form>"#, "login-oauth-grant.ftl"),
        (#"<div id="kc-terms-text">Terms</div><form><input name="accept" type="submit"></form>"#, "terms.ftl"),
        (#"<form id="kc-passwd-update-form"></form>"#, "login-update-password.ftl"),
        (#"<form id="kc-update-profile-form"></form>"#, "login-update-profile.ftl"),
        (#"<form id="kc-totp-settings-form"></form>"#, "login-config-totp.ftl"),
        (#"<a id="loginRestartLink" href="/r">x</a><a id="loginContinueLink" href="/c">x</a>"#, "login-page-expired.ftl"),
        (#"<div id="kc-error-message"><p>x</p></div>"#, "error.ftl"),
        (#"<div id="kc-info-message"><p>x</p></div>"#, "info.ftl"),
        (#"<p>nothing known</p>"#, nil),
    ] as [(String, String?)])
    func theTemplateIsToldByItsForms(html: String, pageID: String?) {
        let page = KeycloakPage(Self.page(Pages.realm + "/login-actions/authenticate", Pages.html(html)))
        #expect(page.pageID == pageID)
    }

    @Test func verifyEmailIsToldByItsAction() {
        let page = KeycloakPage(Self.page(Pages.realm + "/login-actions/required-action?execution=VERIFY_EMAIL&client_id=a", Pages.html("<p>Check your mail</p>")))
        #expect(page.known == .verifyEmail && page.requiredAction == "VERIFY_EMAIL")
    }

    @Test func errorAndInfoTextsAreReadAsAPersonReadsThem() {
        let error = KeycloakPage(Self.page(Pages.authorize, Pages.html(#"<div id="kc-error-message"><p class="instruction">Client <b>not</b> found.</p></div><script>var x = "Client not found";</script>"#)))
        #expect(error.message == "Client not found.")
        let info = KeycloakPage(Self.page(Pages.authorize, Pages.html(#"<div id="kc-info-message"><p>Proceed?</p><a href="/realms/demo/login-actions/required-action?key=k">proceed</a></div><a href="/app">back</a>"#)))
        #expect(info.markup.infoLinks == ["/realms/demo/login-actions/required-action?key=k"])
    }
}
