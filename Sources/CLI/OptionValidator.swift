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

/// Turns raw option strings into typed `Options`, checking every value up
/// front so that a mistake costs no network round trip, and every error names
/// the flag and the value that was wrong.
package struct OptionValidator {
    let raw: [String: [ArgumentParser.RawValue]]
    let reader: ValueReader

    func validate() throws(Failure) -> Options {
        var options = Options()
        options.issuer = try url("issuer")
        options.authorizeURL = try url("authorize-url")
        options.tokenURL = try url("token-url")
        options.expectIss = try single("expect-iss")
        if options.issuer == nil && (options.authorizeURL == nil || options.tokenURL == nil) {
            let missing = options.authorizeURL == nil ? "--authorize-url <url>" : "--token-url <url>"
            throw Failure.usage("missing '\(missing)' (or '--issuer <url>' to discover endpoints)")
        }
        guard let clientID = try single("client-id"), !clientID.isEmpty else {
            throw Failure.usage("missing value for '--client-id <id>'")
        }
        options.clientID = clientID
        options.clientSecret = try single("client-secret")
        if options.clientSecret == "" {
            throw Failure.usage("'--client-secret' is empty")
        }
        if let first = raw["client-secret"]?.first, first.fromCommandLine, !first.text.hasPrefix("@") {
            options.warnings.append("authcode: hint: a client secret on the command line shows in 'ps' and shell history; use '--client-secret @FILE' or AUTHCODE_CLIENT_SECRET")
        }
        if let method = try enumValue("auth-method", ClientAuthMethod.self) {
            options.authMethod = method
        } else {
            options.authMethod = options.clientSecret == nil ? .none : .clientSecretBasic
        }
        if options.authMethod == .none && options.clientSecret != nil {
            throw Failure.usage("'--auth-method none' sends no secret, but '--client-secret' is set; drop one of them")
        }
        if options.authMethod != .none && options.clientSecret == nil {
            throw Failure.usage("'--auth-method \(options.authMethod.rawValue)' needs '--client-secret <secret>'")
        }
        guard let redirect = try single("redirect-uri"), !redirect.isEmpty else {
            throw Failure.usage("missing value for '--redirect-uri <uri>'")
        }
        guard let reference = URIReference(redirect), reference.isAbsolute, reference.fragment == nil else {
            throw Failure.usage("'--redirect-uri' must be an absolute URI without a fragment, not '\(redirect)'")
        }
        options.redirectURI = redirect
        options.scope = try single("scope")
        options.params = try pairs("param")
        for param in options.params {
            if let flag = Self.reservedParameters[param.name] {
                throw Failure.usage("'--param \(param.name)=…' is not allowed: \(flag)")
            }
        }
        options.pkce = try enumValue("pkce", PKCEMethod.self) ?? .s256
        options.responseMode = try enumValue("response-mode", ResponseMode.self)
        options.method = try enumValue("method", AuthorizationMethod.self) ?? .post
        options.form = try pairs("form")
        for field in options.form where Self.looksSecret(field.name) {
            if let given = raw["form"]?.first(where: { $0.text.hasPrefix(field.name + "=") }), given.fromCommandLine,
               !given.text.dropFirst(field.name.count + 1).hasPrefix("@") {
                options.warnings.append("authcode: hint: a password on the command line shows in 'ps' and shell history; use '--form \(field.name)=@FILE'")
            }
        }
        if let submit = try single("submit") {
            options.submit = try Self.submitChoice(submit)
        }
        options.steps = try steps()
        options.maxHops = try integer("max-hops", in: 1...100) ?? 10
        options.print = try enumValue("print", PrintField.self) ?? .json
        let verbose = raw["verbose"] != nil, quiet = raw["quiet"] != nil
        if verbose && quiet {
            throw Failure.usage("'--verbose' and '--quiet' cannot be used together")
        }
        options.verbosity = verbose ? .verbose : quiet ? .quiet : .normal
        options.headers = try headers()
        options.connectTo = try connectTo()
        options.cacert = try readableFile("cacert")
        options.insecure = raw["insecure"] != nil
        options.cert = try readableFile("cert")
        options.key = try readableFile("key")
        if options.key != nil && options.cert == nil {
            throw Failure.usage("'--key <file>' needs '--cert <file>'")
        }
        options.timeout = try seconds("timeout") ?? 30
        options.connectTimeout = try seconds("connect-timeout") ?? 10
        options.allowHTTP = raw["allow-http"] != nil
        return options
    }

    // MARK: - Value kinds

    /// The option's value, with `@FILE` resolved.
    func single(_ long: String) throws(Failure) -> String? {
        guard let value = raw[long]?.last else { return nil }
        return try reader.resolve(value.text, for: "--" + long)
    }

    func url(_ long: String) throws(Failure) -> String? {
        guard let value = try single(long) else { return nil }
        guard let reference = URIReference(value), let scheme = reference.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = reference.host, !host.isEmpty else {
            throw Failure.usage("'--\(long)' must be an absolute http or https URL, not '\(value)'")
        }
        return value
    }

    /// A file libcurl will read later: checked now, so a typo is a usage
    /// error (exit 2) rather than a TLS failure after a connection.
    func readableFile(_ long: String) throws(Failure) -> String? {
        guard let path = try single(long) else { return nil }
        guard access(path, R_OK) == 0 else {
            throw Failure.usage("cannot read '\(path)' for '--\(long)': \(errno == ENOENT ? "no such file" : "permission denied")")
        }
        return path
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ long: String, _ type: E.Type) throws(Failure) -> E? where E.RawValue == String {
        guard let value = try single(long) else { return nil }
        if let match = E.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() }) {
            return match
        }
        let choices = E.allCases.map(\.rawValue).joined(separator: ", ")
        throw Failure.usage("invalid value '\(value)' for '--\(long)': expected one of \(choices)")
    }

    func integer(_ long: String, in range: ClosedRange<Int>) throws(Failure) -> Int? {
        guard let value = try single(long) else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw Failure.usage("invalid value '\(value)' for '--\(long)': expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func seconds(_ long: String) throws(Failure) -> Double? {
        guard let value = try single(long) else { return nil }
        guard let number = Double(value), number.isFinite, number > 0, number <= 86400 else {
            throw Failure.usage("invalid value '\(value)' for '--\(long)': expected seconds greater than 0, fractions allowed")
        }
        return number
    }

    /// `NAME=VALUE` options; the VALUE part may be `@FILE`.
    func pairs(_ long: String) throws(Failure) -> [NameValue] {
        var result: [NameValue] = []
        for value in raw[long] ?? [] {
            guard let equals = value.text.firstIndex(of: "="), equals != value.text.startIndex else {
                // The value is not echoed: a mistyped --form may be a bare password.
                throw Failure.usage("invalid value for '--\(long)': expected NAME=VALUE")
            }
            let name = String(value.text[..<equals])
            let text = String(value.text[value.text.index(after: equals)...])
            result.append(NameValue(name, try reader.resolve(text, for: "--\(long) \(name)")))
        }
        return result
    }

    func headers() throws(Failure) -> [HTTPHeader] {
        var result: [HTTPHeader] = []
        for value in raw["header"] ?? [] {
            let text = try reader.resolve(value.text, for: "--header")
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
                  text[..<colon].allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != ":" }),
                  !text.utf8.contains(0x0A), !text.utf8.contains(0x0D) else {
                throw Failure.usage("invalid value for '--header': expected 'Name: value' on one line")
            }
            result.append(HTTPHeader(String(text[..<colon]), text[text.index(after: colon)...].trimmed))
        }
        return result
    }

    func connectTo() throws(Failure) -> [String] {
        try (raw["connect-to"] ?? []).map { value throws(Failure) in
            let text = try reader.resolve(value.text, for: "--connect-to")
            // HOST:PORT:HOST2:PORT2, where a host may be a bracketed IPv6
            // literal and any part may be empty, as in curl.
            var parts: [Substring] = []
            var rest = Substring(text)
            for _ in 0..<3 {
                if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    let afterClose = rest.index(after: close)
                    guard afterClose < rest.endIndex, rest[afterClose] == ":" else { break }
                    parts.append(rest[..<afterClose]); rest = rest[rest.index(after: afterClose)...]
                } else if let colon = rest.firstIndex(of: ":") {
                    parts.append(rest[..<colon]); rest = rest[rest.index(after: colon)...]
                } else { break }
            }
            parts.append(rest)
            let isPort: (Substring) -> Bool = { $0.allSatisfy { $0.isASCII && $0.isNumber } }
            guard parts.count == 4, isPort(parts[1]), isPort(parts[3]) else {
                throw Failure.usage("invalid value '\(text)' for '--connect-to': expected HOST:PORT:HOST2:PORT2")
            }
            return text
        }
    }

    func steps() throws(Failure) -> [Step] {
        try (raw["step"] ?? []).map { value throws(Failure) in
            let parts = value.text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
            guard parts.count >= 2, methods.contains(parts[0].uppercased()) else {
                throw Failure.usage("invalid value for '--step': expected 'METHOD URL [BODY]' with METHOD one of \(methods.joined(separator: ", "))")
            }
            let target = String(parts[1])
            guard let reference = URIReference(target), let scheme = reference.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", reference.host?.isEmpty == false else {
                throw Failure.usage("invalid URL '\(target)' in '--step': expected an absolute http or https URL")
            }
            let body = try parts.count > 2 ? reader.resolve(String(parts[2]), for: "--step") : nil
            return Step(method: parts[0].uppercased(), url: target, body: body)
        }
    }

    static func submitChoice(_ text: String) throws(Failure) -> SubmitChoice {
        if let equals = text.firstIndex(of: "=") {
            guard equals != text.startIndex else {
                throw Failure.usage("invalid value '\(text)' for '--submit': expected NAME or NAME=VALUE")
            }
            return SubmitChoice(name: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
        }
        guard !text.isEmpty else {
            throw Failure.usage("invalid value '' for '--submit': expected NAME or NAME=VALUE")
        }
        return SubmitChoice(name: text, value: nil)
    }

    /// Parameters authcode makes itself, each sent exactly once (RFC 6749
    /// §3.1 forbids repeats): a --param copy would be sent twice, or would
    /// desynchronise the token request.
    static let reservedParameters = [
        "state": "authcode generates a fresh state for every run",
        "nonce": "authcode generates the nonce when scope has openid",
        "code_challenge": "use --pkce",
        "code_challenge_method": "use --pkce",
        "client_id": "use --client-id",
        "redirect_uri": "use --redirect-uri",
        "response_mode": "use --response-mode",
    ]

    /// Field names whose values are secrets (shared with the trace).
    static func looksSecret(_ name: String) -> Bool {
        Redactor.isSecretName(name)
    }
}
