import Core
import HTTP

/// `ConvergedTFA`: the second factor through the strong-authentication
/// service (SAS), as the page's script and saml2aws (pkg/provider/aad/
/// aad.go) drive it: `BeginAuth` for the chosen proof, `EndAuth` with the
/// code, then `ProcessAuth` (`urlPost`) with the flow token and context
/// they handed back. authcode answers the authenticator app's code
/// (`PhoneAppOTP`) from `--totp-secret`; a push (`PhoneAppNotification`),
/// an SMS (`OneWaySMS`) or a call (`TwoWayVoice*`) is named.
struct EntraSecondFactor {
    let config: EntraConfig
    let page: DriverPage

    static let code = "PhoneAppOTP"

    func run(in session: DriverSession) throws(DriverError) -> DriverStep {
        let proofs = (config.json["arrUserProofs"]?.elements ?? []).compactMap { $0["authMethodId"]?.nonEmptyString }
        // 50074/50076 say why the page is shown; after our own ProcessAuth
        // (a POST to this page's urlPost) they say it did not take.
        let again = page.request.method == .post && config.string("urlPost").flatMap(page.resolve).map(Walker.place) == Walker.place(page.request.url)
        if let code = config.errorCode, !["50074", "50076"].contains(code) || again {
            throw .loginRejected(provider: .entra, text: EntraErrorCodes.text(code: code, pageText: config.errorText), at: page.place)
        }
        guard proofs.contains(Self.code) else {
            throw .factorUnsupported(provider: .entra, factor: Self.names(proofs), at: page.place)
        }
        guard let begin = config.string("urlBeginAuth").flatMap(page.resolve), let end = config.string("urlEndAuth").flatMap(page.resolve),
              let process = config.string("urlPost").flatMap(page.resolve), let context = config.context, let flowToken = config.flowToken else {
            throw .pageUnknown(provider: .entra, saw: "a ConvergedTFA page without urlBeginAuth, urlEndAuth, urlPost, sCtx or sFT", at: page.place)
        }
        let code = try session.oneTimeCode(at: page.place)
        let started = try sas(begin, ["AuthMethodId": .string(Self.code), "Method": .string("BeginAuth"), "ctx": .string(context),
                                      "flowToken": .string(flowToken)], step: "BeginAuth (\(Self.code))", credential: false, in: session)
        var endBody: [String: JSONValue] = ["AuthMethodId": .string(Self.code), "Method": .string("EndAuth"),
                                            "Ctx": .string(started.context ?? context), "FlowToken": .string(started.flowToken ?? flowToken),
                                            "AdditionalAuthData": .string(code), "PollCount": .number(1)]
        if let sessionID = started.sessionID { endBody["SessionId"] = .string(sessionID) }
        let ended = try sas(end, endBody, step: "EndAuth (\(Self.code))", credential: true, in: session)
        var fields: [(String, String)] = [("type", "19"), ("GeneralVerify", "false"), ("request", ended.context ?? context),
                                          (config.flowTokenName, ended.flowToken ?? flowToken), ("mfaAuthMethod", Self.code),
                                          ("rememberMFA", "false")]
        if let user = config.postedUsername { fields.append(("login", user)) }
        if let canary = config.canary { fields.append(("canary", canary)) }
        if let sessionID = config.sessionID { fields.append(("hpgrequestid", sessionID)) }
        let request = HTTPRequest.form(url: process, fields: fields)
        return .received(try session.send(request, step: "ProcessAuth"), for: request)
    }

    /// What a SAS call hands back for the next.
    struct Progress {
        let context: String?
        let flowToken: String?
        let sessionID: String?
    }

    /// One SAS call; `Success: false` is the service's refusal, named by its
    /// `ResultValue` (`OathCodeIncorrect` for a wrong code).
    private func sas(_ url: String, _ body: [String: JSONValue], step: String, credential: Bool, in session: DriverSession) throws(DriverError) -> Progress {
        var request = HTTPRequest.json(url, .object(body), headers: config.apiHeaders)
        if credential { request.credential = .filledForm }
        let answer = try session.send(request, step: step)
        let json = try session.json(answer, at: Walker.place(url))
        let progress = Progress(context: json["Ctx"]?.nonEmptyString, flowToken: json["FlowToken"]?.nonEmptyString,
                                sessionID: json["SessionId"]?.nonEmptyString)
        for secret in [progress.context, progress.flowToken].compactMap({ $0 }) { session.remember(secret: secret) }
        guard json["Success"]?.boolValue == true else {
            let result = json["ResultValue"]?.nonEmptyString ?? "no ResultValue"
            let message = json["Message"]?.nonEmptyString.map { ": " + $0 } ?? ""
            if credential { throw .oneTimeCodeRejected(provider: .entra, text: result + message, at: Walker.place(url)) }
            throw .loginRejected(provider: .entra, text: result + message, at: Walker.place(url))
        }
        return progress
    }

    /// The proofs a user has, as an error line names them.
    static func names(_ proofs: [String]) -> String {
        let names = proofs.map { proof -> String in
            switch proof {
            case "PhoneAppNotification": "Microsoft Authenticator push (PhoneAppNotification)"
            case "OneWaySMS": "an SMS code (OneWaySMS)"
            case "TwoWayVoiceMobile", "TwoWayVoiceAlternateMobile", "TwoWayVoiceOffice": "a phone call (\(proof))"
            case "FidoKey": "a security key (FidoKey)"
            default: proof
            }
        }
        return names.isEmpty ? "a second factor it did not name" : names.joined(separator: " or ")
    }
}
