import Core
import HTTP
import OAuth
import Walk
import Flow

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kinds of value an option takes, each checked up front so a mistake
/// costs no network round trip, and each error naming the flag. No option
/// is named here: the declarations in `OptionTable` pick a parser.
enum OptionValues {
    static func text(_ text: String, _ context: ValueContext) -> String { text }

    /// A value that must not be empty (a path, a secret).
    static func nonEmpty(_ text: String, _ context: ValueContext) throws(UsageError) -> String {
        guard !text.isEmpty else { throw UsageError("'\(context.flag)' is empty") }
        return text
    }

    static func url(_ text: String, _ context: ValueContext) throws(UsageError) -> String {
        guard let reference = URIReference(text), let scheme = reference.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = reference.host, !host.isEmpty else {
            throw UsageError("'\(context.flag)' must be an absolute http or https URL, not '\(text)'")
        }
        return text
    }

    /// `--issuer`: an http(s) URL; a discovery document's URL, which many
    /// docs show, is taken as the issuer it names (issue 31 item 6):
    /// `ISSUER/.well-known/openid-configuration` (OIDC Discovery §4) and
    /// `https://host/.well-known/oauth-authorization-server/PATH` (RFC 8414 §3).
    static func issuer(_ text: String, _ context: ValueContext) throws(UsageError) -> String {
        let checked = try url(text, context)
        guard var reference = URIReference(checked), reference.query == nil, reference.fragment == nil else { return checked }
        let oidc = "/.well-known/openid-configuration", rfc8414 = "/.well-known/oauth-authorization-server"
        if reference.path.hasSuffix(oidc) {
            reference.path = String(reference.path.dropLast(oidc.count))
        } else if reference.path == rfc8414 || reference.path.hasPrefix(rfc8414 + "/") {
            reference.path = String(reference.path.dropFirst(rfc8414.count))
        } else {
            return checked
        }
        return reference.text
    }

    /// An absolute URI of any scheme, without a fragment (RFC 6749 §3.1.2).
    /// Empty reads as not given: the rules then say it is missing.
    static func redirectURI(_ text: String, _ context: ValueContext) throws(UsageError) -> String {
        if text.isEmpty { return text }
        guard let reference = URIReference(text), reference.isAbsolute, reference.fragment == nil else {
            throw UsageError("'\(context.flag)' must be an absolute URI without a fragment, not '\(text)'")
        }
        return text
    }

    /// A file libcurl will read later: checked now, so a typo is a usage
    /// error (exit 2) rather than a TLS failure after a connection.
    static func readableFile(_ path: String, _ context: ValueContext) throws(UsageError) -> String {
        guard access(path, R_OK) == 0 else {
            throw UsageError("cannot read '\(path)' for '\(context.flag)': \(errno == ENOENT ? "no such file" : "permission denied")")
        }
        return path
    }

    static func integer(in range: ClosedRange<Int>) -> @Sendable (String, ValueContext) throws(UsageError) -> Int {
        { text, context throws(UsageError) in
            guard let number = Int(text), range.contains(number) else {
                throw context.invalid(text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
    }

    static func seconds(_ text: String, _ context: ValueContext) throws(UsageError) -> Double {
        guard let number = Double(text), number.isFinite, number > 0, number <= 86400 else {
            throw context.invalid(text, expected: "seconds greater than 0, fractions allowed")
        }
        return number
    }

    /// `NAME=VALUE`; the VALUE part may be `@FILE`.
    static func pair(_ text: String, _ context: ValueContext) throws(UsageError) -> NameValue {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            // The value is not echoed: a mistyped --form may be a bare password.
            throw context.invalid(nil, expected: "NAME=VALUE")
        }
        let field = String(text[..<equals])
        let value = String(text[text.index(after: equals)...])
        return NameValue(field, try context.resolve(value, label: "\(context.flag) \(field)"))
    }

    static func header(_ text: String, _ context: ValueContext) throws(UsageError) -> HTTPHeader {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
              text[..<colon].allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != ":" }),
              !text.utf8.contains(0x0A), !text.utf8.contains(0x0D) else {
            throw context.invalid(nil, expected: "'Name: value' on one line")
        }
        return HTTPHeader(String(text[..<colon]), text[text.index(after: colon)...].trimmed)
    }

    /// HOST:PORT:HOST2:PORT2, read by the parser the plain-http policy uses.
    static func connectTo(_ text: String, _ context: ValueContext) throws(UsageError) -> ConnectTo {
        do throws(ConnectTo.Problem) {
            return try ConnectTo(text)
        } catch {
            throw UsageError("invalid value '\(text)' for '\(context.flag)': \(error)")
        }
    }

    /// A proxy as curl takes it, limited to the schemes whose hop the
    /// plain-http rule can judge: http (plain to the proxy), https and
    /// socks5h (the proxy resolves names, so none leaks to local DNS).
    static func proxy(_ text: String, _ context: ValueContext) throws(UsageError) -> String {
        guard let reference = URIReference(text), let scheme = reference.scheme?.lowercased(),
              ["http", "https", "socks5h"].contains(scheme), let host = reference.host, !host.isEmpty else {
            // Not echoed: a proxy URL may carry a password.
            throw context.invalid(nil, expected: "a proxy URL such as http://proxy.example:3128, https://… or socks5h://…")
        }
        return text
    }

    /// `METHOD URL [BODY]`; BODY may be `@FILE`.
    static func step(_ text: String, _ context: ValueContext) throws(UsageError) -> Step {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        let methods = HTTPMethod.stepMethods
        guard parts.count >= 2, methods.contains(HTTPMethod(rawValue: String(parts[0]))) else {
            throw context.invalid(nil, expected: "'METHOD URL [BODY]' with METHOD one of \(methods.map(\.rawValue).joined(separator: ", "))")
        }
        let target = String(parts[1])
        guard let reference = URIReference(target), let scheme = reference.scheme?.lowercased(),
              scheme == "http" || scheme == "https", reference.host?.isEmpty == false else {
            throw UsageError("invalid URL '\(target)' in '\(context.flag)': expected an absolute http or https URL")
        }
        let body = try parts.count > 2 ? context.resolve(String(parts[2])) : nil
        return Step(method: HTTPMethod(rawValue: String(parts[0])), url: target, body: body)
    }

    /// `scheme://host[:port]`, as RFC 6454 §4 computes an origin; kept in
    /// lower case with the default port dropped, to compare as text.
    static func origin(_ text: String, _ context: ValueContext) throws(UsageError) -> String {
        guard let reference = URIReference(text), let origin = reference.origin,
              reference.path.isEmpty || reference.path == "/", reference.query == nil, reference.fragment == nil,
              reference.userinfo == nil else {
            throw context.invalid(text, expected: "an origin such as https://login.example or http://127.0.0.1:8080")
        }
        return origin
    }

    static func shard(_ text: String, _ context: ValueContext) throws(UsageError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 1_000_000,
              index >= 1, index <= count else {
            throw context.invalid(text, expected: "K/N with 1 <= K <= N, e.g. 2/4")
        }
        return Shard(index: index, count: count)
    }

    static func submit(_ text: String, _ context: ValueContext) throws(UsageError) -> SubmitChoice {
        if let equals = text.firstIndex(of: "=") {
            guard equals != text.startIndex else { throw context.invalid(text, expected: "NAME or NAME=VALUE") }
            return SubmitChoice(name: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
        }
        guard !text.isEmpty else { throw context.invalid(text, expected: "NAME or NAME=VALUE") }
        return SubmitChoice(name: text, value: nil)
    }

    /// A TOTP seed, kept as given once it parses (`WalkSettings.totp`).
    static func totpSeed(_ seed: String, _ context: ValueContext) throws(UsageError) -> String {
        do {
            _ = try TOTP.parse(seed)
            return seed
        } catch {
            // TOTPError never quotes the value: it is a secret.
            throw UsageError("invalid value for '\(context.display)': \(error.description)")
        }
    }
}
