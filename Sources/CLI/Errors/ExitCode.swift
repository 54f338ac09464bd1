/// The exit codes of README.md "Exit codes". Scripts branch on these numbers: never renumber.
package enum ExitCode: Int32, Sendable, Equatable, CaseIterable {
    case success = 0
    case outputFailed = 1
    case usage = 2
    case network = 3
    case authorizationError = 4
    case securityCheck = 5
    case noAuthorizationResponse = 6
    case tokenEndpoint = 7
    case malformedResponse = 8
    case batchFailed = 9
    case callFailed = 10

    /// One line for `--help`; README.md's table lists every case per code
    /// (Tests/CLITests/ReadmeExitCodeTests.swift).
    package var summary: String {
        switch self {
        case .success: "success"
        case .outputFailed: "the result could not be written to stdout or the -o file (closed pipe, full disk); stderr says whether a code was redeemed"
        case .usage: "usage: bad or missing option, unreadable @FILE"
        case .network: "network: DNS, connect, TLS, timeout"
        case .authorizationError: "the authorization server answered with error= (access_denied, invalid_scope…), or refused a pushed request"
        case .securityCheck: "a security check failed (state, iss, id_token, plain http, an answer sent elsewhere); the code is not redeemed"
        case .noAuthorizationResponse: "no authorization response: login failed, form not found, hop limit, loop, unexpected status, credentials for an untrusted origin"
        case .tokenEndpoint: "the token endpoint refused (OAuth error JSON or non-2xx), or a push failed without an OAuth error"
        case .malformedResponse: "malformed response: unparseable JSON, no access_token, oversized body"
        case .batchFailed: "--users: at least one record failed (each failure is on its own line)"
        case .callFailed: "--call: the resource server answered with an HTTP error (400 or more); its body is on stdout, the status on stderr"
        }
    }
}
