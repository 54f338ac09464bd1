import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// The Entra ID driver's decisions on scripted converged pages
/// (Fixtures/server/replicas/entra.md): recognition before the
/// `<noscript>` refresh, what each page's script would send, and the exact
/// error for each stop. EntraReplicaTests runs the replica.
struct EntraDriverTests {
    static let login = "https://login.example"
    static let tenant = login + "/tid"
    static let authorize = tenant + "/oauth2/v2.0/authorize"
    static let first = HTTPRequest(method: .get, url: authorize + "?client_id=app&state=" + ProviderScript.state)
    static let form = [NameValue("username", "alice@contoso.example"), NameValue("password", "hunter2-pw")]

    /// A converged page: `$Config` and the `<noscript>` refresh.
    static func page(_ pgid: String, _ extra: String = "") -> HTTPResponse {
        let config = #"{"pgid":"\#(pgid)","hpgact":1800,"hpgid":1104,"sFT":"FT-\#(pgid)","sFTName":"flowToken","sCtx":"ctx-1","canary":"can-\#(pgid)","apiCanary":"apican-1","correlationId":"corr-1","sessionId":"sess-1","sPOST_Username":"alice@contoso.example","urlGetCredentialType":"\#(login)/common/GetCredentialType?mkt=en-US"\#(extra)}"#
        return ProviderScript.html("""
            <html><head><noscript><meta http-equiv="Refresh" content="0; URL=\(login)/jsdisabled" /></noscript>
            <script type="text/javascript">//<![CDATA[
            $Config=\(config);
            //]]></script></head><body></body></html>
            """)
    }

    static let signIn: ProviderScript.Answer = { _ in page("ConvergedSignIn", #","urlPost":"/tid/login","sErrorCode":"50058","sErrTxt":"""#) }
    static let kmsi: ProviderScript.Answer = { _ in page("KmsiInterrupt", #","urlPost":"/kmsi""#) }
    static let managed: ProviderScript.Answer = { _ in ProviderScript.json(200, #"{"Username":"alice@contoso.example","IfExistsResult":0,"Credentials":{"PrefCredential":1,"HasPassword":true},"FlowToken":"FT-fromGCT","apiCanary":"apican-2"}"#) }

    static func tenantScript(afterPassword: [ProviderScript.Answer], credentialType: @escaping ProviderScript.Answer = managed,
                             more: [String: [ProviderScript.Answer]] = [:]) -> ProviderScript {
        var routes: [String: [ProviderScript.Answer]] = [
            authorize: [signIn],
            login + "/common/GetCredentialType": [credentialType],
            tenant + "/login": afterPassword,
            login + "/kmsi": [{ _ in ProviderScript.done }],
            login + "/jsdisabled": [{ _ in ProviderScript.html("<p>JavaScript is blocked</p>") }],
        ]
        routes.merge(more) { $1 }
        return ProviderScript(routes)
    }

    @Test func aManagedAccountChecksItsCredentialTypePostsThePasswordAndSaysNoToStayingSignedIn() throws {
        let script = Self.tenantScript(afterPassword: [Self.kmsi])
        let console = CapturingConsole()
        #expect(try script.walker(drivers: [EntraDriver()], form: Self.form, trusted: [Self.login], console: console).walk(from: Self.first) == ProviderScript.answer)
        let sent: [String] = script.requests.map { URIReference($0.url)?.withoutQuery ?? "" }
        #expect(sent == [Self.authorize, Self.login + "/common/GetCredentialType", Self.tenant + "/login", Self.login + "/kmsi"])
        let check = script.requests[1]
        #expect(ProviderScript.body(check)?["username"] == .string("alice@contoso.example"))
        #expect(ProviderScript.body(check)?["originalRequest"] == .string("ctx-1"))
        #expect(ProviderScript.body(check)?["flowToken"] == .string("FT-ConvergedSignIn"))
        #expect(["canary", "client-request-id", "hpgact", "hpgid", "hpgrequestid"].map { check.headers.first(named: $0) }
                == ["apican-1", "corr-1", "1800", "1104", "sess-1"])
        let password = ProviderScript.form(script.requests[2])
        #expect(password["login"] == "alice@contoso.example" && password["loginfmt"] == "alice@contoso.example" && password["passwd"] == "hunter2-pw")
        #expect(password["ctx"] == "ctx-1" && password["flowToken"] == "FT-fromGCT" && password["canary"] == "can-ConvergedSignIn")
        #expect(script.requests[2].credential == .filledForm)
        let kmsi = ProviderScript.form(script.requests[3])
        #expect(kmsi["LoginOptions"] == "3" && kmsi["type"] == "28" && kmsi["flowToken"] == "FT-KmsiInterrupt" && kmsi["ctx"] == "ctx-1")
        #expect(script.requests(to: Self.login + "/jsdisabled").isEmpty, "the <noscript> refresh is never followed")
        #expect(console.err.contains("* entra: page ConvergedSignIn\n"))
        #expect(console.err.contains("* entra: \"Stay signed in?\": answering No (authcode keeps no cookies after the run)\n"))
        for secret in ["hunter2-pw", "FT-ConvergedSignIn", "FT-fromGCT", "ctx-1", "can-ConvergedSignIn", "apican-1"] {
            #expect(!console.err.contains(secret), "\(secret) in the trace")
        }
    }

    @Test func aFederatedAccountGoesOnAtItsProvidersSignInWithoutThePassword() throws {
        let federation = "https://adfs.example/adfs/ls/?username=erin%40fabrikam.example&wa=wsignin1.0&wctx=x"
        let script = Self.tenantScript(afterPassword: [Self.kmsi], credentialType: { _ in
            ProviderScript.json(200, #"{"Username":"erin@fabrikam.example","Credentials":{"PrefCredential":4,"FederationRedirectUrl":"\#(federation)"}}"#)
        }, more: ["https://adfs.example/adfs/ls/": [{ _ in ProviderScript.done }]])
        let form = [NameValue("UserName", "erin@fabrikam.example"), NameValue("Password", "hunter2-pw")]
        #expect(try script.walker(drivers: [EntraDriver()], form: form, trusted: [Self.login]).walk(from: Self.first) == ProviderScript.answer)
        #expect(script.requests.last?.url == federation)
        #expect(script.requests.last?.method == .get)
        #expect(script.requests(to: Self.tenant + "/login").isEmpty, "the password is the federated provider's to ask for")
    }

    @Test func theSecondFactorIsTheAuthenticatorAppsCodeThroughBeginEndAndProcessAuth() throws {
        let tfa: ProviderScript.Answer = { _ in
            Self.page("ConvergedTFA", #","urlPost":"\#(Self.login)/common/SAS/ProcessAuth","urlBeginAuth":"\#(Self.login)/common/SAS/BeginAuth","urlEndAuth":"\#(Self.login)/common/SAS/EndAuth","arrUserProofs":[{"authMethodId":"PhoneAppNotification","isDefault":true},{"authMethodId":"PhoneAppOTP","isDefault":false}]"#)
        }
        let script = Self.tenantScript(afterPassword: [tfa], more: [
            Self.login + "/common/SAS/BeginAuth": [{ _ in ProviderScript.json(200, #"{"Success":true,"ResultValue":"Success","FlowToken":"FT-begin","Ctx":"ctx-1","SessionId":"sas-1"}"#) }],
            Self.login + "/common/SAS/EndAuth": [{ _ in ProviderScript.json(200, #"{"Success":true,"ResultValue":"Success","FlowToken":"FT-end","Ctx":"ctx-1","SessionId":"sas-1"}"#) }],
            Self.login + "/common/SAS/ProcessAuth": [Self.kmsi],
        ])
        #expect(try script.walker(drivers: [EntraDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.login]).walk(from: Self.first)
                == ProviderScript.answer)
        let begin = try #require(ProviderScript.body(script.requests(to: Self.login + "/common/SAS/BeginAuth")[0]))
        #expect(begin == .object(["AuthMethodId": .string("PhoneAppOTP"), "Method": .string("BeginAuth"), "ctx": .string("ctx-1"), "flowToken": .string("FT-ConvergedTFA")]))
        let end = try #require(ProviderScript.body(script.requests(to: Self.login + "/common/SAS/EndAuth")[0]))
        #expect(end["AdditionalAuthData"] == .string(ProviderScript.code) && end["FlowToken"] == .string("FT-begin") && end["SessionId"] == .string("sas-1"))
        let process = ProviderScript.form(script.requests(to: Self.login + "/common/SAS/ProcessAuth")[0])
        #expect(process["flowToken"] == "FT-end" && process["request"] == "ctx-1" && process["mfaAuthMethod"] == "PhoneAppOTP")
    }


    @Test(arguments: [
        (page("ConvergedSignIn", #","urlPost":"/tid/login","sErrorCode":"50126","sErrTxt":"AADSTS50126: Error validating credentials due to invalid username or password.""#),
         WalkError.driver(.loginRejected(provider: .entra, text: "AADSTS50126: Error validating credentials due to invalid username or password.", at: tenant + "/login"))),
        (page("ConvergedSignIn", #","urlPost":"/tid/login","sErrorCode":"50053","sErrTxt":"""#),
         WalkError.driver(.loginRejected(provider: .entra, text: "AADSTS50053 (the account is locked after too many sign-ins with a wrong password)", at: tenant + "/login"))),
        (page("ConvergedSignIn", #","urlPost":"/tid/login","sErrorCode":"50058""#),
         WalkError.driver(.loginRejected(provider: .entra, text: nil, at: tenant + "/login"))),
        (page("ConvergedTFA", #","urlPost":"/p","arrUserProofs":[{"authMethodId":"PhoneAppNotification","isDefault":true}]"#),
         WalkError.driver(.factorUnsupported(provider: .entra, factor: "Microsoft Authenticator push (PhoneAppNotification)", at: tenant + "/login"))),
        (page("ConvergedTFA", #","urlPost":"/p","arrUserProofs":[{"authMethodId":"OneWaySMS"},{"authMethodId":"TwoWayVoiceMobile"}]"#),
         WalkError.driver(.factorUnsupported(provider: .entra, factor: "an SMS code (OneWaySMS) or a phone call (TwoWayVoiceMobile)", at: tenant + "/login"))),
        (page("ConvergedProofUpRedirect", #","urlPost":"/p""#),
         WalkError.driver(.requiredAction(provider: .entra, action: "register security info (ConvergedProofUpRedirect, no skip offered)", at: tenant + "/login"))),
        (page("ConvergedError", #","sErrorCode":"50089","strServiceExceptionMessage":"AADSTS50089: Authentication failed due to flow token expired.""#),
         WalkError.driver(.loginRejected(provider: .entra, text: "AADSTS50089: Authentication failed due to flow token expired.", at: tenant + "/login"))),
        (page("ConvergedConsent"),
         WalkError.driver(.pageUnknown(provider: .entra, saw: "page ConvergedConsent", at: tenant + "/login"))),
    ])
    func eachStopInEntrasOwnWords(afterPassword: HTTPResponse, failure: WalkError) {
        let script = Self.tenantScript(afterPassword: [{ _ in afterPassword }])
        #expect(throws: failure) {
            try script.walker(drivers: [EntraDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.login]).walk(from: Self.first)
        }
    }

    @Test func aCodeTheServiceTurnsDownSaysSo() {
        let tfa: ProviderScript.Answer = { _ in
            Self.page("ConvergedTFA", #","urlPost":"\#(Self.login)/common/SAS/ProcessAuth","urlBeginAuth":"\#(Self.login)/common/SAS/BeginAuth","urlEndAuth":"\#(Self.login)/common/SAS/EndAuth","arrUserProofs":[{"authMethodId":"PhoneAppOTP"}]"#)
        }
        let script = Self.tenantScript(afterPassword: [tfa], more: [
            Self.login + "/common/SAS/BeginAuth": [{ _ in ProviderScript.json(200, #"{"Success":true,"FlowToken":"FT-b","Ctx":"ctx-1","SessionId":"s"}"#) }],
            Self.login + "/common/SAS/EndAuth": [{ _ in ProviderScript.json(200, #"{"Success":false,"ResultValue":"OathCodeIncorrect","FlowToken":"FT-e"}"#) }],
        ])
        #expect(throws: WalkError.driver(.oneTimeCodeRejected(provider: .entra, text: "OathCodeIncorrect", at: Self.login + "/common/SAS/EndAuth"))) {
            try script.walker(drivers: [EntraDriver()], form: Self.form, seed: ProviderScript.seed, trusted: [Self.login]).walk(from: Self.first)
        }
        #expect(script.requests(to: Self.login + "/common/SAS/ProcessAuth").isEmpty)
    }

    @Test func withoutAUsernameNothingIsSent() {
        let script = Self.tenantScript(afterPassword: [Self.kmsi])
        #expect(throws: WalkError.driver(.credentialsMissing(provider: .entra, names: ["loginfmt", "passwd"], at: Self.authorize))) {
            try script.walker(drivers: [EntraDriver()], form: [], trusted: [Self.login]).walk(from: Self.first)
        }
        #expect(script.requests.count == 1)
    }

    @Test func securityInfoRegistrationIsSkippedWhereOffered() throws {
        let proofUp: ProviderScript.Answer = { _ in Self.page("ConvergedProofUpRedirect", #","urlSkipMfaRegistration":"\#(Self.tenant)/proofup/skip?ctx=ctx-1""#) }
        let script = Self.tenantScript(afterPassword: [proofUp], more: [Self.tenant + "/proofup/skip": [Self.kmsi]])
        #expect(try script.walker(drivers: [EntraDriver()], form: Self.form, trusted: [Self.login]).walk(from: Self.first) == ProviderScript.answer)
        #expect(script.requests(to: Self.tenant + "/proofup/skip").map(\.method) == [.get])
    }

    @Test(arguments: [
        ("<script>$Config={\"pgid\":\"ConvergedSignIn\",\"sFT\":\"x\"};</script>", true),
        ("<script>$Config={\"sFT\":\"x\",\"urlPost\":\"/p\"};</script>", true),
        ("<script>var $Config = 1;</script>", false),
        ("<form action=/login><input name=loginfmt></form>", false),
    ])
    func recognisesAConvergedPagesConfiguration(html: String, expected: Bool) {
        let response = ProviderScript.html(html)
        #expect(EntraDriver().recognises(DriverPage(request: Self.first, response: response, parsed: ParsedPage(response))) == expected)
    }
}
