import OAuth

/// Why a parameter name is authcode's own (OAuth/ReservedParameter.swift),
/// in the words of the `--param`, `--form` and `--users` refusals.
extension ReservedParameter {
    /// The sentence after "… is not allowed: ".
    func reason(_ name: String) -> String {
        "authcode sets '\(name)' in the authorization request itself (\(instead))"
    }

    /// What to use instead, or why it is ours.
    var instead: String {
        switch self {
        case .responseType: "authcode always asks for response_type=code, the authorization-code grant"
        case .state: "authcode sends a fresh state in every run and checks it in the answer"
        case .nonce: "authcode sends a fresh nonce when scope has openid and checks it in the id_token"
        case .requestObject: "authcode sends the authorization parameters itself; a request object would carry them twice"
        case .pushedRequest: "authcode sends the authorization parameters itself; a pushed request would carry them twice"
        case .dpopKeyThumbprint: "authcode sends it with \(OptionTable.flag(\.commandLine.dpop)) and \(OptionTable.flag(\.flow.profile.par))"
        case .option(.clientID): "use \(OptionTable.flag(\.flow.client.id))"
        case .option(.redirectURI): "use \(OptionTable.flag(\.flow.client.redirectURI))"
        case .option(.scope): "use \(OptionTable.flag(\.flow.request.scope))"
        case .option(.pkce): "use \(OptionTable.flag(\.flow.request.pkce))"
        case .option(.responseMode): "use \(OptionTable.flag(\.flow.request.responseMode))"
        case .option(.resource): "use \(OptionTable.flag(\.flow.profile.resources)), which may be repeated"
        case .option(.authorizationDetails): "use \(OptionTable.flag(\.flow.profile.authorizationDetails)), which is checked before any request"
        }
    }
}
