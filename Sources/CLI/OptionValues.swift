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

/// The kinds of value an option takes, each read from the raw strings with
/// `@FILE` resolved and checked, and each error naming the flag.
extension OptionValidator {
    /// The option's value, with `@FILE` resolved.
    /// `resolvingFile: false` for an option whose value is itself a path
    /// (`--users FILE`).
    func single(_ name: OptionName, resolvingFile: Bool = true) throws(Failure) -> String? {
        guard let value = raw[name]?.last else { return nil }
        return resolvingFile ? try reader.resolve(value.text, for: "--" + name.rawValue) : value.text
    }

    /// `--client-id <id>`, for error messages.
    func display(_ name: OptionName) -> String {
        OptionSpec.spec(name).display
    }

    func url(_ name: OptionName) throws(Failure) -> String? {
        guard let value = try single(name) else { return nil }
        guard let reference = URIReference(value), let scheme = reference.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = reference.host, !host.isEmpty else {
            throw Failure.usage("'--\(name.rawValue)' must be an absolute http or https URL, not '\(value)'")
        }
        return value
    }

    /// A file libcurl will read later: checked now, so a typo is a usage
    /// error (exit 2) rather than a TLS failure after a connection.
    func readableFile(_ name: OptionName) throws(Failure) -> String? {
        guard let path = try single(name) else { return nil }
        guard access(path, R_OK) == 0 else {
            throw Failure.usage("cannot read '\(path)' for '--\(name.rawValue)': \(errno == ENOENT ? "no such file" : "permission denied")")
        }
        return path
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ name: OptionName, _ type: E.Type) throws(Failure) -> E? where E.RawValue == String {
        guard let value = try single(name) else { return nil }
        if let match = E.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() }) {
            return match
        }
        let choices = E.allCases.map(\.rawValue).joined(separator: ", ")
        throw Failure.usage("invalid value '\(value)' for '--\(name.rawValue)': expected one of \(choices)")
    }

    func integer(_ name: OptionName, in range: ClosedRange<Int>) throws(Failure) -> Int? {
        guard let value = try single(name) else { return nil }
        guard let number = Int(value), range.contains(number) else {
            throw Failure.usage("invalid value '\(value)' for '--\(name.rawValue)': expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func seconds(_ name: OptionName) throws(Failure) -> Double? {
        guard let value = try single(name) else { return nil }
        guard let number = Double(value), number.isFinite, number > 0, number <= 86400 else {
            throw Failure.usage("invalid value '\(value)' for '--\(name.rawValue)': expected seconds greater than 0, fractions allowed")
        }
        return number
    }

    /// `NAME=VALUE` options; the VALUE part may be `@FILE`.
    func pairs(_ name: OptionName) throws(Failure) -> [NameValue] {
        var result: [NameValue] = []
        for value in raw[name] ?? [] {
            guard let equals = value.text.firstIndex(of: "="), equals != value.text.startIndex else {
                // The value is not echoed: a mistyped --form may be a bare password.
                throw Failure.usage("invalid value for '--\(name.rawValue)': expected NAME=VALUE")
            }
            let field = String(value.text[..<equals])
            let text = String(value.text[value.text.index(after: equals)...])
            result.append(NameValue(field, try reader.resolve(text, for: "--\(name.rawValue) \(field)")))
        }
        return result
    }

    func headers() throws(Failure) -> [HTTPHeader] {
        var result: [HTTPHeader] = []
        for value in raw[.header] ?? [] {
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

    /// HOST:PORT:HOST2:PORT2, read by the parser the plain-http policy uses.
    func connectTo() throws(Failure) -> [ConnectTo] {
        try (raw[.connectTo] ?? []).map { value throws(Failure) in
            let text = try reader.resolve(value.text, for: "--connect-to")
            do throws(ConnectTo.Problem) {
                return try ConnectTo(text)
            } catch {
                throw Failure.usage("invalid value '\(text)' for '--connect-to': \(error)")
            }
        }
    }

    func steps() throws(Failure) -> [Step] {
        try (raw[.step] ?? []).map { value throws(Failure) in
            let parts = value.text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            let methods = HTTPMethod.stepMethods
            guard parts.count >= 2, methods.contains(HTTPMethod(rawValue: String(parts[0]))) else {
                throw Failure.usage("invalid value for '--step': expected 'METHOD URL [BODY]' with METHOD one of \(methods.map(\.rawValue).joined(separator: ", "))")
            }
            let target = String(parts[1])
            guard let reference = URIReference(target), let scheme = reference.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", reference.host?.isEmpty == false else {
                throw Failure.usage("invalid URL '\(target)' in '--step': expected an absolute http or https URL")
            }
            let body = try parts.count > 2 ? reader.resolve(String(parts[2]), for: "--step") : nil
            return Step(method: HTTPMethod(rawValue: String(parts[0])), url: target, body: body)
        }
    }


    /// `scheme://host[:port]`, as RFC 6454 §4 computes an origin; kept in
    /// lower case with the default port dropped, to compare as text.
    func origins(_ name: OptionName) throws(Failure) -> [String] {
        try (raw[name] ?? []).map { value throws(Failure) in
            let text = try reader.resolve(value.text, for: "--" + name.rawValue)
            guard let reference = URIReference(text), let origin = reference.origin,
                  reference.path.isEmpty || reference.path == "/", reference.query == nil, reference.fragment == nil,
                  reference.userinfo == nil else {
                throw Failure.usage("invalid value '\(text)' for '--\(name.rawValue)': expected an origin such as https://login.example or http://127.0.0.1:8080")
            }
            return origin
        }
    }

    func shard() throws(Failure) -> Shard? {
        guard let text = try single(.shard) else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 1_000_000,
              index >= 1, index <= count else {
            throw Failure.usage("invalid value '\(text)' for '--shard': expected K/N with 1 <= K <= N, e.g. 2/4")
        }
        return Shard(index: index, count: count)
    }
}
