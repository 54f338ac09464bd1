import Core
import HTTP
import OAuth

/// The front-channel authorization request (RFC 6749 §4.1.1) as the
/// modern client profile sends it: the parameters as they are; or inside a
/// request object beside `client_id` (RFC 9101 §5); or pushed first with
/// client authentication (RFC 9126 §2), leaving `client_id` and
/// `request_uri` (§4). `--front-param` values are sent in front as well,
/// for servers that read some parameters only there (Glewlwyd's
/// `g_continue`); the endpoint URL's own query stays on the URL.
extension AuthorizationCodeFlow {
    func frontChannel(_ authorization: AuthorizationRequest, method: AuthorizationMethod,
                      at endpoints: ServerEndpoints, authorizeURL: String) throws(FlowError) -> HTTPRequest {
        var parameters = authorization.allParameters
        let outer: [NameValue]
        if let par = endpoints.par {
            // RFC 9449 §10.1: the code is bound to the DPoP key from the start.
            if let prover = try profile.dpopProver() { parameters.append(NameValue("dpop_jkt", prover.thumbprint)) }
            let pushed = profile.settings.requestObject
                ? [NameValue("client_id", clientSettings.id), NameValue("request", try profile.requestObject(parameters))] : parameters
            let requestURI = try push(pushed, to: par, tokenURL: endpoints.token)
            outer = [NameValue("client_id", clientSettings.id), NameValue("request_uri", requestURI)]
        } else if profile.settings.requestObject {
            outer = [NameValue("client_id", clientSettings.id), NameValue("request", try profile.requestObject(parameters))]
        } else {
            return authorization.httpRequest(endpoint: authorizeURL, method: method, headers: [])
        }
        return AuthorizationRequest.httpRequest(endpoint: authorizeURL, method: method, parameters: outer + profile.settings.frontParams,
                                                headers: [])
    }

    /// RFC 9126 §2: POST the parameters with client authentication (a new
    /// assertion and DPoP proof for each attempt); returns the request_uri.
    func push(_ parameters: [NameValue], to endpoint: String, tokenURL: String) throws(FlowError) -> String {
        let place = URIReference(endpoint)?.withoutQuery ?? endpoint
        let response = try profile.send("pushed authorization request", through: client) { () throws(FlowError) in
            PushedAuthorizationRequest(endpoint: endpoint, parameters: parameters,
                                       authentication: try profile.authentication(at: endpoint, tokenEndpoint: tokenURL)).httpRequest()
        }
        let pushed: PushedAuthorizationResponse
        do {
            pushed = try PushedAuthorizationResponse(response, at: place)
        } catch {
            throw .oauth(error)
        }
        client.trace.info("authorization request pushed; request_uri received" + (pushed.expiresIn.map { " (expires in \(Int(max(0, min($0, 1e9)))) s)" } ?? ""))
        return pushed.requestURI
    }

    /// The parameters `--resource` and `--authorization-details` add to
    /// every authorization request (RFC 8707 §2, RFC 9396 §2).
    var profileParameters: [NameValue] {
        profile.settings.resources.map { NameValue("resource", $0) }
            + (profile.settings.authorizationDetails.map { [NameValue("authorization_details", $0)] } ?? [])
    }
}
