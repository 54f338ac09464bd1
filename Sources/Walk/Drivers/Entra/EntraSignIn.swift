import Core
import HTTP

/// `ConvergedSignIn`: what the page's script does with a username and a
/// password (saml2aws pkg/provider/aad/aad.go; Fixtures/server/replicas/
/// entra.md): the credential-type check (`urlGetCredentialType`, JSON, with
/// the page's `apiCanary` and ids as headers) says whether the account is
/// managed or federated; a managed account's password is posted as the
/// form the script would build (`urlPost`: `login`, `loginfmt`, `passwd`,
/// `ctx`, the flow token, `canary`); a federated one goes to its
/// `FederationRedirectUrl`, an HTML login the generic walk then fills.
struct EntraSignIn {
    let config: EntraConfig
    let page: DriverPage

    func run(in session: DriverSession) throws(DriverError) -> DriverStep {
        if let code = config.errorCode {
            throw .loginRejected(provider: .entra, text: EntraErrorCodes.text(code: code, pageText: config.errorText), at: page.place)
        }
        if page.request.credential == .filledForm {
            // The sign-in page again, no error code, right after our
            // credentials: the same turn-down without a reason.
            throw .loginRejected(provider: .entra, text: nil, at: page.place)
        }
        // `UserName` too: a federated account's password goes to its own
        // provider's form (AD FS names the fields UserName and Password),
        // which the generic walk fills from the same --form values.
        guard let user = session.value(for: ["loginfmt", "login", "username", "UserName"]) else {
            throw .credentialsMissing(provider: .entra, names: ["loginfmt", "passwd"], at: page.place)
        }
        var flowToken = config.flowToken
        if let url = config.string("urlGetCredentialType").flatMap(page.resolve) {
            let answer = try credentialType(of: user, at: url, in: session)
            if let federation = answer["Credentials"]?["FederationRedirectUrl"]?.nonEmptyString.flatMap(page.resolve) {
                session.trace.info("entra: the account is federated; going on at its identity provider's sign-in")
                return .send(HTTPRequest(method: .get, url: federation))
            }
            if let next = answer["FlowToken"]?.nonEmptyString {
                session.remember(secret: next)
                flowToken = next
            }
        }
        guard let password = session.value(for: ["passwd", "password"]) else {
            throw .credentialsMissing(provider: .entra, names: ["passwd"], at: page.place)
        }
        guard let post = config.string("urlPost").flatMap(page.resolve), let context = config.context, let flowToken else {
            throw .pageUnknown(provider: .entra, saw: "a ConvergedSignIn page without urlPost, sCtx or sFT", at: page.place)
        }
        // The fields of the page's own password form (type 11: a password
        // sign-in; LoginOptions 3: "stay signed in" not ticked).
        var fields: [(String, String)] = [("i13", "0"), ("login", user), ("loginfmt", user), ("type", "11"), ("LoginOptions", "3"),
                                          ("passwd", password), ("ps", "2"), ("ctx", context), (config.flowTokenName, flowToken)]
        if let canary = config.canary { fields.append(("canary", canary)) }
        if let sessionID = config.sessionID { fields.append(("hpgrequestid", sessionID)) }
        var request = HTTPRequest.form(url: post, fields: fields)
        request.credential = .filledForm
        return .received(try session.send(request, step: "password (\(Walker.place(post)))"), for: request)
    }

    /// `POST urlGetCredentialType`: managed, unknown or federated.
    private func credentialType(of user: String, at url: String, in session: DriverSession) throws(DriverError) -> JSONValue {
        var body: [String: JSONValue] = [
            "username": .string(user), "isOtherIdpSupported": .bool(true), "checkPhones": .bool(false),
            "isRemoteNGCSupported": .bool(false), "isCookieBannerShown": .bool(false), "isFidoSupported": .bool(false),
            "forceotclogin": .bool(false), "isExternalFederationDisallowed": .bool(false), "isRemoteConnectSupported": .bool(false),
            "federationFlags": .number(0), "isSignup": .bool(false), "isAccessPassSupported": .bool(false),
        ]
        if let context = config.context { body["originalRequest"] = .string(context) }
        if let flowToken = config.flowToken { body["flowToken"] = .string(flowToken) }
        var request = HTTPRequest.json(url, .object(body), headers: config.apiHeaders)
        // It names the user: a credential of theirs, for a trusted origin only.
        request.credential = .filledForm
        let answer = try session.send(request, step: "GetCredentialType")
        let json = try session.json(answer, at: Walker.place(url))
        if let canary = json["apiCanary"]?.nonEmptyString { session.remember(secret: canary) }
        return json
    }
}
