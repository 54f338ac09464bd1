import Foundation
import Testing

/// What the identity-provider replicas' tests share (Fixtures/server/
/// replicas/*.md): the credentials a provider hands out during a login,
/// which no output may show. (A run's replica switches go in with
/// `Fixture.configure`, Signed.swift.)
enum ReplicaSecrets {
    /// Names under which the replicas receive provider-issued credentials
    /// and one-time codes: Okta's stateToken, stateHandle, sessionToken and
    /// passCode; Entra's flow tokens, context, canaries and SAS code; the
    /// WS-Federation token; Auth0's CSRF value and one-time code.
    static let names = ["stateToken", "stateHandle", "sessionToken", "token", "passCode", "flowToken", "FlowToken", "ctx", "Ctx", "request",
                        "originalRequest", "canary", "AdditionalAuthData", "wresult", "_csrf", "mfa_code"]

    /// Every such value the run's hits hold (query, form, top-level JSON,
    /// the `canary` header), at least 6 characters long.
    static func issued(_ hits: [Hit]) -> [String] {
        var found: Set<String> = []
        for hit in hits {
            for name in names {
                for value in [hit.queryItems[name], hit.form[name], hit.json[name]].compactMap({ $0 }) where value.count >= 6 { found.insert(value) }
            }
            if let canary = hit.headers["canary"], canary.count >= 6 { found.insert(canary) }
        }
        return found.sorted()
    }
}

/// A run's credentials on stdin: the password file authcode reads with `@-`.
enum ReplicaUser {
    /// `--form username=<name> --form password=@-`
    static func form(_ name: String, usernameField: String = "username", passwordField: String = "password") -> [String] {
        ["--form", "\(usernameField)=\(name)", "--form", "\(passwordField)=@-"]
    }
}
