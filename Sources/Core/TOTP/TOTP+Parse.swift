/// Reading `--totp-secret`: a bare base32 seed, or the Key URI that QR codes
/// carry, `otpauth://totp/LABEL?secret=…&algorithm=…&digits=…&period=…`.
extension TOTP {
    package static func parse(_ text: String) throws(TOTPError) -> TOTP {
        let input = text.trimmed
        guard input.utf8.count >= 8, input.utf8.prefix(8).map(lowercased).elementsEqual("otpauth:".utf8) else {
            return try seed(input)
        }
        return try uri(Array(input.utf8).dropFirst(8))
    }

    private static func seed(_ text: String) throws(TOTPError) -> TOTP {
        // A colon is in no base32 seed but in every URI (otpauth-migration://…).
        guard !text.utf8.contains(ASCII.colon) else { throw .notTOTPURI }
        guard let secret = Base32.decode(text) else { throw .invalidSecret }
        return try TOTP(secret: secret)
    }

    /// `rest` follows the scheme. The authority is the type (RFC 3986 §3.2
    /// syntax); the label path is for people and ignored; parameters are
    /// percent-decoded and their names compared case-insensitively.
    private static func uri(_ rest: ArraySlice<UInt8>) throws(TOTPError) -> TOTP {
        guard rest.starts(with: "//".utf8) else { throw .notTOTPURI }
        let afterSlashes = rest.dropFirst(2)
        let typeEnd = afterSlashes.firstIndex { $0 == ASCII.slash || $0 == ASCII.question || $0 == ASCII.hash } ?? afterSlashes.endIndex
        let type = afterSlashes[..<typeEnd].map(lowercased)
        if type.elementsEqual("hotp".utf8) { throw .hotpNotSupported }
        guard type.elementsEqual("totp".utf8) else { throw .notTOTPURI }

        let withoutFragment = afterSlashes[typeEnd...].prefix { $0 != ASCII.hash }
        guard let question = withoutFragment.firstIndex(of: ASCII.question) else { throw .missingSecret }
        var parameters: [String: String] = [:]
        for (rawName, value) in FormEncoding.decode(ASCII.string(withoutFragment[(question + 1)...])) {
            let name = rawName.lowercased()
            guard ["secret", "algorithm", "digits", "period"].contains(name) else { continue } // issuer, image…
            guard parameters[name] == nil else { throw .duplicateParameter(name) }
            parameters[name] = value
        }

        guard let secretText = parameters["secret"], !secretText.trimmed.isEmpty else { throw .missingSecret }
        guard let secret = Base32.decode(secretText) else { throw .invalidSecret }
        let algorithm = try parameters["algorithm"].map(Self.algorithm) ?? .sha1
        let digits = try parameters["digits"].map { text throws(TOTPError) in try number(text, or: .invalidDigits) } ?? 6
        let period = try parameters["period"].map { text throws(TOTPError) in try number(text, or: .invalidPeriod) } ?? 30
        return try TOTP(secret: secret, algorithm: algorithm, digits: digits, period: period)
    }

    /// `SHA256`, `sha256` and `SHA-256` alike.
    private static func algorithm(_ text: String) throws(TOTPError) -> HashAlgorithm {
        let name = String(text.uppercased().filter { $0 != "-" })
        guard let algorithm = HashAlgorithm(rawValue: name) else { throw .unsupportedAlgorithm }
        return algorithm
    }

    /// ASCII digits only (no sign, no space); at most 9 of them, so the value
    /// fits any Int and the range check decides.
    private static func number(_ text: String, or error: TOTPError) throws(TOTPError) -> Int {
        guard (1...9).contains(text.utf8.count), text.utf8.allSatisfy(ASCII.isDigit), let value = Int(text) else { throw error }
        return value
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        ASCII.isLetter(byte) ? byte | 0x20 : byte
    }
}
