import Core
import HTTP
import JOSE
import OAuth
import Walk
import Flow

/// The values of the verification options (OptionTable.verification),
/// checked before any request.
extension OptionValues {
    /// A key set: JSON given inline (what `@FILE` yields), an http(s) URL
    /// fetched when keys are needed, or the path of a JWK Set file read now
    /// (a single JWK is a set of one).
    static func keySet(_ text: String, _ context: ValueContext) throws(UsageError) -> KeySetSource {
        let trimmed = text.trimmed
        if trimmed.hasPrefix("{") {
            return .given(try keys(Array(trimmed.utf8), from: "the value", context), from: "\(context.flag) value")
        }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            return .url(try url(trimmed, context))
        }
        guard !text.isEmpty else { throw UsageError("'\(context.flag)' is empty") }
        let bytes: [UInt8]
        do throws(UsageError) {
            bytes = try BoundedRead.file(text, timeout: context.reader.timeout)
        } catch {
            throw UsageError("cannot read '\(text)' for '\(context.flag)': \(error.message)")
        }
        return .given(try keys(bytes, from: "'\(text)'", context), from: text)
    }

    static func keys(_ bytes: [UInt8], from source: String, _ context: ValueContext) throws(UsageError) -> JWKSet {
        let set: JWKSet
        do throws(JOSEError) {
            guard let json = JSONValue.parse(bytes) else { throw .notJSON }
            set = json["keys"] == nil ? JWKSet(keys: [try JWK(json: json)]) : try JWKSet(json: json)
        } catch {
            throw UsageError("\(source) for '\(context.flag)' is not a key set: \(error.message)")
        }
        guard set.keys.contains(where: { $0.keyType != .oct }) else {
            throw UsageError("\(source) for '\(context.flag)' holds no key authcode can verify with (RSA, EC P-256/384/521, Ed25519)")
        }
        return set
    }

    /// `RS256,PS256`: algorithms of JOSE/JWSAlgorithm.swift, any case;
    /// `none` only alone (OIDC Core §2: a client registered for unsigned id_tokens).
    static func algorithms(_ text: String, _ context: ValueContext) throws(UsageError) -> [JWSAlgorithm] {
        var chosen: [JWSAlgorithm] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmed }) {
            guard let algorithm = JWSAlgorithm.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                throw context.invalid(name, expected: "algorithms from " + JWSAlgorithm.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if !chosen.contains(algorithm) { chosen.append(algorithm) }
        }
        if chosen.contains(.unsecured) && chosen.count > 1 {
            throw UsageError("'none' can only be given alone to '\(context.flag)': it then accepts unsigned id_tokens only")
        }
        return chosen
    }

    static func skew(_ text: String, _ context: ValueContext) throws(UsageError) -> Double {
        guard let number = Double(text), number.isFinite, number >= 0, number <= 3600 else {
            throw context.invalid(text, expected: "seconds from 0 to 3600, fractions allowed")
        }
        return number
    }
}
