import Testing
@testable import Core
@testable import HTTP
@testable import Walk

struct FormSubmissionTests {
    // MARK: - Pages

    static let search = """
        <form action="/search"><input type="search" name="q"><button>Search</button></form>
        """
    static let keycloakLogin = """
        <form id="kc-form-login" action="/realms/demo/login-actions/authenticate?session_code=a&amp;tab_id=b" method="post">
          <input tabindex="1" id="username" name="username" value="" type="text" autofocus/>
          <input tabindex="2" id="password" name="password" type="password"/>
          <input tabindex="3" id="rememberMe" name="rememberMe" type="checkbox">
          <input type="hidden" id="id-hidden-input" name="credentialId" />
          <input tabindex="4" name="login" id="kc-login" type="submit" value="Sign In"/>
        </form>
        """
    static let djangoLogin = """
        <form action="/admin/login/?next=/admin/" method="post" id="login-form">
        <input type="hidden" name="csrfmiddlewaretoken" value="a+b/c==">
        <input type="text" name="username" id="id_username"><input type="password" name="password" id="id_password">
        <input type="hidden" name="next" value="/o/authorize/?a=1&amp;b=&quot;2&quot;">
        <input type="submit" value="Log in"></form>
        """
    static let dotConsent = """
        <form id="authorizationForm" method="post">
          <input type='hidden' name='csrfmiddlewaretoken' value='tok' />
          <input type="hidden" name="redirect_uri" value="http://127.0.0.1:9/cb">
          <input type="hidden" name="scope" value="openid read">
          <input type="hidden" name="nonce">
          <input type="hidden" name="state" value="s1">
          <input type="submit" class="btn btn-large" value="Cancel"/>
          <input type="submit" class="btn btn-large btn-primary" name="allow" value="Authorize"/>
        </form>
        """
    static let githubConsent = """
        <form action="/login/oauth/authorize" method="post"><input type="hidden" name="authenticity_token" value="Zm9v+YmFy/YmF6PT0=">
          <button name="authorize" value="0" type="submit">Cancel</button>
          <button name="authorize" value="1" type="submit">Authorize <strong>octocat</strong></button></form>
        """
    static let keycloakConsent = """
        <form action="/consent" method="POST"><input type="hidden" name="code" value="c">
          <input name="accept" id="kc-login" type="submit" value="Yes"/><input name="cancel" id="kc-cancel" type="submit" value="No"/></form>
        """
    static let denyFirst = """
        <form method="post" action="/approve"><input type="hidden" name="t" value="1">
          <button type="submit" name="decision" value="deny">Deny</button>
          <button type="submit" name="decision" value="allow">Allow access</button></form>
        """

    static func form(_ html: String) -> HTMLForm {
        HTMLFormParser.forms(in: html).first ?? HTMLForm()
    }

    static func values(_ pairs: KeyValuePairs<String, String>) -> [HTMLFieldValue] {
        pairs.map { HTMLFieldValue(name: $0.key, value: $0.value) }
    }

    // MARK: - Choosing the form

    @Test func choosesTheLoginFormOverASearchForm() {
        let forms = HTMLFormParser.forms(in: Self.search + Self.keycloakLogin)
        #expect(forms.count == 2)
        #expect(FormChooser.choose(from: forms, userFields: []) == forms.last)
    }

    @Test func choosesTheFormHoldingAUserField() {
        let otp = #"<form action="/otp" method="post"><input name="otp"><input type="submit" value="Verify"></form>"#
        let forms = HTMLFormParser.forms(in: Self.search + otp)
        #expect(FormChooser.choose(from: forms, userFields: Self.values(["otp": "123456"])) == forms.last)
        #expect(FormChooser.choose(from: forms, userFields: Self.values(["q": "x"])) == forms.first)
    }

    @Test func choosesTheOnlyFormOrNothing() {
        let consent = Self.form(Self.dotConsent)
        #expect(FormChooser.choose(from: [consent], userFields: []) == consent)
        #expect(FormChooser.choose(from: [Self.form(Self.search), Self.form(Self.search)], userFields: []) == nil)
        #expect(FormChooser.choose(from: [], userFields: []) == nil)
    }

    /// A consent page beside a search box: the form with an Allow-like button,
    /// else the only POST form.
    @Test func choosesTheConsentFormBesideASearchBox() {
        let consent = Self.form(Self.dotConsent)
        let search = Self.form(Self.search)
        #expect(FormChooser.choose(from: [search, consent], userFields: []) == consent)
        let plainPost = Self.form(#"<form method="post" action="/x"><input type="hidden" name="t" value="1"><input type="submit" value="Go"></form>"#)
        #expect(FormChooser.choose(from: [search, plainPost], userFields: []) == plainPost)
    }

    // MARK: - What is sent

    @Test func loginSendsPageValuesByteExactWithUserFieldsFilledIn() throws {
        let form = Self.form(Self.djangoLogin)
        let sent = try FormChooser.submission(for: form, userFields: Self.values(["username": "alice", "password": "s3cr3t &+="]), submit: nil)
        #expect(sent.fields == Self.values([
            "csrfmiddlewaretoken": "a+b/c==", "username": "alice", "password": "s3cr3t &+=",
            "next": "/o/authorize/?a=1&b=\"2\"",
        ]))
        #expect(sent.pressed == HTMLField(kind: .submit, name: "", value: "Log in", label: "Log in"))  // nameless: sends nothing
        #expect(sent.form == form)
    }

    @Test func userFieldsOverrideHiddenValuesAndExtrasAreAppendedInOrder() throws {
        let form = Self.form(Self.djangoLogin)
        let sent = try FormChooser.submission(
            for: form,
            userFields: Self.values(["password": "p", "next": "/elsewhere", "extra2": "b", "username": "u", "extra1": "a"]),
            submit: nil
        )
        #expect(sent.fields == Self.values([
            "csrfmiddlewaretoken": "a+b/c==", "username": "u", "password": "p", "next": "/elsewhere", "extra2": "b", "extra1": "a",
        ]))
    }

    @Test func keycloakLoginPressesSignInAndLeavesTheCheckboxOut() throws {
        let sent = try FormChooser.submission(for: Self.form(Self.keycloakLogin), userFields: Self.values(["username": "alice", "password": "pw"]), submit: nil)
        #expect(sent.fields == Self.values(["username": "alice", "password": "pw", "credentialId": "", "login": "Sign In"]))
    }

    @Test func aCheckboxTheUserNamesIsSent() throws {
        let sent = try FormChooser.submission(
            for: Self.form(Self.keycloakLogin), userFields: Self.values(["username": "a", "password": "b", "rememberMe": "on"]), submit: nil)
        #expect(sent.fields == Self.values(["username": "a", "password": "b", "credentialId": "", "login": "Sign In", "rememberMe": "on"]))
    }

    @Test func successfulControlsOnly() throws {
        let html = """
            <form method="post"><input type="checkbox" name="off"><input type="checkbox" name="on" value="1" checked>
            <input type="radio" name="r" value="a"><input type="radio" name="r" value="b" checked>
            <input name="disabled" value="x" disabled><fieldset disabled><input name="inFieldset"></fieldset>
            <select name="s"><option>1<option selected>2</select><select name="m" multiple><option selected>a<option selected>b</select>
            <select name="empty"></select><textarea name="t">line</textarea><input type="file" name="f">
            <input type="button" name="js" value="x"><input type="reset" name="rs"><input type="image" name="img">
            <button type="submit" name="go" value="1">Continue</button></form>
            """
        let sent = try FormChooser.submission(for: Self.form(html), userFields: [], submit: nil)
        #expect(sent.fields == Self.values(["on": "1", "r": "b", "s": "2", "m": "a", "m": "b", "t": "line", "f": "", "go": "1"]))
    }

    @Test func anImageButtonSendsClickCoordinates() throws {
        let html = #"<form><input type="hidden" name="h" value="1"><input type="image" name="go" alt="Sign in"><input name="after"></form>"#
        let sent = try FormChooser.submission(for: Self.form(html), userFields: [], submit: nil)
        #expect(sent.fields == Self.values(["h": "1", "go.x": "0", "go.y": "0", "after": ""]))
    }

    @Test func aUserFieldNamingThePressedButtonReplacesItsValue() throws {
        let sent = try FormChooser.submission(for: Self.form(Self.dotConsent), userFields: Self.values(["allow": "yes"]), submit: nil)
        #expect(sent.fields.filter { $0.name == "allow" } == Self.values(["allow": "yes"]))
    }

    // MARK: - Which button

    struct Press: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        let submit: SubmitChoice?
        /// The pair the pressed button adds, nil when it adds none.
        let sends: HTMLFieldValue?
        let label: String?
        var testDescription: String { name }
    }

    static let presses: [Press] = [
        Press(name: "DOT consent: nameless Cancel first, Authorize pressed", html: dotConsent, submit: nil,
              sends: HTMLFieldValue(name: "allow", value: "Authorize"), label: "Authorize"),
        Press(name: "GitHub consent: Cancel first, Authorize pressed", html: githubConsent, submit: nil,
              sends: HTMLFieldValue(name: "authorize", value: "1"), label: "Authorize octocat"),
        Press(name: "Keycloak consent: Yes over No", html: keycloakConsent, submit: nil,
              sends: HTMLFieldValue(name: "accept", value: "Yes"), label: "Yes"),
        Press(name: "Deny button before Allow", html: denyFirst, submit: nil,
              sends: HTMLFieldValue(name: "decision", value: "allow"), label: "Allow access"),
        Press(name: "--submit by name", html: keycloakConsent, submit: SubmitChoice(name: "cancel", value: nil),
              sends: HTMLFieldValue(name: "cancel", value: "No"), label: "No"),
        Press(name: "--submit name=value", html: githubConsent, submit: SubmitChoice(name: "authorize", value: "0"),
              sends: HTMLFieldValue(name: "authorize", value: "0"), label: "Cancel"),
        Press(name: "--submit name=label", html: githubConsent, submit: SubmitChoice(name: "authorize", value: "Cancel"),
              sends: HTMLFieldValue(name: "authorize", value: "0"), label: "Cancel"),
        Press(name: "--submit =label presses a nameless button, which sends nothing", html: dotConsent,
              submit: SubmitChoice(name: "", value: "Cancel"), sends: nil, label: "Cancel"),
        Press(name: "--submit LABEL when no control has that name", html: dotConsent, submit: SubmitChoice(name: "Authorize", value: nil),
              sends: HTMLFieldValue(name: "allow", value: "Authorize"), label: "Authorize"),
        Press(name: "--submit presses a disabled button", html: #"<form><button name="b" value="v" disabled>Go</button></form>"#,
              submit: SubmitChoice(name: "b", value: nil), sends: HTMLFieldValue(name: "b", value: "v"), label: "Go"),
        Press(name: "neither allow- nor deny-like: the first that is not deny-like",
              html: #"<form><input type="submit" name="x" value="Cancel"><input type="submit" name="y" value="Go"><input type="submit" name="z" value="Onward"></form>"#,
              submit: nil, sends: HTMLFieldValue(name: "y", value: "Go"), label: "Go"),
        Press(name: "only deny-like buttons: none pressed",
              html: #"<form><input type="submit" name="no" value="No thanks"><button name="d">Don't allow</button></form>"#,
              submit: nil, sends: nil, label: nil),
        Press(name: "disabled buttons are not pressed unasked",
              html: #"<form><button name="a" disabled>Sign in</button><button name="b">Sign in</button></form>"#,
              submit: nil, sends: HTMLFieldValue(name: "b", value: ""), label: "Sign in"),
        Press(name: "no submit control at all", html: #"<form><input name="u"></form>"#, submit: nil, sends: nil, label: nil),
        Press(name: "type=button and reset are never pressed",
              html: #"<form><button type="button" name="a">Continue</button><input type="reset" value="Submit"></form>"#,
              submit: nil, sends: nil, label: nil),
    ]

    @Test(arguments: FormSubmissionTests.presses)
    func pressesTheRightButton(_ press: Press) throws {
        let form = Self.form(press.html)
        let sent = try FormChooser.submission(for: form, userFields: [], submit: press.submit)
        #expect(sent.pressed?.label == press.label)
        let pageValues = try FormChooser.submission(for: form, userFields: [], submit: nil).fields
            .filter { field in !form.fields.contains { $0.isSubmit && $0.name == field.name } }
        #expect(sent.fields == pageValues + (press.sends.map { [$0] } ?? []))
    }

    @Test(arguments: [SubmitChoice(name: "nope", value: nil), SubmitChoice(name: "allow", value: "Deny"), SubmitChoice(name: "csrfmiddlewaretoken", value: nil)])
    func anUnknownSubmitIsAnError(_ choice: SubmitChoice) {
        #expect(throws: FormSubmissionError.noSubmitMatching(choice.name)) {
            try FormChooser.submission(for: Self.form(Self.dotConsent), userFields: [], submit: choice)
        }
    }

    // MARK: - Missing credentials

    struct Missing: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        let given: [HTMLFieldValue]
        let missing: [String]?
        var testDescription: String { name }
    }

    static let missing: [Missing] = [
        Missing(name: "Keycloak, nothing given", html: keycloakLogin, given: [], missing: ["username", "password"]),
        Missing(name: "Keycloak, username only", html: keycloakLogin, given: values(["username": "a"]), missing: ["password"]),
        Missing(name: "Keycloak, both given", html: keycloakLogin, given: values(["username": "a", "password": "b"]), missing: nil),
        Missing(name: "an empty password given on purpose", html: keycloakLogin, given: values(["username": "a", "password": ""]), missing: nil),
        Missing(name: "django, only password", html: djangoLogin, given: values(["password": "b"]), missing: nil),
        Missing(name: "prefilled username, email and OTP fields",
                html: #"<form><input name="user" value="alice"><input type="email" name="mail"><input type="tel" name="otp"><input type="password" name="pw"><input type="password" name="pw" disabled></form>"#,
                given: [], missing: ["mail", "otp", "pw"]),
        Missing(name: "consent forms need no credentials", html: dotConsent, given: [], missing: nil),
    ]

    @Test(arguments: FormSubmissionTests.missing)
    func reportsMissingCredentials(_ test: Missing) {
        let result = Result { () throws(FormSubmissionError) in
            try FormChooser.submission(for: Self.form(test.html), userFields: test.given, submit: nil)
        }
        switch (result, test.missing) {
        case (.success, nil): break
        case (.failure(let error), let names?): #expect(error == .missingCredentials(names))
        default: Issue.record("unexpected \(result)")
        }
    }

    // MARK: - How buttons read

    @Test(arguments: [
        ("Log in", SubmitReading.allow), ("Sign in", .allow), ("SIGN_IN", .allow), ("kc-login", .allow), ("btnLogin", .allow),
        ("signIn", .allow), ("Authorize octocat", .allow), ("Authorise", .allow), ("Approve", .allow), ("Accept all", .allow),
        ("Allow access", .allow), ("I consent", .allow), ("Confirm", .allow), ("Continue", .allow), ("Next", .allow),
        ("OK", .allow), ("Yes", .allow), ("Submit Consent", .allow), ("Allowed", .allow),
        ("Deny", .deny), ("Cancel", .deny), ("Reject", .deny), ("Decline", .deny), ("No", .deny), ("No thanks", .deny),
        ("Don't allow", .deny), ("Not now", .deny), ("Disallow", .deny), ("cancel_login", .deny),
        ("Go", .neutral), ("now", .neutral), ("token", .neutral), ("Anonymous", .neutral), ("", .neutral),
    ])
    func readsButtons(_ label: String, _ reading: SubmitReading) {
        #expect(SubmitReading(HTMLField(kind: .submit, name: "", value: "", label: label)) == reading)
    }
}
