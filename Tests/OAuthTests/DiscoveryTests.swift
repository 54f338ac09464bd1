import Testing
@testable import Core
@testable import HTTP
@testable import OAuth

struct DiscoveryTests {
    @Test(arguments: [
        ("https://idp.example", ["https://idp.example/.well-known/openid-configuration",
                                 "https://idp.example/.well-known/oauth-authorization-server"]),
        ("https://idp.example/", ["https://idp.example/.well-known/openid-configuration",
                                  "https://idp.example/.well-known/oauth-authorization-server"]),
        ("https://idp.example/realms/dev", ["https://idp.example/realms/dev/.well-known/openid-configuration",
                                            "https://idp.example/.well-known/oauth-authorization-server/realms/dev",
                                            "https://idp.example/realms/dev/.well-known/oauth-authorization-server"]),
        ("https://idp.example/realms/dev/", ["https://idp.example/realms/dev/.well-known/openid-configuration",
                                             "https://idp.example/.well-known/oauth-authorization-server/realms/dev",
                                             "https://idp.example/realms/dev/.well-known/oauth-authorization-server"]),
        ("http://127.0.0.1:8080/o", ["http://127.0.0.1:8080/o/.well-known/openid-configuration",
                                     "http://127.0.0.1:8080/.well-known/oauth-authorization-server/o",
                                     "http://127.0.0.1:8080/o/.well-known/oauth-authorization-server"]),
    ])
    func candidateURLs(issuer: String, expected: [String]) {
        #expect(ServerMetadata.candidateURLs(issuer: issuer) == expected)
    }

    static let place = "https://idp.example/.well-known/openid-configuration"

    @Test func fullDocument() throws {
        let json = """
            {"issuer":"https://idp.example","authorization_endpoint":"https://idp.example/auth","token_endpoint":"https://idp.example/token",
             "code_challenge_methods_supported":["plain","S256",7],"authorization_response_iss_parameter_supported":true,
             "jwks_uri":"https://idp.example/jwks","response_modes_supported":["query","fragment"],
             "userinfo_endpoint":"https://api.idp.example/me","revocation_endpoint":7}
            """
        let metadata = try ServerMetadata(json: Array(json.utf8), expectedIssuer: "https://idp.example", at: Self.place)
        var expected = ServerMetadata(issuer: "https://idp.example", authorizationEndpoint: "https://idp.example/auth",
                                      tokenEndpoint: "https://idp.example/token", codeChallengeMethods: ["plain", "S256"],
                                      issParameterSupported: true)
        // What verification reads (issue 18).
        expected.jwksURI = "https://idp.example/jwks"
        expected.userinfoEndpoint = "https://api.idp.example/me"
        #expect(metadata == expected)
    }

    @Test func signingAlgorithms() throws {
        let json = """
            {"issuer":"https://idp.example","id_token_signing_alg_values_supported":["RS256","none",7],
             "authorization_signing_alg_values_supported":["ES256"],"userinfo_signing_alg_values_supported":"RS256"}
            """
        let metadata = try ServerMetadata(json: Array(json.utf8), expectedIssuer: "https://idp.example", at: Self.place)
        #expect(metadata.idTokenSigningAlgs == ["RS256", "none"])
        #expect(metadata.authorizationSigningAlgs == ["ES256"])
        #expect(metadata.userinfoSigningAlgs == nil, "not an array: the server says nothing")
    }

    @Test(arguments: [
        (#"{"issuer":"https://idp.example"}"#, ServerMetadata(issuer: "https://idp.example", authorizationEndpoint: nil, tokenEndpoint: nil,
                                                               codeChallengeMethods: nil, issParameterSupported: false)),
        (#"{"issuer":"https://idp.example","code_challenge_methods_supported":[],"authorization_response_iss_parameter_supported":"true"}"#,
         ServerMetadata(issuer: "https://idp.example", authorizationEndpoint: nil, tokenEndpoint: nil, codeChallengeMethods: [],
                        issParameterSupported: false)),
        (#"{"issuer":"https://idp.example","authorization_response_iss_parameter_supported":false,"token_endpoint":5}"#,
         ServerMetadata(issuer: "https://idp.example", authorizationEndpoint: nil, tokenEndpoint: nil, codeChallengeMethods: nil,
                        issParameterSupported: false)),
    ])
    func partialDocuments(json: String, expected: ServerMetadata) throws {
        #expect(try ServerMetadata(json: Array(json.utf8), expectedIssuer: "https://idp.example", at: Self.place) == expected)
    }

    /// Each refusal as a value; its words, hint and exit code are the CLI's
    /// (Tests/CLITests/ErrorReportTests.swift).
    static let rejected: [(String, String, OAuthError)] = [
        (#"{"issuer":"https://evil.example"}"#, "https://idp.example",
         .discoveryIssuerMismatch(found: "https://evil.example", expected: "https://idp.example", at: place)),
        (#"{"issuer":"https://idp.example/"}"#, "https://idp.example",
         .discoveryIssuerMismatch(found: "https://idp.example/", expected: "https://idp.example", at: place)),
        (#"{"issuer":"https://idp.example"}"#, "https://idp.example/",
         .discoveryIssuerMismatch(found: "https://idp.example", expected: "https://idp.example/", at: place)),
        (#"{"issuer":"HTTPS://IDP.EXAMPLE"}"#, "https://idp.example",
         .discoveryIssuerMismatch(found: "HTTPS://IDP.EXAMPLE", expected: "https://idp.example", at: place)),
        (#"{"issuer":"x\u001b[0m"}"#, "https://idp.example",
         .discoveryIssuerMismatch(found: "x\u{1B}[0m", expected: "https://idp.example", at: place)),
        (#"{"authorization_endpoint":"https://idp.example/auth"}"#, "https://idp.example", .discoveryNoIssuer(at: place)),
        (#"{"issuer":42}"#, "https://idp.example", .discoveryNoIssuer(at: place)),
        ("<html>not found</html>", "https://idp.example", .discoveryNotObject(at: place)),
        (#"["https://idp.example"]"#, "https://idp.example", .discoveryNotObject(at: place)),
        ("", "https://idp.example", .discoveryNotObject(at: place)),
    ]

    @Test(arguments: rejected)
    func rejectedDocuments(json: String, issuer: String, expected: OAuthError) {
        #expect(throws: expected) { try ServerMetadata(json: Array(json.utf8), expectedIssuer: issuer, at: Self.place) }
    }

    /// Only the endpoints authcode uses are trusted with credentials
    /// (OAuth/TrustedEndpoints.swift): not a revocation, registration or
    /// unknown `*_endpoint`, nor their mTLS aliases.
    @Test func trustedEndpointsAreTheOnesAuthcodeUses() throws {
        let json = """
            {"issuer":"https://idp.example","authorization_endpoint":"https://idp.example/auth","token_endpoint":"https://idp.example/token",
             "userinfo_endpoint":"https://api.idp.example/me","jwks_uri":"https://keys.idp.example/jwks",
             "pushed_authorization_request_endpoint":"https://par.idp.example/par",
             "revocation_endpoint":"https://revoke.example/r","registration_endpoint":"https://register.example/r",
             "end_session_endpoint":"https://logout.example/l","x_custom_endpoint":"https://evil.example/x",
             "mtls_endpoint_aliases":{"token_endpoint":"https://mtls.idp.example/token","revocation_endpoint":"https://mtls-revoke.example/r",
                                      "pushed_authorization_request_endpoint":"https://mtls.idp.example/par"}}
            """
        let metadata = try ServerMetadata(json: Array(json.utf8), expectedIssuer: "https://idp.example", at: Self.place)
        #expect(TrustedEndpoints.urls(in: metadata) == [
            "https://idp.example/auth", "https://idp.example/token", "https://api.idp.example/me", "https://keys.idp.example/jwks",
            "https://par.idp.example/par", "https://mtls.idp.example/token", "https://mtls.idp.example/par",
        ])
    }
}
