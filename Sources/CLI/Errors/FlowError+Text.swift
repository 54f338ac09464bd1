import Core
import JOSE
import OAuth
import Flow

/// The words of a flow's error (Flow/Errors/FlowError.swift), the lower
/// layers' inside it by their own files; the exit code and hint are
/// ErrorReport.swift's.
extension FlowError {
    var text: ErrorText {
        switch self {
        case .http(let error): error.text
        case .oauth(let error): error.text
        case .walk(let error): error.text
        case .cache(let error): error.text
        case .batch(let error): error.text
        case .noAuthorizationEndpoint(let issuer):
            ErrorText("the discovery document names no authorization_endpoint", at: issuer)
        case .noTokenEndpoint(let issuer):
            ErrorText("the discovery document names no token_endpoint", at: issuer)
        case .noDiscoveryDocument(let tried, let lastStatus, let issuer):
            ErrorText("no discovery document for this issuer (\(tried) well-known URLs tried, the last answered \(lastStatus))", at: issuer)
        case .pkceNotListed(let method, let listed, let issuer):
            ErrorText("the server's metadata does not list PKCE method \(method.rawValue) "
                      + "(it lists: \(listed.isEmpty ? "none" : ServerText.printable(listed.joined(separator: ", "))))", at: issuer)
        case .noPushEndpoint(let demand, let issuer):
            ErrorText("\(Self.describe(demand)), but the server's metadata names no pushed_authorization_request_endpoint", at: issuer)
        case .noUserinfoEndpoint(let issuer):
            ErrorText("the discovery document names no userinfo_endpoint (\(OptionTable.flag(\.flow.verification.userinfo)))", at: issuer)
        case .authorizationEndpointUnknown(let issuer):
            ErrorText("no authorization endpoint", at: issuer)
        case .redirectURINotURI:
            ErrorText("'\(OptionTable.flag(\.flow.client.redirectURI))' is not a URI")
        case .clientKeyMissing:
            ErrorText("'\(OptionTable.flag(\.flow.client.authMethod)) private_key_jwt' needs '\(OptionTable.flag(\.commandLine.clientKeyFile))'")
        case .requestObjectWithoutIssuer:
            ErrorText("'\(OptionTable.flag(\.flow.profile.requestObject))' needs the issuer as its audience: "
                      + "give '\(OptionTable.flag(\.flow.server.issuer))' or '\(OptionTable.flag(\.flow.server.expectIss))'")
        case .signing(let what, let error):
            ErrorText("cannot sign \(Self.describe(what)): \(error.message)")
        case .nothingToCache:
            ErrorText("\(OptionTable.flag(\.flow.cache.enabled)) needs a token to store")
        case .noCacheDirectory:
            ErrorText("no cache directory: set \(OptionTable.flag(\.flow.cache.directory)), XDG_CACHE_HOME or HOME")
        case .stepFailed(let number, let method, let status, let quote, let place):
            ErrorText("step \(number) (\(method)) answered \(status)\(quote.text)", at: place)
        case .clientRefused(let error, _, let afterLogin):
            Self.prefixed(afterLogin ? "the login worked, but " : "", error.text)
        case .jarmWithoutKeys(let mode):
            ErrorText("\(OptionTable.flag(\.flow.request.responseMode)) \(mode.rawValue) needs keys to verify the answer with, and none are known")
        case .noKeys(let answer, let algorithm):
            ErrorText("\(answer.name): no keys to verify its \(algorithm) signature with")
        case .signature(let answer, let error, let accepted):
            switch error {
            case .algorithmNotAccepted(.unsecured): ErrorText("\(answer.name): \(error.message)")
            case .algorithmNotAccepted, .unknownAlgorithm: ErrorText("\(answer.name): \(error.message) (accepted: \(Self.list(accepted)))")
            default: ErrorText("\(answer.name): \(error.message)")
            }
        case .keySetStatus(let url, let status):
            ErrorText("could not fetch the key set at \(url): it answered \(status)", at: url)
        case .keySetFetch(let url, let error):
            ErrorText("could not fetch the key set: \(error.text.message)", at: error.text.location ?? url)
        case .keySetUnusable(let url, let error):
            ErrorText("the key set at \(url) is not usable: \(error.message)", at: url)
        case .idTokenMissing:
            ErrorText("the token response has no id_token, but the scope has openid (OIDC Core §3.1.3.3)")
        case .idTokenAlgorithmNotAllowed(let algorithm, let allowed):
            ErrorText("id_token: the JWS alg \(ServerText.printable(algorithm, limit: 20)) is not allowed by \(OptionTable.flag(\.flow.profile.fapi2)) "
                      + "(allowed: \(allowed.sorted().joined(separator: ", ")))")
        case .idTokenUnverifiable:
            ErrorText("the id_token's signature cannot be checked: no keys are known, and \(OptionTable.flag(\.flow.profile.fapi2)) requires a verified signature")
        case .notSenderConstrained(let tokenType):
            ErrorText("the token is not DPoP-bound (token_type \(ServerText.printable(tokenType, limit: 40))), "
                      + "but '\(OptionTable.flag(\.flow.profile.fapi2))' needs a sender-constrained token")
        case .signedUserinfoNotJWT(let error, let place):
            ErrorText("the signed userinfo is not a JWT: \(error.message)", at: place)
        case .afterRefreshRefused(let error):
            Self.prefixed("the cached token's refresh was refused (invalid_grant), and logging in again failed: ", error.text)
        case .resourceRefused(let method, let status, let bearer, let place):
            ErrorText("the resource server answered \(status) to \(method)\(bearer.map { ":" + OAuthError.text($0) } ?? "")", at: place)
        case .answerRefused(let grant, let place, let error):
            ErrorText("\(Self.describe(grant)) was redeemed, but the token response was refused: \(error.text.message)", at: error.failedRequest ?? place)
        case .jarmRefused(let place, let error):
            ErrorText(error.text.message + "; the code is not redeemed", at: place)
        case .userinfoUnverified(let place, let error):
            ErrorText(error.text.message, at: error.failedRequest ?? place)
        }
    }

    /// Where a request other than the one being answered failed (README
    /// "Output and exit codes", `<where>`): fetching the key set, whose timeout or oversized
    /// answer is said at the key set's URL, not at the token or userinfo
    /// endpoint that needed the keys. A key set that answered (an error
    /// status, not a key set) is named in the message and keeps the place.
    var failedRequest: String? {
        switch self {
        case .keySetFetch(let url, let error): error.text.location ?? url
        default: nil
        }
    }

    static func prefixed(_ prefix: String, _ text: ErrorText) -> ErrorText {
        ErrorText(prefix + text.message, at: text.location)
    }

    static func describe(_ demand: PushDemand) -> String {
        switch demand {
        case .fapi2: "'\(OptionTable.flag(\.flow.profile.fapi2))' pushes the authorization request (PAR)"
        case .option: "'\(OptionTable.flag(\.flow.profile.par))' was given"
        case .metadata: "the metadata says require_pushed_authorization_requests"
        }
    }

    static func describe(_ signature: ClientSignature) -> String {
        switch signature {
        case .assertion: "the client assertion"
        case .requestObject: "the request object"
        case .dpopProof: "a DPoP proof"
        }
    }

    static func describe(_ grant: RedeemedGrant) -> String {
        switch grant {
        case .code: "the code"
        case .refreshToken: "the refresh token"
        }
    }

    /// `RS256, PS256, …` in the order of JWSAlgorithm.
    static func list(_ set: Set<JWSAlgorithm>) -> String {
        let names = JWSAlgorithm.allCases.filter(set.contains).map(\.rawValue)
        return names.isEmpty ? "none of those authcode supports" : names.joined(separator: ", ")
    }
}
