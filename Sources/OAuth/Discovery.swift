import Core
import HTTP

/// Authorization server metadata (OpenID Connect Discovery 1.0 and RFC 8414):
/// the endpoints authcode was not given, and what the server promises.
package struct ServerMetadata: Equatable, Sendable {
    package var issuer: String
    package var authorizationEndpoint: String?
    package var tokenEndpoint: String?
    package var codeChallengeMethods: [String]?
    package var issParameterSupported: Bool
    /// The modern client profile's members (Discovery+Profile.swift).
    package var profile = ProfileMetadata()
    /// What verification reads (OIDC Discovery §3, RFC 8414 §2; JARM §3):
    /// where the keys are, the userinfo endpoint, and the algorithms the
    /// server signs with (each nil when the document does not say).
    package var jwksURI: String?
    package var userinfoEndpoint: String?
    package var idTokenSigningAlgs: [String]?
    package var authorizationSigningAlgs: [String]?
    package var userinfoSigningAlgs: [String]?

    init(issuer: String, authorizationEndpoint: String?, tokenEndpoint: String?, codeChallengeMethods: [String]?, issParameterSupported: Bool) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.codeChallengeMethods = codeChallengeMethods
        self.issParameterSupported = issParameterSupported
    }

    /// The URLs to try, in order: OIDC's `issuer + /.well-known/openid-configuration`,
    /// then RFC 8414 §3.1's form with the well-known segment inserted before
    /// the issuer's path, then the OIDC-style append for oauth-authorization-server.
    package static func candidateURLs(issuer: String) -> [String] {
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        var urls = [trimmed + "/.well-known/openid-configuration"]
        if let reference = URIReference(trimmed), let scheme = reference.scheme, let authority = reference.authority {
            let path = reference.path
            urls.append("\(scheme)://\(authority)/.well-known/oauth-authorization-server\(path)")
            if !path.isEmpty && path != "/" {
                urls.append(trimmed + "/.well-known/oauth-authorization-server")
            }
        }
        return urls
    }

    /// Parses a metadata document and checks that it speaks for `issuer`
    /// (OIDC Discovery §4.3, RFC 8414 §3.3: exact string equality).
    package init(json body: [UInt8], expectedIssuer: String, at location: String) throws(OAuthError) {
        guard let json = JSONValue.parse(body), case .object = json else {
            throw .discoveryNotObject(at: location)
        }
        guard let issuer = json["issuer"]?.stringValue else {
            throw .discoveryNoIssuer(at: location)
        }
        guard issuer == expectedIssuer else {
            // The comparison stays exact; equal but for a trailing slash, the
            // hint says how the server spells itself.
            throw .discoveryIssuerMismatch(found: issuer, expected: expectedIssuer, at: location)
        }
        var methods: [String]?
        if case .array(let values)? = json["code_challenge_methods_supported"] {
            methods = values.compactMap(\.stringValue)
        }
        var supported = false
        if case .bool(let flag)? = json["authorization_response_iss_parameter_supported"] { supported = flag }
        self.init(issuer: issuer,
                  authorizationEndpoint: json["authorization_endpoint"]?.stringValue,
                  tokenEndpoint: json["token_endpoint"]?.stringValue,
                  codeChallengeMethods: methods,
                  issParameterSupported: supported)
        profile = ProfileMetadata(json: json)
        jwksURI = json["jwks_uri"]?.stringValue
        userinfoEndpoint = json["userinfo_endpoint"]?.stringValue
        idTokenSigningAlgs = Self.strings(json["id_token_signing_alg_values_supported"])
        authorizationSigningAlgs = Self.strings(json["authorization_signing_alg_values_supported"])
        userinfoSigningAlgs = Self.strings(json["userinfo_signing_alg_values_supported"])
    }

    /// The strings of a JSON array; nil when the member is not an array.
    static func strings(_ value: JSONValue?) -> [String]? {
        guard case .array(let values)? = value else { return nil }
        return values.compactMap(\.stringValue)
    }
}
