import Foundation
import Testing

/// ARCHITECTURE.md "Security rules": never print a secret in the trace. Collects every secret a run
/// used or could learn (fixed credentials, values in stdout, values the server
/// received according to the hits log) and checks none of them reached stderr.
enum Secrets {
    /// The fixed credentials of both fixtures, raw and as they travel form-encoded.
    static let fixed = [
        "demo-secret", "p@ss:w/rd+ =%&", "p%40ss%3Aw%2Frd%2B+%3D%25%26", "p%40ss%3Aw%2Frd%2B%20%3D%25%26",
        "wonderland", "conf-secret", "conf-skip-secret",
    ]
    static let stdoutFields = ["code", "access_token", "refresh_token", "id_token", "code_verifier"]
    static let formFields = ["code", "code_verifier", "password", "client_secret", "csrf_token", "csrfmiddlewaretoken"]

    /// Every secret value learnt from one run.
    static func collect(stdout: String, hits: [Hit], extra: [String]) -> Set<String> {
        var found = Set(fixed + extra)
        if let object = jsonObject(stdout) {
            for field in stdoutFields { if let value = object[field] as? String { found.insert(value) } }
        } else {
            let line = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if !line.isEmpty, !line.contains("\n") { found.insert(line) }   // --print access_token and friends
        }
        for hit in hits {
            for field in formFields {
                if let value = hit.form[field] { found.insert(value) }
                if let value = hit.json[field] { found.insert(value) }
                if let value = hit.queryItems[field] { found.insert(value) }
            }
            if let authorization = hit.headers["authorization"] {
                found.insert(authorization)
                if let credentials = authorization.split(separator: " ", maxSplits: 1).last { found.insert(String(credentials)) }
            }
            for cookie in (hit.headers["cookie"] ?? "").split(separator: ";") {
                if let value = cookie.split(separator: "=", maxSplits: 1).dropFirst().first { found.insert(String(value)) }
            }
        }
        // Very short values ("v1" of cookie-flood, "1") would match by accident and protect nothing.
        return found.filter { $0.count >= 6 }
    }
}

/// Asserts no secret of this run (see `Secrets`) appears in its stderr.
func expectNoSecrets(in result: RunResult, fixture: Fixture? = nil, extra: [String] = [],
                     sourceLocation: SourceLocation = #_sourceLocation) {
    let hits = (try? fixture?.hits()) ?? []
    for secret in Secrets.collect(stdout: result.stdout, hits: hits, extra: extra).sorted() where result.stderr.contains(secret) {
        Issue.record("secret '\(secret)' appears on stderr\n\(result)", sourceLocation: sourceLocation)
    }
}

/// The common shape of a failure (README.md "Exit codes"): exact exit code, empty stdout,
/// one `authcode: error:` line holding each of `substrings`.
func expectFailure(_ result: RunResult, exit code: Int32, _ substrings: [String],
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.exitCode == code, "exit code\n\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "stdout must stay empty on failure\n\(result)", sourceLocation: sourceLocation)
    guard let line = result.errorLine else {
        Issue.record("no 'authcode: error:' line on stderr\n\(result)", sourceLocation: sourceLocation)
        return
    }
    for substring in substrings {
        #expect(line.localizedCaseInsensitiveContains(substring) || result.stderr.localizedCaseInsensitiveContains(substring),
                "stderr lacks '\(substring)'\n\(result)", sourceLocation: sourceLocation)
    }
}

/// Success: exit 0, stdout one JSON object on one newline-terminated line, with an access_token.
@discardableResult
func expectTokenJSON(_ result: RunResult, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
    #expect(result.exitCode == 0, "exit code\n\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.hasSuffix("\n") && result.stdout.filter { $0 == "\n" }.count == 1,
            "stdout must be one newline-terminated line\n\(result)", sourceLocation: sourceLocation)
    let object = jsonObject(result.stdout) ?? [:]
    #expect((object["access_token"] as? String)?.isEmpty == false, "stdout has no access_token\n\(result)", sourceLocation: sourceLocation)
    return object
}
