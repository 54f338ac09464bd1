// libFuzzer harness: the passkey file (README "Passkeys"; Walk/WebAuthn/
// PasskeyCredential+File.swift, Flow/Passkey/PasskeyFile.swift) and what
// the software authenticator writes (Walk/WebAuthn/: CBOR, COSEKey,
// AttestationObject, AuthenticatorData, clientDataJSON) for a request a
// hostile page makes.
//
// authcode reads no CBOR (it is the authenticator; the relying party parses
// what it makes), so the harness carries its own strict decoder of CTAP2's
// canonical form (WebAuthn Level 3 §6.5.1) to check what the encoder writes.
//
// The input is used three ways:
// 1. as a passkey file: parsed from bytes, and from disk through
//    PasskeyFile (the way `--passkey` opens it, 0600 in a temporary
//    directory); a file that parses is rewritten by the code
//    (`fileContents`, and `PasskeyFile.update`, which writes the next count)
//    and must read back equal, byte for byte the second time;
// 2. split on NUL as the fields of a WebAuthn request (challenge, origin,
//    rpId, allowCredentials in 16-byte IDs, user.id, pubKeyCredParams'
//    algorithms as signed bytes) answered by SoftwareAuthenticator with a
//    fixed credential (RFC 9052 C.7's key, RP ID idp.example): an answer
//    comes only for an origin and RP ID that WebAuthn's rules allow, its
//    authenticatorData is SHA-256(rpId) ‖ UP|UV ‖ the count (‖ the attested
//    credential), its clientDataJSON is JSON that reads back as the request's
//    type, challenge and origin, its attestation object is canonical CBOR
//    `{"fmt":"none","attStmt":{},"authData":…}` whose COSE_Key is the
//    key's public point;
// 3. as a recipe for a CBOR value: its encoding is canonical and decodes to
//    the same bytes again.
// Every error is worded by the CLI's ErrorReport; no error line holds the
// private key `d` (of the fixed key in any form Redactor+Passkey knows, or
// the `d` of the input's own privateKey): error values carry names, never
// key material. Memory stays bounded: a file over 16 KiB is refused unread.
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed.

#if canImport(Glibc)
import Glibc
#endif

private func passkeyCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

private let passkeyD = "r_kHyZ-a06rmxM3yESK84r1otSg-aQcVStkRhA-iCM8"
private let passkeyFixed = try! PasskeyCredential(file: Array(
    #"{"rpId":"idp.example","credentialId":"AAECAwQFBgcICQoLDA0ODw","userHandle":"dXNlci0x","signCount":7,"privateKey":{"kty":"EC","crv":"P-256","x":"Ze2loSV3wrroKUN_4zhwGhCqo3Xhu1td4QjeQ5wIVR0","y":"HlLtdXARY_f55A3fnzQbPcm6hgr34Mp8p-nuzQCE0Zw","d":"\#(passkeyD)"}}"#.utf8))

/// `d` as the redactor knows it (Redactor+Passkey.swift).
private func passkeyKeyForms(_ credential: PasskeyCredential) -> [String] {
    guard let d = try? credential.key.privateJWK().privateParameters.first?.bytes else { return [] }
    let standard = Base64URL.encodeStandard(d)
    let hex = d.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    return [Base64URL.encode(d), standard, String(standard.prefix { $0 != "=" }), hex, hex.uppercased()]
}
private let passkeyFixedForms = passkeyKeyForms(passkeyFixed)

/// A temporary directory of our own, made once (0700), for the disk path:
/// under FUZZ_TMPDIR (run.sh points it into .build-fuzz and empties it
/// after each harness), else /tmp.
private let passkeyDirectory: String = {
    let parent = getenv("FUZZ_TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(parent)/authcode-fuzz-passkey-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    return String(cString: made)
}()

private func bytesHold(_ text: String, _ secret: String) -> Bool {
    let haystack = Array(text.utf8), needle = Array(secret.utf8)
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
}

/// The error line the CLI writes for a WebAuthn error (no redactor has
/// learnt a key that failed to load): no key material in it. `input`: the
/// error is about a request a page made, and may quote what the page sent
/// (its origin, its RP ID) — text of the page, not a key of ours, when the
/// page itself holds it.
private func passkeyWorded(_ error: WebAuthnError, ownD: String?, input: String? = nil) {
    let report = ErrorReport(error, at: "https://idp.example/login")
    let line = report.line
    passkeyCheck(line.hasPrefix("authcode: error: ") && !TerminalText.containsControl(line), "an error line that is not one: \(line)")
    passkeyCheck(report.exitCode != .success, "an error with exit 0: \(line)")
    for form in passkeyFixedForms + (ownD.map { [$0] } ?? []) where !(input.map { bytesHold($0, form) } ?? false) {
        passkeyCheck(!bytesHold(line, form) && !bytesHold(report.hint ?? "", form), "private key material in an error line: \(line)")
    }
}

// MARK: - A strict decoder of canonical CBOR (the harness's, to check the encoder)

private struct CanonicalCBOR {
    let bytes: [UInt8]
    var index = 0

    /// The item at the start of `bytes` and nothing after it; nil when it
    /// is not canonical (a longer head than needed, an indefinite length,
    /// map keys out of CTAP2 order or repeated, text that is not UTF-8).
    static func decode(_ bytes: [UInt8]) -> CBOR? {
        var reader = CanonicalCBOR(bytes: bytes)
        guard let item = reader.item(depth: 0), reader.index == bytes.count else { return nil }
        return item
    }

    mutating func head() -> (major: UInt8, value: UInt64)? {
        guard index < bytes.count else { return nil }
        let initial = bytes[index]
        index += 1
        let major = initial >> 5, info = initial & 0x1F
        if info < 24 { return (major, UInt64(info)) }
        let size: Int
        switch info {
        case 24: size = 1
        case 25: size = 2
        case 26: size = 4
        case 27: size = 8
        default: return nil
        }
        guard index + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[index..<index + size] { value = value << 8 | UInt64(byte) }
        index += size
        // Shortest form (RFC 8949 §4.2.1).
        let minimum: UInt64 = size == 1 ? 24 : size == 2 ? 0x100 : size == 4 ? 0x1_0000 : 0x1_0000_0000
        guard value >= minimum else { return nil }
        return (major, value)
    }

    mutating func item(depth: Int) -> CBOR? {
        guard depth < 16, let (major, value) = head() else { return nil }
        switch major {
        case 0: return .unsigned(value)
        case 1: return .negative(value)
        case 2, 3:
            guard value <= UInt64(bytes.count - index) else { return nil }
            let content = Array(bytes[index..<index + Int(value)])
            index += Int(value)
            if major == 2 { return .bytes(content) }
            guard let text = String(validating: content, as: UTF8.self) else { return nil }
            return .text(text)
        case 4:
            guard value <= UInt64(bytes.count - index) else { return nil }
            var items: [CBOR] = []
            for _ in 0..<value {
                guard let next = item(depth: depth + 1) else { return nil }
                items.append(next)
            }
            return .array(items)
        case 5:
            guard value <= UInt64(bytes.count - index) else { return nil }
            var members: [CBOR: CBOR] = [:]
            var previous: [UInt8]?
            for _ in 0..<value {
                let start = index
                guard let key = item(depth: depth + 1) else { return nil }
                let encodedKey = Array(bytes[start..<index])
                if let previous, !Self.precedes(previous, encodedKey) { return nil }
                previous = encodedKey
                guard let member = item(depth: depth + 1) else { return nil }
                members[key] = member
            }
            return .map(members)
        default: return nil
        }
    }

    /// CTAP2's key order, written from WebAuthn Level 3 §6.5.1's words:
    /// lower major type, then shorter, then bytewise lower.
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if a[0] >> 5 != b[0] >> 5 { return a[0] >> 5 < b[0] >> 5 }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }
}

/// A CBOR value from the input's bytes: a tag byte, then what it needs.
private struct CBORRecipe {
    var bytes: ArraySlice<UInt8>

    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

    mutating func value(depth: Int) -> CBOR {
        let tag = byte()
        switch tag % 6 {
        case 0, 1:
            // Around each head-size boundary (23/24, 0xFF/0x100, ...), or any 64 bits.
            let edges: [UInt64] = [0, 23, 24, 0xFF, 0x100, 0xFFFF, 0x1_0000, 0xFFFF_FFFF, 0x1_0000_0000, .max]
            var number = edges[Int(byte()) % edges.count]
            if tag & 0x80 != 0 { for _ in 0..<8 { number = number << 8 | UInt64(byte()) } }
            return tag % 6 == 0 ? .unsigned(number) : .negative(number)
        case 2:
            let count = Int(byte()) % 40
            return .bytes((0..<count).map { _ in byte() })
        case 3:
            let count = Int(byte()) % 40
            return .text(String(decoding: (0..<count).map { _ in byte() }, as: UTF8.self))
        case 4:
            guard depth < 4 else { return .unsigned(0) }
            let count = Int(byte()) % 5
            return .array((0..<count).map { _ in value(depth: depth + 1) })
        default:
            guard depth < 4 else { return .map([:]) }
            let count = Int(byte()) % 5
            var members: [CBOR: CBOR] = [:]
            for _ in 0..<count { members[value(depth: depth + 1)] = value(depth: depth + 1) }
            return .map(members)
        }
    }
}

// MARK: - Checks of the authenticator's answers

/// authenticatorData: SHA-256(rpId) ‖ flags ‖ count (WebAuthn Level 3 §6.1).
private func passkeyCheckAuthenticatorData(_ data: [UInt8], rpID: String, count: UInt32, attested: Bool) {
    passkeyCheck(data.count >= 37, "authenticatorData of \(data.count) bytes")
    passkeyCheck(Array(data[0..<32]) == SHA256.hash(Array(rpID.utf8)), "authenticatorData does not start with SHA-256 of the RP ID")
    passkeyCheck(data[32] == (attested ? 0x45 : 0x05), "flags \(data[32])")
    let counter = data[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    passkeyCheck(counter == count, "authenticatorData carries count \(counter), not \(count)")
    if !attested { passkeyCheck(data.count == 37, "an assertion's authenticatorData of \(data.count) bytes") }
}

/// clientDataJSON is JSON that says what the request asked (§5.8.1).
private func passkeyCheckClientData(_ json: [UInt8], type: String, challenge: [UInt8], origin: String) {
    guard case .object(let members)? = JSONValue.parse(json) else {
        fatalError("invariant broken: clientDataJSON is not a JSON object: \(String(decoding: json, as: UTF8.self))")
    }
    passkeyCheck(members["type"]?.stringValue == type, "clientDataJSON type")
    passkeyCheck(members["challenge"]?.stringValue.map { Array($0.utf8) } == Array(Base64URL.encode(challenge).utf8), "clientDataJSON challenge")
    passkeyCheck(members["origin"]?.stringValue.map { Array($0.utf8) } == Array(origin.utf8),
                 "clientDataJSON origin does not read back as \(origin)")
    passkeyCheck(members["crossOrigin"] == .bool(false) && members.count == 4, "clientDataJSON members")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))

    // 1. The input as a passkey file, from memory.
    var ownD: String?
    if case .object(let members)? = JSONValue.parse(bytes), case .object(let key)? = members["privateKey"],
       let d = key["d"]?.stringValue, d.utf8.count >= 16, d.utf8.allSatisfy({ ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == 0x2D || $0 == 0x5F }) {
        ownD = d
    }
    let parsed: PasskeyCredential?
    do throws(PasskeyFileProblem) {
        let credential = try PasskeyCredential(file: bytes)
        passkeyCheck(bytes.count <= PasskeyCredential.maximumFileSize, "a file of \(bytes.count) bytes was read")
        // The code's own file reads back as the same credential, and writing
        // that again gives the same bytes.
        let written = try! credential.fileContents()
        guard let again = try? PasskeyCredential(file: written) else {
            fatalError("invariant broken: a passkey file written by authcode does not read back: \(String(decoding: written, as: UTF8.self))")
        }
        passkeyCheck(again == credential, "a passkey file written by authcode does not read back equal")
        passkeyCheck(try! again.fileContents() == written, "a passkey file is not written the same twice")
        passkeyCheck(!bytesHold(String(describing: credential), passkeyD) && !(ownD.map { bytesHold(String(describing: credential), $0) } ?? false),
                     "a credential's description shows its key")
        parsed = credential
    } catch {
        passkeyWorded(.file(error, path: "/home/u/passkey.json"), ownD: ownD)
        parsed = nil
    }

    // 1b. The same bytes from disk, as `--passkey FILE` opens them; a file
    //     that reads is used once and rewritten with the next count.
    let path = passkeyDirectory + "/passkey.json"
    unlink(path)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    if descriptor >= 0 {
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        do throws(WebAuthnError) {
            let read = try PasskeyFile.read(path)
            passkeyCheck(read == parsed, "the file read from disk is not the file parsed from memory")
            if let read, read.signCount < UInt32.max {
                let file = PasskeyFile(path: path, mayRegister: false, timeout: 1, redactor: Redactor())
                let answer = try Passkey(store: file).get(AssertionRequest(challenge: [1, 2, 3], origin: "https://" + read.rpID))
                var next = read
                next.signCount += 1
                passkeyCheck(answer.signCount == next.signCount, "the answer's count is not the next")
                let reread = try PasskeyFile.read(path)
                passkeyCheck(reread == next, "the rewritten passkey file does not read back as the next count")
            }
        } catch {
            passkeyWorded(error, ownD: ownD)
        }
    }

    // 2. The input as the fields of a WebAuthn request.
    let fields = bytes.split(separator: 0, maxSplits: 5, omittingEmptySubsequences: false)
    let challenge = Array(fields[0])
    let origin = fields.count > 1 ? String(decoding: fields[1], as: UTF8.self) : "https://idp.example"
    let rpID = fields.count > 2 && !fields[2].isEmpty ? String(decoding: fields[2], as: UTF8.self) : nil
    let allowed: [[UInt8]] = fields.count > 3 ? stride(from: fields[3].startIndex, to: fields[3].endIndex, by: 16).map {
        Array(fields[3][$0..<min($0 + 16, fields[3].endIndex)])
    } : []
    let userID = fields.count > 4 ? Array(fields[4]) : [1]
    let algorithms = fields.count > 5 ? fields[5].prefix(16).map { Int(Int8(bitPattern: $0)) } : []

    let assertion = AssertionRequest(challenge: challenge, origin: origin, rpID: rpID, allowCredentials: allowed)
    do throws(WebAuthnError) {
        let (answer, next) = try SoftwareAuthenticator.assertion(assertion, with: passkeyFixed)
        // Signed only where WebAuthn's rules allow it.
        let scope = try? RelyingPartyID.check(rpID, origin: origin)
        passkeyCheck(scope?.rpID == passkeyFixed.rpID, "an assertion for RP ID \(rpID ?? "nil") at \(origin)")
        passkeyCheck(!challenge.isEmpty && (allowed.isEmpty || allowed.contains(passkeyFixed.credentialID)), "an assertion that was not allowed")
        passkeyCheck(next.signCount == passkeyFixed.signCount + 1 && answer.signCount == next.signCount, "the count did not rise by one")
        passkeyCheckAuthenticatorData(answer.authenticatorData, rpID: passkeyFixed.rpID, count: next.signCount, attested: false)
        passkeyCheckClientData(answer.clientDataJSON, type: "webauthn.get", challenge: challenge, origin: origin)
        passkeyCheck(answer.userHandle == passkeyFixed.userHandle && answer.credentialID == passkeyFixed.credentialID, "wrong IDs")
    } catch {
        passkeyWorded(error, ownD: ownD, input: String(decoding: bytes, as: UTF8.self))
    }

    let registration = RegistrationRequest(challenge: challenge, origin: origin, rpID: rpID,
                                           user: .init(id: userID, name: "u", displayName: "U"), algorithms: algorithms)
    do throws(WebAuthnError) {
        let credentialID = Array(userID.prefix(64)) + [7]
        let (answer, made) = try SoftwareAuthenticator.registration(registration, key: passkeyFixed.key, credentialID: credentialID)
        let scope = try? RelyingPartyID.check(rpID, origin: origin)
        passkeyCheck(scope != nil && scope?.rpID == made.rpID, "a registration for RP ID \(rpID ?? "nil") at \(origin)")
        passkeyCheck(algorithms.isEmpty || algorithms.contains(-7), "a registration without ES256 asked")
        passkeyCheck(made.signCount == 0 && made.userHandle == userID && made.credentialID == credentialID, "the new credential")
        passkeyCheckAuthenticatorData(answer.authenticatorData, rpID: made.rpID, count: 0, attested: true)
        passkeyCheckClientData(answer.clientDataJSON, type: "webauthn.create", challenge: challenge, origin: origin)
        // The attested credential data (§6.5.1): AAGUID, L, the ID, the COSE_Key, nothing after.
        let data = answer.authenticatorData
        passkeyCheck(data.count >= 55 && data[37..<53].allSatisfy { $0 == 0 }, "AAGUID")
        let length = Int(data[53]) << 8 | Int(data[54])
        passkeyCheck(length == credentialID.count && Array(data[55..<55 + length]) == credentialID, "credential ID in authenticatorData")
        guard case .map(let key)? = CanonicalCBOR.decode(Array(data[(55 + length)...])) else {
            fatalError("invariant broken: the COSE_Key is not canonical CBOR or is followed by more bytes")
        }
        guard case .ec(.p256, let x, let y) = passkeyFixed.key.publicJWK.parameters else { fatalError("fixed key") }
        passkeyCheck(key == [.int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1), .int(-2): .bytes(x), .int(-3): .bytes(y)],
                     "the COSE_Key is not the key's public point")
        passkeyCheck(CanonicalCBOR.decode(answer.attestationObject)
                     == .map([.text("fmt"): .text("none"), .text("attStmt"): .map([:]), .text("authData"): .bytes(data)]),
                     "the attestation object")
        passkeyCheck(answer.publicKeyAlgorithm == -7, "publicKeyAlgorithm")
    } catch {
        passkeyWorded(error, ownD: ownD, input: String(decoding: bytes, as: UTF8.self))
    }

    // 3. The input as a CBOR value: the encoder writes the canonical form.
    var recipe = CBORRecipe(bytes: bytes[...])
    let value = recipe.value(depth: 0)
    let encoded = value.encoded
    guard let decoded = CanonicalCBOR.decode(encoded) else {
        fatalError("invariant broken: CBOR.encoded is not canonical: \(encoded)")
    }
    passkeyCheck(decoded.encoded == encoded, "canonical CBOR does not encode back to the same bytes")
    return 0
}
