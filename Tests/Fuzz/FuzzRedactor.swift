// libFuzzer harness: the redactor (Core/Redaction/Redactor.swift on SecretScrubber and
// SecretForms) and the way server text reaches stderr (Core/ServerText/ServerText.swift:
// scrubbed, tags stripped, scrubbed again, bounded, escaped).
//
// Input: [mode][pick] secret NUL prefix NUL suffix. The secret is remembered
// (also as a client secret, so its HTTP Basic forms count); the text scrubbed
// is prefix + one of the secret's echo forms (chosen by `pick`) + suffix, so
// the fuzzer reaches every encoding. `mode` picks HTML or plain text and the
// bound of the excerpt.
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed.

private func redactorCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

private let maskBytes = Array(Redactor.mask.utf8)

/// Byte ranges of `[redacted]` in `text`.
private func maskRanges(_ text: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var index = 0
    while index + maskBytes.count <= text.count {
        if text[index..<index + maskBytes.count].elementsEqual(maskBytes) {
            ranges.append(index..<index + maskBytes.count)
            index += maskBytes.count
        } else {
            index += 1
        }
    }
    return ranges
}

/// Every occurrence of `form` in `text` touches a mask: no form survives whole.
private func formOnlyBesideMasks(_ form: [UInt8], in text: [UInt8], _ what: String) {
    guard form.count <= text.count, !form.isEmpty else { return }
    let masks = maskRanges(text)
    for start in 0...(text.count - form.count) where text[start..<start + form.count].elementsEqual(form) {
        let occurrence = start..<start + form.count
        redactorCheck(masks.contains { $0.overlaps(occurrence) },
                      "\(what): the form '\(String(decoding: form, as: UTF8.self))' survives in '\(String(decoding: text, as: UTF8.self))'")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard bytes.count >= 2 else { return 0 }
    let mode = bytes[0], pick = Int(bytes[1])
    let parts = bytes.dropFirst(2).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    let secret = String(decoding: parts[0], as: UTF8.self)
    let prefix = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
    let suffix = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : ""

    let redactor = Redactor()
    redactor.rememberClient(id: "cli:ent", secret: secret)
    redactor.remember("fixed-secret-42")
    let forms = secret.count >= SecretForms.minimumLength ? SecretForms(secret).forms : []
    let basic = Base64URL.encodeStandard(Array("\(FormEncoding.escape("cli:ent")):\(FormEncoding.escape(secret))".utf8))
    let all = forms + (forms.isEmpty ? [] : [basic]) + ["fixed-secret-42"]
    let form = all[pick % all.count]
    let text = prefix + form + suffix

    // 1. Scrubbing: no form of any secret survives whole, and scrubbing twice changes nothing.
    let scrubbed = redactor.scrub(text)
    for candidate in all { formOnlyBesideMasks(Array(candidate.utf8), in: Array(scrubbed.utf8), "scrub") }
    redactorCheck(redactor.scrub(scrubbed) == scrubbed, "scrubbing twice changed '\(scrubbed)'")

    // 2. The stderr path: no control character, no form, bounded.
    let limit = 8 + Int(mode >> 1)
    let html = mode & 1 == 1
    let line = redactor.finished("authcode: error: x" + ServerText.printable(text, limit: limit, html: html) + " (place)")
    redactorCheck(!TerminalText.containsControl(line), "a control character reaches the terminal: \(line.unicodeScalars.map { $0.value })")
    for candidate in all { formOnlyBesideMasks(Array(candidate.utf8), in: Array(line.utf8), "finished") }
    // Bounded: the text's share of the line, masks and escapes (at most 6 per character) aside.
    redactorCheck(line.count <= 26 + 6 * (limit + 1) + 10 * (limit + 1), "an unbounded line of \(line.count) characters")

    // 3. A form cut by the bound leaves no piece: with padding the form does
    //    not contain, the only source of its first characters is the form itself.
    if !html, let pad = ["~", "#", "Z", "\u{2603}"].first(where: { !form.contains($0) && !secret.contains($0) }),
       !form.contains("\\"), forms.contains(form), form.count >= 4 {
        let padded = String(repeating: pad, count: Int(mode) % (limit + 4)) + form + String(repeating: pad, count: 8)
        let cut = redactor.finished(ServerText.printable(padded, limit: limit))
        let shown = cut.replacing(Redactor.mask, with: "").replacing("…", with: "")
        redactorCheck(!shown.contains(String(form.prefix(4))), "a piece of '\(form)' shows in '\(cut)'")
    }
    return 0
}
