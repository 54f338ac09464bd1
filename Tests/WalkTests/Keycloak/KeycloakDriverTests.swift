import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import Walk

/// The Keycloak driver's decisions on scripted pages (Walk/Drivers/Keycloak/):
/// which request each page leads to, and the exact error where it stops.
/// The replica runs (Tests/EndToEndTests/KeycloakReplicaTests.swift) show
/// the same against a server with Keycloak's state machine.
struct KeycloakDriverTests {
    typealias Pages = KeycloakPages

    static func walker(_ transport: ScriptedTransport, form: [NameValue] = [NameValue("username", "alice"), NameValue("password", "pw-secret-1")],
                       seed: Bool = false, passkey: Passkey = Passkey(), console: CapturingConsole = CapturingConsole()) throws -> Walker {
        let redactor = Redactor()
        for value in form { redactor.remember(value.value) }
        let trace = Trace(enabled: true, redactor: redactor, console: console, names: .standard)
        let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false),
                                trace: trace, now: { 0 })
        client.adapters.append(OriginPolicy(trusting: ["https://kc.example"], userHeaders: [], trace: trace))
        let walker = Walker(client: client, target: RedirectTarget(URIReference(Pages.redirect)!), maxHops: 10, formValues: form, submit: nil,
                            state: "s1", drivers: DriverRegistry())
        if seed { walker.codes = OneTimeCodes(totp: try TOTP(secret: Array("12345678901234567890".utf8)), fieldName: nil, now: { 59 }) }
        walker.passkey = passkey
        return walker
    }

    static let first = HTTPRequest(method: .get, url: Pages.authorize)

    static func body(_ request: HTTPRequest) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in FormEncoding.decode(String(decoding: request.body ?? [], as: UTF8.self)) where fields[name] == nil { fields[name] = value }
        return fields
    }

    static func query(_ url: String, _ name: String) -> String? {
        URIReference(url)?.query.flatMap { FormEncoding.decode($0).first { $0.0 == name }?.1 }
    }

    // MARK: - OTP devices

    /// Two devices, the seed belonging to the second: the code goes to the
    /// selected one, is turned down, then to the other from the new page
    /// (its session code: Keycloak's codes are good once).
    @Test(arguments: [false, true])
    func theCodeGoesToEachDeviceInTurn(v2: Bool) throws {
        let transport = ScriptedTransport { request in
            if request.method == .get { return Pages.otp("c1", devices: ["d1", "d2"], selected: "d1", v2: v2) }
            let fields = Self.body(request)
            if fields["selectedCredentialId"] == "d2" { return Pages.redirect(Pages.answer) }
            return Pages.otp("c2", devices: ["d1", "d2"], selected: "d1", v2: v2, error: "Invalid authenticator code.")
        }
        let console = CapturingConsole()
        let answer = try Self.walker(transport, seed: true, console: console).walk(from: Self.first)
        #expect(answer == .redirect(URIReference(Pages.answer)!))
        let posts = transport.requests.filter { $0.method == .post }
        #expect(posts.map { Self.body($0)["selectedCredentialId"] } == ["d1", "d2"])
        #expect(posts.map { Self.query($0.url, "session_code") } == ["c1", "c2"], "the second try posts from the page that answered the first")
        #expect(posts.allSatisfy { Self.body($0)["otp"] == "287082" && Self.body($0)["login"] == "Sign In" })
        #expect(console.err.contains("* keycloak: one-time code for the OTP device d1\n"))
        #expect(console.err.contains("* keycloak: the code was turned down for d1\n"))
    }

    /// `--form selectedCredentialId` names a device by id or label
    /// (Keycloakify shows the labels): only that one is tried.
    @Test(arguments: ["Tablet", "d2"])
    func aNamedDeviceIsTheOnlyOneTried(named: String) throws {
        let page = Pages.keycloakify("login-otp.ftl", #"""
        "otpLogin": { "userOtpCredentials": [ { "id": "d1", "userLabel": "Phone", }, { "id": "d2", "userLabel": "Tablet", }, ], "selectedCredentialId": "d1", },
        """#)
        let transport = ScriptedTransport { request in request.method == .get ? page : Pages.redirect(Pages.answer) }
        let form = [NameValue("username", "alice"), NameValue("selectedCredentialId", named)]
        _ = try Self.walker(transport, form: form, seed: true).walk(from: Self.first)
        let posts = transport.requests.filter { $0.method == .post }
        #expect(posts.count == 1)
        #expect(posts.first.map(Self.body) == ["otp": "287082", "selectedCredentialId": "d2", "login": "Sign In"])
        #expect(posts.first?.url == Pages.actionURL("k1", execution: "e9"))
    }

    @Test func everyDeviceTurningTheCodeDownIsTheRejection() throws {
        let transport = ScriptedTransport { request in
            Pages.otp(request.method == .get ? "c1" : "c\(Int.random(in: 2...999))", devices: ["d1", "d2"], selected: "d2", v2: false,
                      error: request.method == .get ? nil : "Invalid authenticator code.")
        }
        #expect(throws: WalkError.driver(.oneTimeCodeRejected(provider: .keycloak, text: "Invalid authenticator code.", at: Pages.realm + "/login-actions/authenticate"))) {
            try Self.walker(transport, seed: true).walk(from: Self.first)
        }
        #expect(transport.requests.filter { $0.method == .post }.map { Self.body($0)["selectedCredentialId"] } == ["d2", "d1"], "the selected one first")
    }

    /// One device on a built-in theme: the generic walk's page, as before.
    @Test func oneDeviceIsTheGenericWalks() throws {
        let transport = ScriptedTransport { request in
            request.method == .get ? Pages.otp("c1", devices: [], selected: "", v2: false) : Pages.redirect(Pages.answer)
        }
        let console = CapturingConsole()
        _ = try Self.walker(transport, seed: true, console: console).walk(from: Self.first)
        #expect(console.err.contains("* form chosen: POST https://kc.example/realms/demo/login-actions/authenticate pressing 'Sign In'"))
    }

    // MARK: - Pages the driver stops at or moves on from

    @Test(arguments: [
        ("UPDATE_PASSWORD", "kc-passwd-update-form", "update the password (UPDATE_PASSWORD)"),
        ("UPDATE_PROFILE", "kc-update-profile-form", "update the profile (UPDATE_PROFILE)"),
        ("VERIFY_EMAIL", "none", "verify the e-mail address (VERIFY_EMAIL)"),
        ("CONFIGURE_TOTP", "kc-totp-settings-form", "set up an authenticator app (CONFIGURE_TOTP)"),
        ("VERIFY_PROFILE", "kc-update-profile-form", "complete the profile (VERIFY_PROFILE)"),
    ])
    func aRequiredActionIsNamed(execution: String, form: String, said: String) throws {
        let (url, page) = Pages.requiredAction(execution, form: form)
        let transport = ScriptedTransport { request in request.url == url ? page : Pages.redirect(url) }
        #expect(throws: WalkError.driver(.requiredAction(provider: .keycloak, action: said, at: Pages.realm + "/login-actions/required-action"))) {
            try Self.walker(transport).walk(from: Self.first)
        }
        #expect(transport.requests.count == 2, "nothing is posted on the action's page")
    }

    /// A Keycloakify page names the template only.
    @Test func aKeycloakifyUpdatePasswordPageIsNamedToo() throws {
        let transport = ScriptedTransport { _ in Pages.keycloakify("login-update-password.ftl", "") }
        #expect(throws: WalkError.driver(.requiredAction(provider: .keycloak, action: "update the password (UPDATE_PASSWORD)", at: Pages.realm + "/protocol/openid-connect/auth"))) {
            try Self.walker(transport).walk(from: Self.first)
        }
    }

    /// error.ftl ("Cookie not found", after a restart with no KC_RESTART
    /// cookie): Keycloak's text, and where cookies get lost.
    @Test func theErrorPageSaysKeycloaksText() throws {
        let page = Pages.html(#"<h1 id="kc-page-title">We are sorry...</h1><div id="kc-error-message"><p class="instruction">Cookie not found. Please make sure cookies are enabled in your browser.</p></div>"#,
                              status: 400)
        let transport = ScriptedTransport { _ in page }
        #expect(throws: WalkError.driver(.errorPage(provider: .keycloak, text: "Cookie not found. Please make sure cookies are enabled in your browser.", at: Pages.realm + "/protocol/openid-connect/auth"))) {
            try Self.walker(transport).walk(from: Self.first)
        }
    }

    /// login-page-expired.ftl: "To continue the login process Click here."
    @Test func anExpiredPageIsContinued() throws {
        let continueURL = Pages.realm + "/login-actions/authenticate?execution=e1&client_id=app&tab_id=t1"
        let escaped = Pages.realm + "/login-actions/authenticate?execution=e1&amp;client_id=app&amp;tab_id=t1"
        let expired = Pages.html(#"<h1 id="kc-page-title">Page has expired</h1><p id="instruction1" class="instruction">To restart the login process <a id="loginRestartLink" href="\#(Pages.realm)/login-actions/restart?client_id=app&amp;tab_id=t1">Click here</a> .<br/>To continue the login process <a id="loginContinueLink" href="\#(escaped)">Click here</a> .</p>"#)
        let transport = ScriptedTransport { request in
            request.url == continueURL ? Pages.redirect(Pages.answer) : expired
        }
        #expect(try Self.walker(transport).walk(from: Self.first) == .redirect(URIReference(Pages.answer)!))
        #expect(transport.requests.map(\.url) == [Pages.authorize, continueURL])
    }

    @Test func anInfoPageWithoutALinkOnSaysItsText() throws {
        let transport = ScriptedTransport { _ in Pages.html(#"<h1 id="kc-page-title">You are already logged in.</h1><div id="kc-info-message"><p class="instruction">You are already logged in.</p></div>"#) }
        #expect(throws: WalkError.driver(.errorPage(provider: .keycloak, text: "You are already logged in.", at: Pages.realm + "/protocol/openid-connect/auth"))) {
            try Self.walker(transport).walk(from: Self.first)
        }
    }

    /// A realm with Kerberos: 401 Negotiate and a form to go on without a ticket.
    @Test func kerberosWithoutATicketGoesOn() throws {
        let challenge = HTTPResponse(status: 401, headers: [HTTPHeader("Content-Type", "text/html"), HTTPHeader("WWW-Authenticate", "Negotiate")], body: Array(#"""
        <HTML><HEAD><TITLE>Kerberos Unsupported</TITLE></HEAD><BODY Onload="document.forms[0].submit()"><FORM METHOD="POST" ACTION="\#(Pages.actionURL("c1"))"><NOSCRIPT><P>JavaScript is disabled.</P><INPUT name="continue" TYPE="SUBMIT" VALUE="CONTINUE" /></NOSCRIPT></FORM></BODY></HTML>
        """#.utf8))
        let transport = ScriptedTransport { request in request.method == .get ? challenge : Pages.redirect(Pages.answer) }
        #expect(try Self.walker(transport).walk(from: Self.first) == .redirect(URIReference(Pages.answer)!))
        let post = try #require(transport.requests.last)
        #expect(post.url == Pages.actionURL("c1") && Self.body(post) == ["continue": "CONTINUE"] && post.credential == nil)
    }

    // MARK: - Try another way, select-authenticator

    static func chooser(v2: Bool) -> HTTPResponse {
        let options = [("x-otp", "fa fa-mobile list-view-pf-icon-lg", "Authenticator Application"), ("x-key", "fa fa-key list-view-pf-icon-lg", "Passkey")]
        if v2 {
            return Pages.html(options.map { #"<form id="kc-select-credential-form" action="\#(Pages.action("c3"))" method="post"><input type="hidden" name="authenticationExecution" value="\#($0.0)"></form><div role="button"><div class="pf-v5-c-data-list__cell select-auth-box-icon"><i class="\#($0.1)"></i></div><h2 class="select-auth-box-headline pf-v5-c-title">\#($0.2)</h2></div>"# }.joined())
        }
        return Pages.html(#"<form id="kc-select-credential-form" action="\#(Pages.action("c3"))" method="post">"# + options.map { #"<button type="submit" name="authenticationExecution" value="\#($0.0)"><i class="\#($0.1) fa-2x select-auth-box-icon-properties"></i><div class="select-auth-box-headline pf-c-title">\#($0.2)</div></button>"# }.joined() + "</form>")
    }

    @Test(arguments: [false, true])
    func theChooserTakesAWayTheRunCanAnswer(v2: Bool) throws {
        let transport = ScriptedTransport { request in request.method == .get ? Self.chooser(v2: v2) : Pages.redirect(Pages.answer) }
        let console = CapturingConsole()
        _ = try Self.walker(transport, seed: true, console: console).walk(from: Self.first)
        #expect(transport.requests.last.map(Self.body) == ["authenticationExecution": "x-otp"])
        #expect(transport.requests.last?.url == Pages.actionURL("c3"))
        #expect(console.err.contains("* keycloak: choosing Authenticator Application of Authenticator Application, Passkey\n"))
    }

    @Test func aChooserOfferingNothingTheRunCanAnswerNamesTheWays() throws {
        let transport = ScriptedTransport { _ in Self.chooser(v2: false) }
        #expect(throws: WalkError.driver(.factorUnsupported(provider: .keycloak, factor: "Authenticator Application or Passkey", at: Pages.realm + "/protocol/openid-connect/auth"))) {
            try Self.walker(transport).walk(from: Self.first)
        }
    }

    // MARK: - Passkeys

    static func webauthnPage(allowed: [String], identified: Bool = true, tryAnotherWay: Bool = false) -> HTTPResponse {
        let other = tryAnotherWay ? ##"<form id="kc-select-try-another-way-form" action="\##(Pages.action("c2"))" method="post"><input type="hidden" name="tryAnotherWay" value="on"/><a href="#" id="try-another-way">Try Another Way</a></form>"## : ""
        return Pages.html(#"""
        <form id="webauth" action="\#(Pages.action("c2"))" method="post"><input type="hidden" id="clientDataJSON" name="clientDataJSON"/><input type="hidden" id="authenticatorData" name="authenticatorData"/><input type="hidden" id="signature" name="signature"/><input type="hidden" id="credentialId" name="credentialId"/><input type="hidden" id="userHandle" name="userHandle"/><input type="hidden" id="error" name="error"/></form>
        <form id="authn_select" class="form-horizontal">\#(allowed.map { #"<input type="hidden" name="authn_use_chk" value="\#($0)"/>"# }.joined())</form>
        <input id="authenticateWebAuthnButton" type="button" value="Sign in with Passkey"/>\#(other)
        <script type="module">
            import { authenticateByWebAuthn } from "/resources/x/login/keycloak.v2/js/webauthnAuthenticate.js";
            const authButton = document.getElementById('authenticateWebAuthnButton');
            authButton.addEventListener("click", function() {
                const input = { isUserIdentified : \#(identified), challenge : 'Y2hhbGxlbmdlLTE2Ynl0ZXM', userVerification : 'not specified', rpId : 'kc.example', createTimeout : 0, errmsg : "x" };
                authenticateByWebAuthn(input);
            });
        </script>
        """#)
    }

    @Test func aPasskeyPageWithoutAPasskeyNamesTheOption() throws {
        let transport = ScriptedTransport { _ in Self.webauthnPage(allowed: ["AAEC"]) }
        #expect(throws: WalkError.driver(.passkey(.noPasskey, at: Pages.realm + "/protocol/openid-connect/auth"))) {
            try Self.walker(transport, seed: true).walk(from: Self.first)
        }
        #expect(transport.requests.count == 1, "the blank form is never posted")
    }

    @Test func withoutAPasskeyAnotherWayIsTriedForTheCode() throws {
        let transport = ScriptedTransport { request in
            request.method == .get ? Self.webauthnPage(allowed: ["AAEC"], tryAnotherWay: true) : Self.chooser(v2: false)
        }
        #expect(throws: WalkError.self) { try Self.walker(transport, seed: true).walk(from: Self.first) }
        #expect(transport.requests.map { Self.body($0) }.dropFirst().first == ["tryAnotherWay": "on"])
        #expect(transport.requests.last.map(Self.body) == ["authenticationExecution": "x-otp"])
    }

    static func credential(rpID: String = "kc.example", id: [UInt8] = [0, 1, 2]) throws -> PasskeyCredential {
        try PasskeyCredential(rpID: rpID, credentialID: id, userHandle: Array("user-1".utf8), key: SigningKey.generate(curve: .p256), signCount: 4)
    }

    /// The answer in `#webauth`'s hidden fields, base64url, as
    /// webauthnAuthenticate.js posts it; secrets out of the trace.
    @Test func theAssertionFillsTheHiddenFields() throws {
        let transport = ScriptedTransport { request in request.method == .get ? Self.webauthnPage(allowed: ["AAEC"]) : Pages.redirect(Pages.answer) }
        let store = MemoryPasskeyStore(try Self.credential())
        let console = CapturingConsole()
        _ = try Self.walker(transport, passkey: Passkey(store: store), console: console).walk(from: Self.first)
        let post = try #require(transport.requests.last)
        let fields = Self.body(post)
        #expect(post.url == Pages.actionURL("c2") && post.credential == .filledForm)
        #expect(fields["credentialId"] == "AAEC" && fields["userHandle"] == Base64URL.encode(Array("user-1".utf8)) && fields["error"] == "")
        let clientData = try #require(fields["clientDataJSON"].flatMap { Base64URL.decode($0[...]) }.flatMap { JSONValue.parse($0) })
        #expect(clientData["type"]?.stringValue == "webauthn.get" && clientData["origin"]?.stringValue == "https://kc.example"
                && clientData["challenge"]?.stringValue == "Y2hhbGxlbmdlLTE2Ynl0ZXM")
        #expect(store.credential?.signCount == 5)
        #expect(console.err.contains("* keycloak: passkey asked for (rpId kc.example, 1 allowed credential)\n"))
        for value in [fields["signature"], fields["authenticatorData"]].compactMap({ $0 }) { #expect(!console.err.contains(value)) }
    }

    @Test(arguments: [
        (["AAEC"], "other.example", WebAuthnError.rpIDMismatch(asked: "kc.example", file: "other.example")),
        (["BBBB"], "kc.example", .credentialNotAllowed),
    ])
    func aPasskeyForAnotherSiteOrAccountSignsNothing(allowed: [String], fileRPID: String, error: WebAuthnError) throws {
        let transport = ScriptedTransport { _ in Self.webauthnPage(allowed: allowed) }
        let store = MemoryPasskeyStore(try Self.credential(rpID: fileRPID))
        #expect(throws: WalkError.driver(.passkey(error, at: Pages.realm + "/protocol/openid-connect/auth"))) {
            try Self.walker(transport, passkey: Passkey(store: store)).walk(from: Self.first)
        }
        #expect(store.saves == 0 && store.credential?.signCount == 4)
    }

    // MARK: - Keycloakify

    @Test func keycloakifyLoginIsPostedAndItsErrorIsTheRejection() throws {
        let transport = ScriptedTransport { request in
            request.method == .get ? Pages.keycloakify("login.ftl", #""message": { "type": "error", "summary": "Invalid username or password.", },"#)
                : Pages.keycloakify("login.ftl", #""message": { "type": "error", "summary": "Invalid username or password.", },"#)
        }
        #expect(throws: WalkError.driver(.loginRejected(provider: .keycloak, text: "Invalid username or password.", at: Pages.realm + "/login-actions/authenticate"))) {
            try Self.walker(transport).walk(from: Self.first)
        }
        let post = try #require(transport.requests.last)
        #expect(Self.body(post) == ["username": "alice", "password": "pw-secret-1", "credentialId": "", "login": "Sign In"])
        #expect(post.credential == .filledForm && post.url == Pages.actionURL("k1", execution: "e9"))
    }

    @Test func keycloakifyConsentIsAccepted() throws {
        let transport = ScriptedTransport { request in
            request.method == .get ? Pages.keycloakify("login-oauth-grant.ftl", #""oauth": { "code": "grant-code-1", "client": "app", },"#) : Pages.redirect(Pages.answer)
        }
        _ = try Self.walker(transport).walk(from: Self.first)
        let post = try #require(transport.requests.last)
        #expect(post.url == Pages.realm + "/login-actions/consent?client_id=app&tab_id=t1" && Self.body(post) == ["code": "grant-code-1", "accept": "Yes"])
    }

    @Test func aKeycloakifyPageTheDriverDoesNotKnowIsNamed() throws {
        let transport = ScriptedTransport { _ in Pages.keycloakify("login-recovery-authn-code-input.ftl", "") }
        #expect(throws: WalkError.driver(.pageUnknown(provider: .keycloak, saw: "the Keycloakify page 'login-recovery-authn-code-input.ftl'", at: Pages.realm + "/protocol/openid-connect/auth"))) {
            try Self.walker(transport).walk(from: Self.first)
        }
    }
}
