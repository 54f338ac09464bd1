import Core
import HTTP
import OAuth

/// The words of an OAuth error (OAuth/OAuthError.swift); the exit code and
/// hint are ErrorReport.swift's.
extension OAuthError {
    var text: ErrorText {
        switch self {
        case .repeatedParameter(let name, let place):
            ErrorText("the authorization response has '\(name)' more than once; refusing to guess which is real", at: place)
        case .noState(let errorAnswer, let place):
            ErrorText("\(Self.answer(errorAnswer)) has no state; the code is not redeemed", at: place)
        case .stateMismatch(let errorAnswer, let place):
            ErrorText("state mismatch: \(Self.answer(errorAnswer)) is not for this request; the code is not redeemed", at: place)
        case .authorizationServer(let error, let description, let place):
            ErrorText("the authorization server answered error=\(ServerText.printable(error))"
                      + (description.map { ": \(ServerText.printable($0))" } ?? ""), at: place)
        case .issuerMismatch(let expected, let got, let place):
            ErrorText("iss mismatch: expected '\(expected)', got '\(ServerText.printable(got))' (RFC 9207); the code is not redeemed", at: place)
        case .issuerMissing(let place):
            ErrorText("the authorization response has no iss although the server's metadata promises it (RFC 9207); the code is not redeemed",
                      at: place)
        case .issuerNotOfEndpoint(let iss, let origin, let place):
            ErrorText("iss '\(ServerText.printable(iss))' is not of the authorization endpoint's origin \(origin) (RFC 9207); the code is not redeemed",
                      at: place)
        case .noCode(let place):
            ErrorText("the authorization response has neither code nor error", at: place)
        case .jarmMissing(let mode, let place):
            ErrorText("the authorization response has no JARM 'response' parameter (\(OptionTable.flag(\.flow.request.responseMode)) \(mode.rawValue)); "
                      + "the code is not redeemed", at: place)
        case .jarmNotJWT(let error, let place):
            ErrorText("the JARM response is not a JWT: \(error.message); the code is not redeemed", at: place)
        case .jarmPayloadNotObject(let place):
            ErrorText("the JARM response's payload is not a JSON object; the code is not redeemed", at: place)
        case .jarmClaims(let error, let place):
            ErrorText(error.message + "; the code is not redeemed", at: place)
        case .claims(let error):
            ErrorText(error.message)
        case .idTokenNotString:
            ErrorText("the id_token is neither a string nor null")
        case .idTokenEncrypted:
            ErrorText("the id_token is encrypted (JWE); authcode cannot check its claims")
        case .idTokenNotJWT(let error):
            ErrorText("the id_token is not a JWT: \(error.message)")
        case .idTokenPayloadNotObject:
            ErrorText("the id_token's payload is not a JSON object")
        case .identityChanged(let claim):
            ErrorText("the refreshed id_token's \(claim) differs from the stored id_token's (OIDC Core §12.2)")
        case .discoveryNotObject(let place):
            ErrorText("the discovery document is not a JSON object", at: place)
        case .discoveryNoIssuer(let place):
            ErrorText("the discovery document has no issuer", at: place)
        case .discoveryIssuerMismatch(let found, let expected, let place):
            ErrorText("the discovery document is for issuer '\(ServerText.printable(found))', not '\(expected)'", at: place)
        case .tokenRefused(let status, let error, let place):
            ErrorText("the token endpoint refused: " + (status.map { "\($0) " } ?? "") + error.text, at: place)
        case .tokenStatus(let status, let quote, let place):
            ErrorText("the token endpoint answered \(status)\(quote.text)", at: place)
        case .tokenNotJSON(let status, let quote, let place):
            ErrorText("the token endpoint's answer is not a JSON object: \(status)\(quote.text)", at: place)
        case .noAccessToken(let place):
            ErrorText("the token endpoint's answer has no access_token", at: place)
        case .dpopNonceMalformed(let limit, let place):
            ErrorText("the answer's DPoP-Nonce is " + (limit.map { "longer than \($0) bytes" } ?? "not 1*NQCHAR (RFC 9449 §8.1)") + "; not sending it back",
                      at: place)
        case .pushRefused(let status, let error, let place):
            ErrorText("the pushed authorization request endpoint refused: \(status) \(error.text)", at: place)
        case .pushStatus(let status, let quote, let place):
            ErrorText("the pushed authorization request endpoint answered \(status)" + quote.text, at: place)
        case .pushNoRequestURI(let status, let quote, let place):
            ErrorText("the pushed authorization request endpoint's answer has no request_uri: \(status)" + quote.text, at: place)
        case .userinfoRefused(let status, let bearer, let quote, let place):
            ErrorText("the userinfo endpoint refused: \(status)\(bearer.map(Self.text) ?? quote.text)", at: place)
        case .userinfoNotObject(let quote, let place):
            ErrorText("the userinfo answer is not a JSON object\(quote.text)", at: place)
        case .userinfoNotJSONOrJWT(let quote, let place):
            ErrorText("the userinfo answer is neither JSON nor a JWT\(quote.text)", at: place)
        case .signedUserinfoNotObject(let place):
            ErrorText("the signed userinfo's payload is not a JSON object", at: place)
        case .userinfoClaims(let error, let place):
            ErrorText(error.message, at: place)
        case .userinfoUnbound(let place):
            ErrorText("the userinfo answer cannot be tied to a user: the token response has no id_token whose sub it must match", at: place)
        case .userinfoNoSubject(let place):
            ErrorText("the userinfo answer has no sub (OIDC Core §5.3.2)", at: place)
        case .userinfoSubjectMismatch(let place):
            ErrorText("the userinfo sub does not match the id_token's sub (OIDC Core §5.3.2)", at: place)
        }
    }

    /// An answer carrying `error=` is not quoted before its state is checked.
    static func answer(_ errorAnswer: Bool) -> String {
        errorAnswer ? "the error answer (its text is not shown: anyone can forge it)" : "the authorization response"
    }

    /// ` error=invalid_token: The access token expired`, marked.
    static func text(_ bearer: BearerError) -> String {
        " error=\(ServerText.printable(bearer.error, limit: 80))" + (bearer.description.map { ": \(ServerText.printable($0, limit: 200))" } ?? "")
    }
}

extension ClaimError {
    /// `id_token has no iss`: the answer, then what is wrong with its claims.
    var message: String {
        "\(answer.name) \(problem.text)"
    }
}

extension ClaimProblem {
    var text: String {
        switch self {
        case .missing(let claim): "has no \(claim)"
        case .issuerNotString: "iss is not a string"
        case .issuerNotExpected(let expected): "iss is not \(Self.describe(expected))"
        case .audienceMalformed: "aud is not a string or an array of strings"
        case .audienceLacksClient(let clientID): "aud does not contain this client '\(clientID)'"
        case .untrustedAudience: "aud names an audience besides this client that is not trusted"
        case .notNumericDate(let claim): "\(claim) is not a finite JSON number"
        case .expired(let skew): "has expired (exp is past, beyond \(Self.seconds(skew)) of clock skew)"
        case .issuedInFuture(let skew): "iat is in the future (beyond \(Self.seconds(skew)) of clock skew)"
        case .notYetValid(let skew): "is not valid yet (nbf is in the future, beyond \(Self.seconds(skew)) of clock skew)"
        case .authorizedPartyNotClient(let clientID): "azp is not this client '\(clientID)'"
        case .subjectNotString: "sub is not a non-empty string"
        case .nonceMissing: "has no nonce, but the authorization request sent one"
        case .nonceMismatch: "nonce does not match the one sent in the authorization request"
        case .authTimeMissing: "has no auth_time, but max_age was sent"
        case .authTimeTooOld(let skew): "auth_time is older than max_age allows (beyond \(Self.seconds(skew)) of clock skew)"
        }
    }

    /// What was expected (our own value, never the claim's).
    static func describe(_ expected: ExpectedIssuer) -> String {
        switch expected {
        case .exact(let issuer):
            "the expected issuer '\(issuer)'"
        case .originOf(let url):
            "of the origin of \(URIReference(url)?.origin ?? url) (no issuer is known: pass \(OptionTable.flag(\.flow.server.issuer)) or \(OptionTable.flag(\.flow.server.expectIss)))"
        }
    }

    /// `60 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        (value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : "\(value)") + " s"
    }
}

extension SignedAnswer {
    /// The subject of a claim or signature failure.
    var name: String {
        switch self {
        case .idToken: "id_token"
        case .jarmResponse: "JARM response"
        case .signedUserinfo: "signed userinfo"
        }
    }
}
