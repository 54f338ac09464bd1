import Core
import HTTP

/// Okta's Classic Authentication API (Fixtures/server/replicas/okta.md,
/// "Classic"): primary authentication at `/api/v1/authn` with the username
/// and password, a TOTP factor verified where the org asks for a second
/// factor, then the one-time `sessionToken` carried into the authorization
/// request again (OktaSessionToken.swift), which okta-auth-js does too
/// (lib/oidc/endpoints/authorize.ts). The transaction's `status` says each
/// next step; Okta's error objects (`errorCode`, `errorSummary`,
/// `errorCauses`) say why a step failed.
struct OktaClassicLogin {
    let org: String

    func run(in session: DriverSession) throws(DriverError) -> DriverStep {
        let authn = org + "/api/v1/authn"
        guard let user = session.value(for: ["username", "login"]), let password = session.value(for: ["password"]) else {
            throw .credentialsMissing(provider: .okta, names: ["username", "password"], at: authn)
        }
        var request = HTTPRequest.json(authn, .object(["username": .string(user), "password": .string(password)]),
                                       headers: [HTTPHeader("Accept", "application/json")])
        request.credential = .filledForm
        var transaction = try Self.transaction(session.send(request, step: "primary authentication (/api/v1/authn)"), at: authn, in: session)
        var tried: [String] = []
        while true {
            if let token = transaction["stateToken"]?.nonEmptyString { session.remember(secret: token) }
            let status = transaction["status"]?.stringValue ?? "no status"
            switch status {
            case "SUCCESS":
                guard let token = transaction["sessionToken"]?.nonEmptyString else {
                    throw .pageUnknown(provider: .okta, saw: "a SUCCESS transaction without a sessionToken", at: authn)
                }
                session.remember(secret: token)
                return try OktaSessionToken.authorize(with: token, in: session, at: authn)
            case "MFA_REQUIRED":
                transaction = try verify(transaction, tried: &tried, in: session)
            case "LOCKED_OUT":
                throw .loginRejected(provider: .okta, text: "the account is locked out (LOCKED_OUT)", at: authn)
            case "PASSWORD_EXPIRED", "PASSWORD_WARN", "PASSWORD_RESET":
                throw .requiredAction(provider: .okta, action: "change the password (\(status))", at: authn)
            case "MFA_ENROLL", "MFA_ENROLL_ACTIVATE":
                throw .requiredAction(provider: .okta, action: "enrol a second factor the org requires (\(status))", at: authn)
            case "RECOVERY", "RECOVERY_CHALLENGE", "LOCKED_OUT_RECOVERY":
                throw .requiredAction(provider: .okta, action: "recover the account (\(status))", at: authn)
            default:
                throw .pageUnknown(provider: .okta, saw: "an /api/v1/authn transaction with status \(status)", at: authn)
            }
        }
    }

    /// MFA_REQUIRED: verifies a TOTP factor with a code from
    /// `--totp-secret`; when one turns the code down and the user has
    /// another TOTP factor, that one is tried with the same code (the seed
    /// may be either device's). Other factors are named.
    private func verify(_ transaction: JSONValue, tried: inout [String], in session: DriverSession) throws(DriverError) -> JSONValue {
        let factors = transaction["_embedded"]?["factors"]?.elements ?? []
        let codes = Self.totpFactors(factors).filter { !tried.contains($0.id) }
        let place = org + "/api/v1/authn"
        guard let factor = codes.first else {
            if !tried.isEmpty { throw .oneTimeCodeRejected(provider: .okta, text: nil, at: place) }
            let names = factors.map { OktaFactorNames.classic($0["factorType"]?.stringValue ?? "?", provider: $0["provider"]?.stringValue) }
            throw .factorUnsupported(provider: .okta, factor: OktaFactorNames.either(names), at: place)
        }
        guard let stateToken = transaction["stateToken"]?.nonEmptyString else {
            throw .pageUnknown(provider: .okta, saw: "an MFA_REQUIRED transaction without a stateToken", at: place)
        }
        let code = try session.oneTimeCode(at: place)
        tried.append(factor.id)
        var request = HTTPRequest.json(factor.verify, .object(["stateToken": .string(stateToken), "passCode": .string(code)]),
                                       headers: [HTTPHeader("Accept", "application/json")])
        request.credential = .filledForm
        let response = try session.send(request, step: "verify \(factor.provider) TOTP factor")
        let verifyPlace = Walker.place(factor.verify)
        if response.status == 403, let error = JSONValue.parse(response.body), error["errorCode"]?.stringValue == "E0000068" {
            let text = Self.errorText(error)
            guard Self.totpFactors(factors).contains(where: { !tried.contains($0.id) }) else {
                throw .oneTimeCodeRejected(provider: .okta, text: text, at: verifyPlace)
            }
            session.trace.info("okta: the \(factor.provider) factor turned the code down; trying the next TOTP factor")
            return transaction
        }
        return try Self.transaction(response, at: verifyPlace, in: session)
    }

    /// A TOTP factor: its id, provider and verify link.
    struct TOTPFactor {
        let id: String
        let provider: String
        let verify: String
    }

    /// The user's `token:software:totp` factors, Google Authenticator first
    /// (the factor a test user enrols with a plain authenticator app; Okta
    /// Verify keeps its seed on the phone).
    static func totpFactors(_ factors: [JSONValue]) -> [TOTPFactor] {
        let all = factors.compactMap { factor -> TOTPFactor? in
            guard factor["factorType"]?.stringValue == "token:software:totp", let id = factor["id"]?.nonEmptyString,
                  let verify = factor["_links"]?["verify"]?["href"]?.nonEmptyString else { return nil }
            return TOTPFactor(id: id, provider: factor["provider"]?.stringValue ?? "TOTP", verify: verify)
        }
        return all.filter { $0.provider == "GOOGLE" } + all.filter { $0.provider != "GOOGLE" }
    }

    /// A transaction from an answer, or the error Okta's error object
    /// says: `E0000004` and other refusals are the provider's own text.
    static func transaction(_ response: HTTPResponse, at place: String, in session: DriverSession) throws(DriverError) -> JSONValue {
        let json = try session.json(response, at: place)
        if (200...299).contains(response.status), json["status"] != nil { return json }
        if json["errorCode"] != nil {
            throw .loginRejected(provider: .okta, text: errorText(json), at: place)
        }
        throw .pageUnknown(provider: .okta, saw: "a \(response.status) answer that is neither a transaction nor an Okta error", at: place)
    }

    /// `errorSummary`, and the first of `errorCauses` when it says more.
    static func errorText(_ error: JSONValue) -> String? {
        let summary = error["errorSummary"]?.nonEmptyString
        let cause = error["errorCauses"]?.elements.first?["errorSummary"]?.nonEmptyString
        switch (summary, cause) {
        case (let summary?, let cause?) where cause != summary: return "\(summary): \(cause)"
        case (let summary?, _): return summary
        default: return cause
        }
    }
}
