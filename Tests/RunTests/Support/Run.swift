import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import CLI

// The whole command in-process (AuthCode.run over ScriptedTransport), and
// the authorization server it talks to: routes by path, the state a real
// server keeps between requests (pending requests, codes, sessions, refresh
// tokens), and pages built like the fixture's (Fixtures/server/pages.py).
// What crosses a wire or a process stays in Tests/EndToEndTests.

/// What one in-process run did: exit code, stdout, stderr, and every request sent.
struct Ran: CustomStringConvertible {
    let arguments: [String]
    let exit: ExitCode
    let out: String
    let err: String
    let requests: [HTTPRequest]

    /// The `authcode: error: …` line, if any.
    var errorLine: String? {
        err.split(separator: "\n").first { $0.hasPrefix("authcode: error: ") }.map(String.init)
    }

    /// stdout as one JSON object (nil when it is not one).
    var json: [String: Any]? { jsonObject(out) }

    /// Request lines as `METHOD path`, for asserting what was sent where.
    var sent: [String] { requests.map { "\($0.method.rawValue) \(URIReference($0.url)?.path ?? $0.url)" } }

    var description: String {
        "authcode \(arguments.joined(separator: " "))\n→ exit \(exit.rawValue)\n--- stdout ---\n\(out.prefix(2_000))\n--- stderr ---\n\(err.prefix(4_000))"
            + "\n--- sent ---\n" + sent.joined(separator: "\n")
    }
}

/// Runs `authcode arguments` in this process: the environment is exactly
/// `env`, standard input is `stdin` (nil: reading it fails), stderr is not
/// a terminal, and every request goes to `server`.
func authcode(_ arguments: [String], env: [String: String] = [:], stdin: String? = nil, server: ScriptedServer = ScriptedServer(),
              stdoutClosed: Bool = false) -> Ran {
    authcode(arguments, env: env, stdin: stdin, transport: server.transport, stdoutClosed: stdoutClosed)
}

/// The same over a transport of the test's own.
func authcode(_ arguments: [String], env: [String: String] = [:], stdin: String? = nil, transport: ScriptedTransport,
              stdoutClosed: Bool = false) -> Ran {
    let console = CapturingConsole()
    console.stdoutClosed = stdoutClosed
    let reader = ValueReader(readStandardInput: { stdin.map { Array($0.utf8) } })
    let exit = AuthCode.run(arguments: arguments, environment: env, console: console, reader: reader,
                            transport: transport.factory, stderrIsTerminal: false)
    return Ran(arguments: arguments, exit: exit, out: console.out, err: console.err, requests: transport.requests)
}

/// Asserts a failure's common shape: the exact exit code, nothing on stdout,
/// and stderr exactly `err` (the error line, then any hint).
func expectFailure(_ ran: Ran, _ exit: ExitCode, _ err: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(ran.exit == exit, "exit code\n\(ran)", sourceLocation: sourceLocation)
    #expect(ran.out.isEmpty, "stdout stays empty on failure\n\(ran)", sourceLocation: sourceLocation)
    #expect(ran.err == err, "stderr\n\(ran)", sourceLocation: sourceLocation)
}

/// Asserts success with the token the server issued last, byte for byte on one line.
@discardableResult
func expectToken(_ ran: Ran, from server: ScriptedServer, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
    #expect(ran.exit == .success, "exit code\n\(ran)", sourceLocation: sourceLocation)
    #expect(ran.out == (server.lastTokenBody ?? "?") + "\n", "stdout is the token body as received\n\(ran)", sourceLocation: sourceLocation)
    return ran.json ?? [:]
}

/// Asserts no secret the run used or learnt reaches stderr: fixed
/// credentials, `extra`, and every secret-bearing value the server saw or sent.
func expectNoSecrets(_ ran: Ran, server: ScriptedServer, extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
    for secret in server.secretsSeen(extra: extra) where ran.err.contains(secret) {
        Issue.record("secret '\(secret)' appears on stderr\n\(ran)", sourceLocation: sourceLocation)
    }
}

/// Decodes text as one JSON object (nil when it is not).
func jsonObject(_ text: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) as? [String: Any]
}

/// The claims of a JWT's payload, decoded with Foundation (not the product's decoder).
func claims(_ jwt: String) -> [String: Any]? {
    let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
    return Data(base64Encoded: payload).flatMap { jsonObject(String(decoding: $0, as: UTF8.self)) }
}

/// Form fields or a query, decoded with Foundation; the first value of a name wins.
func formFields(_ text: String) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        func decode(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        let name = decode(parts[0])
        if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
    }
    return fields
}
