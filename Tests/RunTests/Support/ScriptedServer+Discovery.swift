import Foundation
@testable import Core
@testable import HTTP

/// Authorization server metadata (OIDC Discovery §4, RFC 8414 §3) for an
/// issuer with a path, as the fixture's discovery scenarios serve it
/// (Fixtures/server/scenarios.py `metadata`).
extension ScriptedServer {
    /// `https://as.example/tenant`: a path, so RFC 8414's inserted
    /// well-known segment differs from OIDC's appended one.
    var issuer: String { url("/tenant") }

    /// Serves the metadata at the OIDC URL (unless `oidc` is false) and the
    /// RFC 8414 one; the answers carry `iss` as the metadata promises.
    /// `claimedIssuer` is what the document says its issuer is.
    func serveDiscovery(oidc: Bool = true, methods: [String] = ["S256"], claimedIssuer: String? = nil,
                        endpoints: (authorize: String, token: String)? = nil) {
        let issuer = issuer
        behaviour.withLock {
            $0.iss = issuer
            $0.issuer = issuer
        }
        let document = """
            {"issuer":\(JSONText.quote(claimedIssuer ?? issuer)),"authorization_endpoint":\(JSONText.quote(endpoints?.authorize ?? authorizeURL)),\
            "token_endpoint":\(JSONText.quote(endpoints?.token ?? tokenURL)),"response_types_supported":["code"],\
            "response_modes_supported":["query","fragment","form_post"],"grant_types_supported":["authorization_code"],\
            "token_endpoint_auth_methods_supported":["client_secret_basic","client_secret_post","none"],\
            "code_challenge_methods_supported":[\(methods.map(JSONText.quote).joined(separator: ","))],\
            "authorization_response_iss_parameter_supported":true}
            """
        if oidc { on("/tenant/.well-known/openid-configuration") { _, _ in .json(document) } }
        on("/.well-known/oauth-authorization-server/tenant") { _, _ in .json(document) }
    }

    /// `--issuer … --client-id public-app --redirect-uri …`
    func discovered(redirect: String = ScriptedServer.redirect) -> [String] {
        ["--issuer", issuer, "--client-id", "public-app", "--redirect-uri", redirect]
    }
}
