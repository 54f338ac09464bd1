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
    let raw: [OptionName: [ArgumentParser.RawValue]]
    let reader: ValueReader

    func validate() throws(Failure) -> Options {
        var options = Options()
        // First, so that reading an @FILE value below is bounded by it.
        options.timeout = try seconds(.timeout) ?? 30
        options.connectTimeout = try seconds(.connectTimeout) ?? 10
        reader.timeout = options.timeout
        try endpoints(into: &options)
        try client(into: &options)
        try lifecycle(into: &options)
        try request(into: &options)
        try walk(into: &options)
        try output(into: &options)
        try batch(into: &options)
        try transport(into: &options)
        return options
    }

    func endpoints(into options: inout Options) throws(Failure) {
        options.issuer = try url(.issuer)
        options.authorizeURL = try url(.authorizeURL)
        options.tokenURL = try url(.tokenURL)
        options.expectIss = try single(.expectIss)
        // A refresh needs only the token endpoint.
        let needsAuthorize = raw[.refreshToken] == nil
        if options.issuer == nil && ((needsAuthorize && options.authorizeURL == nil) || options.tokenURL == nil) {
            let missing = options.authorizeURL == nil && needsAuthorize ? OptionName.authorizeURL : .tokenURL
            throw Failure.usage("missing '\(display(missing))' (or '\(display(.issuer))' to discover endpoints)")
        }
    }

    func client(into options: inout Options) throws(Failure) {
        guard let clientID = try single(.clientID), !clientID.isEmpty else {
            throw Failure.usage("missing value for '\(display(.clientID))'")
        }
        options.clientID = clientID
        options.clientSecret = try single(.clientSecret)
        if options.clientSecret == "" {
            throw Failure.usage("'--client-secret' is empty")
        }
        if let first = raw[.clientSecret]?.first, first.fromCommandLine, !first.text.hasPrefix("@") {
            options.warnings.append("authcode: hint: a client secret on the command line shows in 'ps' and shell history; use '--client-secret @FILE' or AUTHCODE_CLIENT_SECRET")
        }
        if let method = try enumValue(.authMethod, ClientAuthMethod.self) {
            options.authMethod = method
        } else {
            options.authMethod = options.clientSecret == nil ? .none : .clientSecretBasic
        }
        if options.authMethod == .none && options.clientSecret != nil {
            throw Failure.usage("'--auth-method none' sends no secret, but '--client-secret' is set; drop one of them")
        }
        if options.authMethod != .none && options.clientSecret == nil {
            throw Failure.usage("'--auth-method \(options.authMethod.rawValue)' needs '\(display(.clientSecret))'")
        }
    }

    func lifecycle(into options: inout Options) throws(Failure) {
        options.refreshToken = try single(.refreshToken)
        if options.refreshToken == "" {
            throw Failure.usage("'--refresh-token' is empty")
        }
        options.forget = raw[.forget] != nil
        options.cache = raw[.cache] != nil || options.forget
        options.cacheDir = try single(.cacheDir)
        if options.cacheDir == "" {
            throw Failure.usage("'--cache-dir' is empty")
        }
        if let ttl = try integer(.minTTL, in: 0...31_536_000) {
            guard options.cache else {
                throw Failure.usage("'\(display(.minTTL))' works with '--cache'")
            }
            options.minTTL = ttl
        }
    }

    func request(into options: inout Options) throws(Failure) {
        if let redirect = try single(.redirectURI), !redirect.isEmpty {
            guard let reference = URIReference(redirect), reference.isAbsolute, reference.fragment == nil else {
                throw Failure.usage("'--redirect-uri' must be an absolute URI without a fragment, not '\(redirect)'")
            }
            options.redirectURI = redirect
        } else if options.refreshToken == nil {
            throw Failure.usage("missing value for '\(display(.redirectURI))'")
        }
        options.scope = try single(.scope)
        options.params = try pairs(.param)
        for param in options.params {
            if let reason = ReservedParameter.reason(param.name) {
                throw Failure.usage("'--param \(param.name)=…' is not allowed: \(reason)")
            }
        }
        options.pkce = try enumValue(.pkce, PKCEMethod.self) ?? .s256
        options.responseMode = try enumValue(.responseMode, ResponseMode.self)
        options.method = try enumValue(.method, AuthorizationMethod.self) ?? .post
    }

    func walk(into options: inout Options) throws(Failure) {
        options.form = try pairs(.form)
        for field in options.form {
            if let reason = ReservedParameter.reason(field.name) {
                throw Failure.usage("'--form \(field.name)=…' is not allowed: \(reason)")
            }
        }
        for field in options.form where Self.looksSecret(field.name) {
            if let given = raw[.form]?.first(where: { $0.text.hasPrefix(field.name + "=") }), given.fromCommandLine,
               !given.text.dropFirst(field.name.count + 1).hasPrefix("@") {
                options.warnings.append("authcode: hint: a password on the command line shows in 'ps' and shell history; use '--form \(field.name)=@FILE'")
            }
        }
        options.totpSecret = try single(.totpSecret)
        if let seed = options.totpSecret {
            do {
                options.totp = try TOTP.parse(seed)
            } catch {
                // TOTPError never quotes the value: it is a secret.
                throw Failure.usage("invalid value for '\(display(.totpSecret))': \(error.description)")
            }
        }
        if let given = raw[.totpSecret]?.last, given.fromCommandLine, !given.text.hasPrefix("@") {
            options.warnings.append("authcode: hint: a TOTP secret on the command line shows in 'ps' and shell history; use '--totp-secret @FILE' or AUTHCODE_TOTP_SECRET")
        }
        options.totpField = try single(.totpField)
        if options.totpField != nil && options.totpSecret == nil {
            throw Failure.usage("'\(display(.totpField))' needs '\(display(.totpSecret))'")
        }
        options.trustOrigins = try origins(.trustOrigin)
        if let submit = try single(.submit) {
            options.submit = try Self.submitChoice(submit)
        }
        options.steps = try steps()
        options.maxHops = try integer(.maxHops, in: 1...100) ?? 10
    }

    func output(into options: inout Options) throws(Failure) {
        options.print = try enumValue(.print, PrintField.self) ?? .json
        let verbose = raw[.verbose] != nil, quiet = raw[.quiet] != nil
        if verbose && quiet {
            throw Failure.usage("'--verbose' and '--quiet' cannot be used together")
        }
        options.verbosity = verbose ? .verbose : quiet ? .quiet : .normal
        if options.refreshToken != nil && options.print == .code {
            throw Failure.usage("'--print code' stops before the token request; '--refresh-token' has no code to print")
        }
        if options.cache && options.print == .code {
            throw Failure.usage("'--print code' redeems nothing, so there is nothing to cache; drop '--cache'")
        }
    }

    func batch(into options: inout Options) throws(Failure) {
        options.users = try single(.users, resolvingFile: false)
        if options.users == "" {
            throw Failure.usage("'--users' is empty: name a file, or - for standard input")
        }
        let parallel = try integer(.parallel, in: 1...256)
        options.shard = try shard()
        guard options.users != nil else {
            for name in [OptionName.parallel, .shard] where raw[name] != nil {
                throw Failure.usage("'\(display(name))' works with '\(display(.users))'")
            }
            return
        }
        options.parallel = parallel ?? 8
        for name in [OptionName.refreshToken, .cache, .forget] where raw[name] != nil {
            throw Failure.usage("'--\(name.rawValue)' cannot be used with '--users': each record is its own login")
        }
        if options.users == "-", options.form.contains(where: { $0.value == "@-" }) || raw.values.joined().contains(where: { $0.text == "@-" }) {
            throw Failure.usage("'--users -' reads standard input, so no other value can be '@-'")
        }
    }

    func transport(into options: inout Options) throws(Failure) {
        options.headers = try headers()
        options.connectTo = try connectTo()
        options.cacert = try readableFile(.cacert)
        options.insecure = raw[.insecure] != nil
        options.cert = try readableFile(.cert)
        options.key = try readableFile(.key)
        if options.key != nil && options.cert == nil {
            throw Failure.usage("'\(display(.key))' needs '\(display(.cert))'")
        }
        options.allowHTTP = raw[.allowHTTP] != nil
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

    /// Field names whose values are secrets (shared with the trace).
    static func looksSecret(_ name: String) -> Bool {
        Redactor.isSecretName(name)
    }
}
