import Foundation
import Testing

/// The fixture's `signed` scenario (Fixtures/server/README.md, "Signatures and
/// the modern client profile"): an OpenID provider that signs with PyPI's
/// `cryptography`, configured per run through `/_config/<run>`.
extension Fixture {
    /// Replaces this run's config (README "Config keys"); `{}` is the defaults.
    func configure(_ json: String) throws {
        try httpPost("\(base)/_config/\(run)", json: json)
    }

    /// `--issuer <issuer> --client-id … --redirect-uri … --scope …`: discovery
    /// finds the keys (jwks_uri) and the userinfo endpoint.
    func signedFlow(_ scenario: String = "signed", client: String = "public-app", scope: String = "openid") -> [String] {
        ["--issuer", issuer(scenario), "--client-id", client, "--redirect-uri", Fixture.redirect, "--scope", scope]
    }

    /// The error line of an id_token refused after the code was redeemed.
    func refusedIDToken(_ message: String, scenario: String = "signed") -> String {
        "authcode: error: the code was redeemed, but the token response was refused: \(message) (\(issuer(scenario))/token)"
    }

    /// The run's key set as the fixture serves it (a GET that counts in `jwks_fetches`).
    func keySet(scenario: String = "signed") throws -> String {
        String(decoding: try httpGet(issuer(scenario) + "/jwks"), as: UTF8.self)
    }
}

/// A compact JWT's header (part 0) or payload (part 1), decoded and not
/// verified: tests read what authcode verified.
func jwtPart(_ jwt: String?, _ index: Int) -> [String: Any] {
    let parts = (jwt ?? "").split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return [:] }
    var text = String(parts[index]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    text += String(repeating: "=", count: (4 - text.count % 4) % 4)
    guard let data = Data(base64Encoded: text) else { return [:] }
    return ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:]
}

/// The `* …` lines of a `-v` trace that start with `prefix`.
func traceLines(_ result: RunResult, _ prefix: String) -> [String] {
    result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("* " + prefix) }
}
