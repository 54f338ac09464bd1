import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import OAuth
@testable import Flow
@testable import CLI

/// The rules of the modern client profile's options (CLI/OptionRules+Profile.swift):
/// what they imply, and every combination refused before any request.
struct ProfileOptionRulesTests {
    static let issuer = ["--issuer", "https://as.example"]
    static let key = ["--client-key", TestKeyFiles.p256]

    static func failure(_ arguments: [String]) -> String? {
        do throws(UsageError) {
            _ = try CLI.options(CLI.arguments(arguments))
            return nil
        } catch {
            #expect(ErrorReport(.usage(error)).exitCode == .usage)
            return ServerText.finished(error.message)
        }
    }

    @Test func clientKeyMeansPrivateKeyJWT() throws {
        let o = try CLI.options(CLI.arguments(Self.key))
        #expect(o.flow.client.authMethod == .privateKeyJWT)
        #expect(o.flow.profile.clientKey?.key.thumbprint == (try SigningKey.load(Array(TestKeyFiles.p256JWK.utf8))).thumbprint)
        #expect(o.warnings.isEmpty, "a 0600 key file: no warning")
        #expect(!o.flow.profile.par && o.flow.profile.dpop == nil && !o.flow.profile.fapi2)
    }

    @Test func fapi2TurnsOnWhatItImplies() throws {
        let o = try CLI.options(CLI.arguments(Self.issuer + Self.key + ["--fapi2"]))
        #expect(o.flow.profile.par && o.flow.profile.dpop == .fresh && o.flow.verification.requireIss && o.flow.verification.requireSignedIDToken)
        #expect(o.flow.verification.profileIDTokenAlgorithms == ["ES256", "EdDSA", "PS256"])
        #expect(o.flow.client.authMethod == .privateKeyJWT && o.flow.request.pkce == .s256)
        let mtls = try CLI.options(CLI.arguments(Self.issuer + ["--fapi2", "--cert", ArgumentParserTests.readable]))
        #expect(mtls.flow.client.authMethod == .tlsClientAuth)
        #expect(mtls.flow.profile.dpop == nil, "a certificate binds the token: DPoP is not turned on")
        let both = try CLI.options(CLI.arguments(Self.issuer + ["--fapi2", "--cert", ArgumentParserTests.readable, "--dpop"]))
        #expect(both.flow.profile.dpop == .fresh)
    }

    /// Each option that contradicts --fapi2 is exit 2, naming both.
    @Test(arguments: [
        (["--pkce", "plain"], "'--fapi2' and '--pkce plain' contradict each other: FAPI 2.0 requires PKCE with S256"),
        (["--pkce", "off"], "'--fapi2' and '--pkce off' contradict each other: FAPI 2.0 requires PKCE with S256"),
        (["--auth-method", "client_secret_basic", "--client-secret", "s3cr3t-x"],
         "'--fapi2' and '--auth-method client_secret_basic' contradict each other: FAPI 2.0 clients authenticate with private_key_jwt, tls_client_auth or self_signed_tls_client_auth"),
        (["--auth-method", "client_secret_jwt", "--client-secret", "s3cr3t-x"],
         "'--fapi2' and '--auth-method client_secret_jwt' contradict each other: FAPI 2.0 clients authenticate with private_key_jwt, tls_client_auth or self_signed_tls_client_auth"),
        (["--auth-method", "none"],
         "'--fapi2' and '--auth-method none' contradict each other: FAPI 2.0 clients authenticate with private_key_jwt, tls_client_auth or self_signed_tls_client_auth"),
        (["--client-secret", "s3cr3t-x"],
         "'--fapi2' and '--client-secret' (without '--auth-method', client_secret_basic) contradict each other: FAPI 2.0 uses no client secret: clients authenticate with private_key_jwt or mTLS"),
        (["--client-key-alg", "RS256"], "'--fapi2' and '--client-key-alg RS256' contradict each other: FAPI 2.0 signs with PS256, ES256 or EdDSA only"),
        (["--insecure"], "'--fapi2' and '--insecure' contradict each other: FAPI 2.0 requires the server's TLS certificate to be checked"),
        (["--allow-http"], "'--fapi2' and '--allow-http' contradict each other: FAPI 2.0 requires TLS (plain http goes only to loopback hosts, as always)"),
    ])
    func fapi2Contradictions(extra: [String], message: String) {
        #expect(Self.failure(Self.issuer + Self.key + ["--fapi2"] + extra) == message)
    }

    @Test func fapi2NeedsAnIssuerAndAClientProof() {
        #expect(Self.failure(Self.key + ["--fapi2"])
                == "'--fapi2' needs '--issuer <url>': the PAR endpoint comes from its metadata, and every answer must carry its iss")
        #expect(Self.failure(Self.issuer + ["--fapi2"]) == "'--fapi2' needs '--client-key <file>' (private_key_jwt) or '--cert <file>' (tls_client_auth)")
    }

    /// FAPI 2.0 §5.4.1: a P-384 key signs ES384, which the profile does not allow.
    @Test func fapi2RefusesAKeyOfAnotherAlgorithm() {
        #expect(Self.failure(Self.issuer + ["--fapi2", "--client-key", TestKeyFiles.p384])
                == "'--fapi2' and the key of '--client-key \(TestKeyFiles.p384)' contradict each other: it signs ES384, and FAPI 2.0 allows PS256, ES256 or EdDSA only")
        #expect(Self.failure(Self.issuer + Self.key + ["--fapi2", "--dpop-key", TestKeyFiles.p384])
                == "'--fapi2' and the key of '--dpop-key \(TestKeyFiles.p384)' contradict each other: it signs ES384, and FAPI 2.0 allows PS256, ES256 or EdDSA only")
    }

    @Test(arguments: [
        (["--auth-method", "private_key_jwt"], "'--auth-method private_key_jwt' needs '--client-key <file>'"),
        (["--auth-method", "tls_client_auth"],
         "'--auth-method tls_client_auth' needs '--cert <file>' (and '--key' unless the file holds it): the certificate proves the client (RFC 8705)"),
        (["--auth-method", "client_secret_jwt"], "'--auth-method client_secret_jwt' needs '--client-secret <secret>'"),
        (["--client-key-id", "k1"], "'--client-key-id <kid>' works with '--client-key <file>'"),
        (["--client-key", TestKeyFiles.ed25519, "--client-key-alg", "ES256"],
         "'--client-key-alg ES256' cannot sign with the key in '\(TestKeyFiles.ed25519)' (EdDSA fits it)"),
        (["--client-key-alg", "HS256"], "'--client-key-alg HS256' works with '--client-key <file>', or an HS algorithm with client_secret_jwt"),
        (["--assertion-aud", "endpoint"], "'--assertion-aud <issuer|endpoint|url>' works with private_key_jwt and client_secret_jwt (client assertions)"),
        (["--client-key", TestKeyFiles.p256, "--assertion-aud", "issuer"],
         "'--assertion-aud issuer' needs the issuer: give '--issuer <url>' or '--expect-iss <issuer>'"),
        (["--assertion-aud", "not a url"], "invalid value 'not a url' for '--assertion-aud': expected issuer, endpoint, or an absolute URL"),
        (["--par"], "'--par' needs '--issuer <url>': the PAR endpoint comes from the server's metadata"),
        (["--request-object", "--client-key", TestKeyFiles.p256],
         "'--request-object' needs the issuer, its audience: give '--issuer <url>' or '--expect-iss <issuer>'"),
        (["--request-object", "--expect-iss", "https://as.example"], "'--request-object' needs '--client-key <file>' (or a client secret) to sign it"),
        (["--dpop-for", "GET https://api.example/", "--dpop"],
         "'--dpop-for <'method url'>' works with '--print header': it adds the DPoP line under the Authorization line"),
        (["--dpop-for", "GET https://api.example/", "--print", "header"], "'--dpop-for <'method url'>' needs '--dpop' or '--dpop-key <file>'"),
        (["--dpop-for", "https://api.example/", "--dpop", "--print", "header"],
         "invalid value 'https://api.example/' for '--dpop-for': expected 'METHOD URL', e.g. 'GET https://api.example/me'"),
        (["--dpop-for", "GET /me", "--dpop", "--print", "header"], "invalid URL '/me' in '--dpop-for': expected an absolute http or https URL"),
        (["--dpop-nonce", "n-1", "--dpop"],
         "'--dpop-nonce <nonce>' goes into the proof of '--dpop-for <'method url'>' or '--call <'method url [body]'>'; give one of them"),
        (["--dpop-nonce", "a b", "--dpop", "--print", "header", "--dpop-for", "GET https://api.example/"],
         "invalid value for '--dpop-nonce': expected a DPoP-Nonce value: printable ASCII without spaces, quotes or backslashes (RFC 9449 §8.1)"),
        (["--call", "GET https://api.example/", "--print", "access_token"],
         "'--call <'method url [body]'>' prints the resource server's answer, so '--print' has nothing to choose; drop one of them"),
        (["--call", "GET https://api.example/", "--forget"],
         "'--forget' mints no token, so '--call <'method url [body]'>' has none to call with; drop one of them"),
        (["--call", "FETCH https://api.example/"],
         "invalid value for '--call': expected 'METHOD URL [BODY]' with METHOD one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS"),
        (["--dpop", "--cache"],
         "'--cache' with '--dpop' needs '--dpop-key <file>': a DPoP-bound token is usable only with its key, and '--dpop' alone makes a new key each run"),
        (["--dpop-key", "/nonexistent/key.pem"], "cannot read '/nonexistent/key.pem' for '--dpop-key': no such file"),
        (["--client-key", ArgumentParserTests.readable], "cannot use '\(ArgumentParserTests.readable)' for '--client-key': no private key could be read from the PEM text"),
        (["--resource", "/relative"], "invalid value '/relative' for '--resource': expected an absolute URI without a fragment (RFC 8707)"),
        (["--resource", "https://api.example/#x"], "invalid value 'https://api.example/#x' for '--resource': expected an absolute URI without a fragment (RFC 8707)"),
        (["--authorization-details", #"[{"kind":"x"}]"#],
         "invalid value for '--authorization-details': element 1 has no string \"type\"; expected a JSON array of objects, each with a string \"type\" (RFC 9396)"),
        (["--param", "resource=https://api.example/"],
         "'--param resource=…' is not allowed: authcode sets 'resource' in the authorization request itself (use --resource, which may be repeated)"),
        (["--front-param", "state=x"],
         "'--front-param state=…' is not allowed: authcode sets 'state' in the authorization request itself (authcode sends a fresh state in every run and checks it in the answer)"),
    ])
    func refused(extra: [String], message: String) {
        #expect(Self.failure(extra) == message)
    }

    @Test func fapi2WithCacheNamesWhatTurnedDPoPOn() {
        #expect(Self.failure(Self.issuer + Self.key + ["--fapi2", "--cache"]) == "'--cache' with '--fapi2' (which turns on DPoP) needs '--dpop-key <file>': "
                + "a DPoP-bound token is usable only with its key, and '--dpop' alone makes a new key each run")
        #expect(Self.failure(Self.issuer + Self.key + ["--fapi2", "--cache", "--dpop-key", TestKeyFiles.ed25519]) == nil)
    }

    /// A private key others can read: a warning naming the file and the fix.
    @Test func readableKeyFileWarns() throws {
        let o = try CLI.options(CLI.arguments(["--client-key", TestKeyFiles.p256Open]))
        #expect(o.warnings == ["authcode: warning: '\(TestKeyFiles.p256Open)' (--client-key) holds a private key that group or others can read; chmod 600 '\(TestKeyFiles.p256Open)'"])
    }

    @Test func dpopKeyImpliesDPoP() throws {
        let o = try CLI.options(CLI.arguments(["--dpop-key", TestKeyFiles.ed25519]))
        #expect(o.flow.profile.dpop?.kept?.path == TestKeyFiles.ed25519 && o.flow.client.authMethod == .none)
    }
}
