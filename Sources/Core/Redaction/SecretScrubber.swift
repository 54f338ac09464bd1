/// Masks every secret a run knows, in every form a server may echo it
/// (`SecretForms`), in any text bound for a terminal or a log.
///
/// All forms of all secrets go into one `BytePatternSet`, so a text is
/// scanned once, as UTF-8 bytes, however many secrets there are. Every byte
/// covered by any match is masked — overlapping or nested secrets leave no
/// fragment behind — and each run of covered bytes becomes one mask.
///
/// Not thread-safe by design: each flow owns one.
package final class SecretScrubber {
    package static let mask = "[redacted]"
    private static let maskBytes = Array(mask.utf8)

    private var secrets: Set<String> = []
    private var patterns = BytePatternSet()

    package init() {}

    package var isEmpty: Bool { patterns.isEmpty }

    /// Every secret remembered (each gives all its forms again when
    /// remembered by another scrubber).
    var remembered: Set<String> { secrets }

    /// Remembers `secret` in all its forms. Shorter than
    /// `SecretForms.minimumLength` characters: ignored.
    package func remember(_ secret: String?) {
        guard let secret, secret.count >= SecretForms.minimumLength, secrets.insert(secret).inserted else { return }
        for form in SecretForms(secret).forms {
            patterns.insert(Array(form.utf8))
        }
    }

    /// Remembers a client secret and the HTTP Basic credentials made of it:
    /// base64 of `id:secret` after form-encoding both (RFC 6749 §2.3.1), and
    /// of the raw pair, which servers that skip the encoding expect
    /// (RFC 7617 §2). Each credential is a secret in its own right, so its
    /// percent-encoded and escaped forms are masked too. The id alone is not.
    package func rememberBasic(id: String, secret: String) {
        remember(secret)
        remember(Base64URL.encodeStandard(Array("\(FormEncoding.escape(id)):\(FormEncoding.escape(secret))".utf8)))
        remember(Base64URL.encodeStandard(Array("\(id):\(secret)".utf8)))
    }

    package func scrub(_ text: String) -> String {
        guard !patterns.isEmpty else { return text }
        patterns.prepare()
        var text = text
        let covered = text.withUTF8(coveredRuns)
        guard !covered.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        for run in covered {
            out += bytes[position..<run.lowerBound]
            out += Self.maskBytes
            position = run.upperBound
        }
        out += bytes[position...]
        // Forms are whole UTF-8 sequences, so cuts fall between scalars.
        return String(decoding: out, as: UTF8.self)
    }

    /// The byte ranges to mask, in order, not overlapping. A match lying
    /// wholly inside a mask already in the text is left alone, so that
    /// scrubbing twice changes nothing (a secret such as "redacted" would
    /// otherwise eat into the mask).
    private func coveredRuns(_ text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let masks = Self.maskRanges(in: text)
        var nextMask = 0
        var runs: [Range<Int>] = []
        patterns.forEachLongestMatch(in: text) { end, length in
            var start = end - length
            while nextMask < masks.count, masks[nextMask].upperBound < end { nextMask += 1 }
            if nextMask < masks.count, masks[nextMask].lowerBound <= start, end <= masks[nextMask].upperBound { return }
            // Ends only grow, so a new match can only swallow the latest runs.
            while let last = runs.last, last.upperBound > start {
                start = min(start, last.lowerBound)
                runs.removeLast()
            }
            runs.append(start..<end)
        }
        return runs
    }

    private static func maskRanges(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 0
        while index + maskBytes.count <= text.count {
            if text[index] == maskBytes[0], text[index..<index + maskBytes.count].elementsEqual(maskBytes) {
                ranges.append(index..<index + maskBytes.count)
                index += maskBytes.count
            } else {
                index += 1
            }
        }
        return ranges
    }
}
