/// Masks every secret a run knows, in every form a server may echo it
/// (`SecretForms`), in any text bound for a terminal or a log.
///
/// Forms up to `indexedLength` bytes go into one `BytePatternSet`, so a
/// text is scanned once, as UTF-8 bytes, however many secrets there are;
/// longer ones are kept as a length and a hash each (`LongFormSet`), never
/// as a copy: a trie costs tens of bytes per byte of pattern, and a 4 MB
/// token answer, its forms in a trie, once took a flow past 300 MiB
/// (README "Security"). Every byte covered by any match is masked —
/// overlapping or nested secrets leave no fragment behind — and each run
/// of covered bytes becomes one mask.
///
/// Not thread-safe by design: each flow owns one.
package final class SecretScrubber {
    package static let mask = "[redacted]"
    private static let maskBytes = Array(mask.utf8)

    /// Forms up to this many bytes are indexed whole: the forms of a
    /// code, a password, a cookie or a state. Longer ones (tokens, proofs,
    /// assertions) are searched by length, and there are few lengths.
    static let indexedLength = 256

    private var secrets: Set<String> = []
    private var patterns = BytePatternSet()
    private var longForms = LongFormSet()

    package init() {}

    package var isEmpty: Bool { patterns.isEmpty && longForms.isEmpty }

    /// Every secret remembered (each gives all its forms again when
    /// remembered by another scrubber).
    var remembered: Set<String> { secrets }

    /// Remembers `secret` in all its forms. Shorter than
    /// `SecretForms.minimumLength` characters: ignored.
    package func remember(_ secret: String?) {
        guard let secret, secret.count >= SecretForms.minimumLength, secrets.insert(secret).inserted else { return }
        for variant in SecretForms(secret).variants {
            var sketch = FormSketch(keepUpTo: Self.indexedLength)
            variant.write(secret, into: &sketch)
            if !sketch.isKept {
                longForms.insert(length: sketch.length, hash: sketch.hash)
            } else if String(decoding: sketch.bytes, as: UTF8.self).count >= SecretForms.minimumLength {
                patterns.insert(sketch.bytes)
            }
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
        guard !isEmpty else { return text }
        patterns.prepare()
        // A mask this pass writes can spell a secret with the text beside
        // it (`"rd[` in `"rd[redacted]`, found by FuzzRedactor), so passes
        // go on until one finds nothing: scrubbing twice changes nothing.
        // Every later pass replaces only runs that hold a whole mask and
        // more (see `coveredRuns`), so the text shrinks. A text that still
        // spells secrets after `passLimit` passes was built to (a secret
        // that starts with `]`, echoed over and over, loses one copy per
        // pass): it is masked whole rather than scanned once per copy.
        var text = text
        for _ in 0..<Self.passLimit {
            guard let masked = scrubbedOnce(text) else { return text }
            text = masked
        }
        return scrubbedOnce(text) == nil ? text : Self.mask
    }

    /// Passes before a text is masked whole: one masks what a server
    /// echoed, a second what a mask spelled with the text beside it, the
    /// rest are margin.
    static let passLimit = 8

    /// The text with every match masked, or nil when there is none.
    private func scrubbedOnce(_ text: String) -> String? {
        var text = text
        let covered = text.withUTF8(coveredRuns)
        guard !covered.isEmpty else { return nil }
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
    /// otherwise eat into the mask); a long form cannot lie inside one.
    /// A run that covers part of a mask takes all of it: no piece of a mask
    /// is left to spell a secret again with the text beside it.
    private func coveredRuns(_ text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let masks = Self.maskRanges(in: text)
        let runs = matchedRuns(text, masks: masks)
        guard !masks.isEmpty, !runs.isEmpty else { return runs }
        var widened: [Range<Int>] = []
        var nextMask = 0
        for run in runs {
            var lower = run.lowerBound, upper = run.upperBound
            while nextMask < masks.count, masks[nextMask].upperBound <= lower { nextMask += 1 }
            var index = nextMask
            while index < masks.count, masks[index].lowerBound < upper {
                lower = min(lower, masks[index].lowerBound)
                upper = max(upper, masks[index].upperBound)
                index += 1
            }
            if let last = widened.last, last.upperBound > lower {
                widened[widened.count - 1] = last.lowerBound..<max(last.upperBound, upper)
            } else {
                widened.append(lower..<upper)
            }
        }
        return widened
    }

    /// The byte ranges of the matches, in order, not overlapping.
    private func matchedRuns(_ text: UnsafeBufferPointer<UInt8>, masks: [Range<Int>]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        if !patterns.isEmpty {
            var nextMask = 0
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
        }
        let long = longForms.matches(in: text)
        guard !long.isEmpty else { return runs }
        var merged: [Range<Int>] = []
        for run in (runs + long).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, last.upperBound > run.lowerBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, run.upperBound)
            } else {
                merged.append(run)
            }
        }
        return merged
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
