// libFuzzer harness: the login drivers (README "Identity providers", Sources/Walk/Drivers/)
// against a hostile provider. The input is a conversation: what the provider
// answers to each request of the walk, in order. `Walker.walk` runs over it
// once with `--idp auto` and once with one driver forced, with `--form`
// values, a TOTP seed and a passkey at hand, so every driver's page parser,
// its script-literal readers (ScriptLiteral, ScriptValues), its JSON answers
// and its state machine meet what the fuzzer makes. The forced driver is
// the one a first-line word `idp=NAME` names (an `--idp` value: keycloak,
// glewlwyd, authentik, okta, entra, auth0, none), else the one the input's
// length picks: every driver
// on every input made each input cost seven walks, and the harness ran at
// ~40 inputs a second.
//
// Input: a first line of words, then answers separated by NUL bytes:
//
//     [no-totp] [no-passkey] [register] [repeat] [quiet] [idp=NAME]\n
//     STATUS [TYPE]\n            TYPE: html, json or a literal media type
//     Name: value\n ...          headers (Location, Set-Cookie, ...)
//     \n
//     body                       the rest, up to the next NUL
//
// `quiet` turns the `-v` trace off (it is on by default, and searched);
// `no-totp`/`no-passkey` leave the seed or the passkey out; `register`
// gives an empty passkey store that may register; `repeat` answers every
// request after the last answer with the last answer again (a provider that
// never lets go), otherwise with a bare 404.
//
// Properties checked (a break is a fatalError libFuzzer records as a crash):
// - the walk ends within its bounds: at most 1 + --max-hops + Walker.readLimit
//   requests reach the transport (the authorization request, each hop,
//   each driver read), and the redirect_uri is never one of them;
// - an answer is the redirect_uri's (or a form_post to it);
// - every error is one the CLI words (ErrorReport of FlowError.walk): one
//   line, no control character, an exit code of a failed authorization;
// - README "Security", credentials only to trusted origins as the code states it (HTTP/OriginPolicy.swift,
//   Drivers/DriverSession.swift): `--form` values and TOTP codes go only
//   to a trusted origin — here https://idp.example, the authorization
//   endpoint's — whatever origin the driver is on; the TOTP seed and the
//   passkey's private key `d` (the given one, and one a registration makes)
//   go nowhere. A value the provider itself put in its answers (the input
//   holds it) is not ours to account for, and is not checked in requests;
// - no secret of the run (the `--form` values, the seed, `d` in every
//   form Redactor+Passkey knows, the TOTP code) appears in the error line
//   as the CLI writes it (scrubbed by the run's redactor) or in the `-v` trace.
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed.

#if canImport(Glibc)
import Glibc
#endif

private let driversUsername = "alice-Q7Zr"
private let driversPassword = "Pw7Qx9Lm2Zk4Vb"
/// RFC 6238 Appendix B's SHA-1 seed "12345678901234567890", as base32.
private let driversSeedText = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
private let driversClock = 59.0
private let driversMaxHops = 6
private let driversTrusted = "https://idp.example"
private let driversRedirect = "http://127.0.0.1:8765/cb"
private let driversState = "st4te-Fz9"
private let driversFirst = HTTPRequest(
    method: .get,
    url: "https://idp.example/authorize?response_type=code&client_id=cli&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcb&state=\(driversState)&scope=openid")
/// RFC 9052 Appendix C.7's P-256 key (also Tests/TestSupport/PasskeyExample.swift):
/// a published example that protects nothing.
private let driversD = "r_kHyZ-a06rmxM3yESK84r1otSg-aQcVStkRhA-iCM8"
private let driversPasskeyFile = #"{"rpId":"idp.example","credentialId":"AAECAwQFBgcICQoLDA0ODw","userHandle":"dXNlci0x","signCount":7,"privateKey":{"kty":"EC","crv":"P-256","x":"Ze2loSV3wrroKUN_4zhwGhCqo3Xhu1td4QjeQ5wIVR0","y":"HlLtdXARY_f55A3fnzQbPcm6hgr34Mp8p-nuzQCE0Zw","d":"\#(driversD)"}}"#
private let driversCredential = try! PasskeyCredential(file: Array(driversPasskeyFile.utf8))
private let driversCode: String = {
    var codes = OneTimeCodes(totp: try! TOTP.parse(driversSeedText), fieldName: nil, now: { driversClock })
    return codes.fresh()
}()

private func driversCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

/// The forms of a passkey's `d` the redactor learns (Redactor+Passkey.swift):
/// base64url, standard base64 with and without padding, hex both cases.
private func keyForms(_ credential: PasskeyCredential) -> [String] {
    guard let d = try? credential.key.privateJWK().privateParameters.first?.bytes else { return [] }
    let standard = Base64URL.encodeStandard(d)
    let hex = d.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    return [Base64URL.encode(d), standard, String(standard.prefix { $0 != "=" }), hex, hex.uppercased()]
}

/// One answer of the provider, as the input spells it.
private struct DriversAnswer {
    let response: HTTPResponse

    init(_ record: ArraySlice<UInt8>) {
        var lines: [String] = []
        var rest = record
        // Status line and headers, up to the first empty line.
        while let newline = rest.firstIndex(of: 0x0A) {
            let line = String(decoding: rest[rest.startIndex..<newline], as: UTF8.self)
            rest = rest[(newline + 1)...]
            if line.isEmpty || line == "\r" { break }
            lines.append(line)
            if lines.count > 32 { break }
        }
        if lines.isEmpty, !rest.isEmpty, !rest.contains(0x0A) {
            // A record with no newline at all is a status line alone.
            lines.append(String(decoding: rest, as: UTF8.self))
            rest = []
        }
        let words = (lines.first ?? "").split(separator: " ", maxSplits: 1)
        let status = words.first.flatMap { Int($0) }.map { min(max($0, 100), 999) } ?? 200
        var headers: [HTTPHeader] = []
        if words.count > 1 {
            switch words[1] {
            case "html": headers.append(HTTPHeader("Content-Type", "text/html; charset=utf-8"))
            case "json": headers.append(HTTPHeader("Content-Type", "application/json"))
            default: headers.append(HTTPHeader("Content-Type", String(words[1])))
            }
        }
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(HTTPHeader(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        response = HTTPResponse(status: status, headers: headers, body: Array(rest))
    }
}

/// The provider: answers the walk's requests in order from the input,
/// records each one and stops the run if the walk outgrows its bounds.
private final class DriversTransport: Transport {
    let answers: [DriversAnswer]
    let repeatsLast: Bool
    private(set) var requests: [HTTPRequest] = []
    let bound = 1 + driversMaxHops + 4 * driversMaxHops
    let target: RedirectTarget

    init(answers: [DriversAnswer], repeatsLast: Bool, target: RedirectTarget) {
        self.answers = answers
        self.repeatsLast = repeatsLast
        self.target = target
    }

    func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        requests.append(request)
        driversCheck(requests.count <= bound, "the walk sent \(requests.count) requests, more than 1 + max-hops + the read limit (\(bound))")
        driversCheck(!target.matches(request.url), "the redirect_uri was fetched: \(request.method) \(request.url)")
        let index = requests.count - 1
        if index < answers.count { return answers[index].response }
        if repeatsLast, let last = answers.last { return last.response }
        return HTTPResponse(status: 404)
    }
}

/// `--passkey FILE` in memory: what PasskeyFile does with the lock and the
/// disk left out, the redactor taught every key it holds or gets, as
/// PasskeyFile teaches it.
private final class DriversPasskeyStore: PasskeyStore {
    var credential: PasskeyCredential?
    let mayRegister: Bool
    let redactor: Redactor

    init(_ credential: PasskeyCredential?, mayRegister: Bool, redactor: Redactor) {
        self.credential = credential
        self.mayRegister = mayRegister
        self.redactor = redactor
    }

    func update<Answer>(_ use: (PasskeyCredential) throws(WebAuthnError) -> (Answer, PasskeyCredential)) throws(WebAuthnError) -> Answer {
        guard let credential else { throw .noCredentialYet(path: "passkey.json") }
        redactor.remember(passkey: credential)
        let (answer, next) = try use(credential)
        driversCheck(next.signCount > credential.signCount, "an assertion did not raise the counter")
        self.credential = next
        return answer
    }

    func checkRegistration() throws(WebAuthnError) {
        guard mayRegister else { throw .registrationNotAllowed(path: "passkey.json") }
        if credential != nil { throw .passkeyExists(path: "passkey.json") }
    }

    func create(_ credential: PasskeyCredential) throws(WebAuthnError) {
        redactor.remember(passkey: credential)
        guard self.credential == nil else { throw .passkeyExists(path: "passkey.json") }
        self.credential = credential
    }
}

/// The fixed clock of the run's one-time codes, which says whether it was read.
private final class DriversClock {
    private(set) var wasRead = false
    func read() -> Double {
        wasRead = true
        return driversClock
    }
}

/// `-v` goes here, to be searched for secrets.
private final class DriversConsole: Console, @unchecked Sendable {
    var err = ""
    func writeOut(_ text: String) -> Bool { true }
    func writeErr(_ text: String) { err += text }
}

/// Whether `text` holds `secret` (UTF-8 bytes, so no grapheme hides it;
/// in place, not a copy of the text per secret and request).
private func holds(_ text: String, _ secret: String) -> Bool {
    guard !secret.isEmpty else { return false }
    var text = text, secret = secret
    return text.withUTF8 { haystack in
        secret.withUTF8 { needle in
            guard haystack.count >= needle.count, let hay = haystack.baseAddress, let first = needle.baseAddress else { return false }
            for start in 0...(haystack.count - needle.count) where hay[start] == first[0] {
                if memcmp(hay + start, first, needle.count) == 0 { return true }
            }
            return false
        }
    }
}

/// Everything of a request a server receives: its URL, its headers and its body.
private func wire(_ request: HTTPRequest) -> String {
    request.url + "\n" + request.headers.map { $0.name + ": " + $0.value }.joined(separator: "\n") + "\n"
        + String(decoding: request.body ?? [], as: UTF8.self)
}

private func runDrivers(_ choice: IdentityProvider, answers: [DriversAnswer], words: [Substring], input: String) {
    let target = RedirectTarget(URIReference(driversRedirect)!)
    let transport = DriversTransport(answers: answers, repeatsLast: words.contains("repeat"), target: target)
    let redactor = Redactor()
    let console = DriversConsole()
    let trace = Trace(enabled: !words.contains("quiet"), redactor: redactor, console: console, names: CLIWording.names)
    let form = [NameValue("username", driversUsername), NameValue("password", driversPassword)]
    // What KnownSecrets teaches a flow's redactor before any request.
    for value in form { redactor.remember(value.value) }
    let withSeed = !words.contains("no-totp")
    if withSeed { redactor.remember(driversSeedText) }
    let register = words.contains("register")
    let store: DriversPasskeyStore? = words.contains("no-passkey") ? nil
        : DriversPasskeyStore(register ? nil : driversCredential, mayRegister: register, redactor: redactor)
    if let credential = store?.credential { redactor.remember(passkey: credential) }

    let client = HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false),
                            trace: trace, now: { driversClock })
    // As TokenFlow sets them: the trusted-origin rule, and the redirect_uri guard.
    client.adapters.append(OriginPolicy(trusting: [driversTrusted], userHeaders: [], trace: trace))
    client.adapters.append(RedirectURIGuard(target))
    let walker = Walker(client: client, target: target, maxHops: driversMaxHops, formValues: form, submit: nil, state: driversState,
                        drivers: DriverRegistry(choice: choice))
    // Whether the walk made a code: OneTimeCodes reads the clock for each.
    let clock = DriversClock()
    if withSeed, let totp = try? TOTP.parse(driversSeedText) {
        walker.codes = OneTimeCodes(totp: totp, fieldName: nil, now: clock.read)
    }
    if let store { walker.passkey = Passkey(store: store) }

    var errorLine: String?
    defer {
        // FUZZ_DRIVERS_DEBUG=1: how each walk of an input ended (for writing seeds).
        if driversDebug {
            print("\(choice.rawValue): \(transport.requests.count) requests: \(errorLine ?? "answer")")
            if getenv("FUZZ_DRIVERS_DEBUG").map({ String(cString: $0) }) == "2" { print(console.err) }
        }
    }
    do {
        switch try walker.walk(from: driversFirst) {
        case .redirect(let destination):
            driversCheck(target.matches(destination), "the walk answered with \(destination.text), not the redirect_uri")
        case .formPost:
            break
        }
    } catch {
        let report = ErrorReport(.flow(.walk(error)))
        // As AuthCode.run writes it: scrubbed and finished by the run's redactor.
        let line = redactor.finished(report.markedLine)
        driversCheck(line.hasPrefix("authcode: error: "), "an error line that is not one: \(line)")
        driversCheck(!TerminalText.containsControl(line), "a control character in the error line: \(line)")
        driversCheck(![.success, .outputFailed, .usage, .batchFailed].contains(report.exitCode),
                     "a walk error with exit \(report.exitCode): \(line)")
        if let hint = report.hint { _ = redactor.finished(hint) }
        errorLine = line
    }

    // The secrets of this run, and where each may go.
    // The given key is a secret of this run only when the store held it
    // (not with `no-passkey`, nor `register`'s empty store): a page may
    // carry the same bytes, and the trace may then show them as the page's.
    var keys = store != nil && !register ? keyForms(driversCredential) : []
    if let made = store?.credential, made != driversCredential { keys += keyForms(made) }
    // The code is a secret of this run once the walk made it; before, the
    // same digits on a page are the page's.
    let credentials = [driversUsername, driversPassword] + (clock.wasRead ? [driversCode] : [])
    let never = (withSeed ? [driversSeedText] : []) + keys

    for request in transport.requests {
        let sent = wire(request)
        let origin = URIReference(request.url)?.origin
        for secret in credentials where origin != driversTrusted && holds(sent, secret) && !holds(input, secret) {
            fatalError("invariant broken: \(choice.rawValue): a credential went to \(origin ?? "no origin"), not a trusted origin: \(sent)")
        }
        for secret in never where holds(sent, secret) && !holds(input, secret) {
            fatalError("invariant broken: \(choice.rawValue): the TOTP seed or the passkey's key went out: \(sent)")
        }
    }
    for secret in credentials + never {
        if let errorLine { driversCheck(!holds(errorLine, secret), "\(choice.rawValue): a secret in the error line: \(errorLine)") }
        // Trace lines written before the walk made the code may show the
        // same digits as the page's; the redactor scrubs it from then on.
        if secret == driversCode, holds(input, secret) { continue }
        driversCheck(!holds(console.err, secret), "\(choice.rawValue): a secret in the -v trace")
    }
}

private let driversDebug = getenv("FUZZ_DRIVERS_DEBUG") != nil

/// The drivers one may force, in the registry's order.
private let driversForced: [IdentityProvider] = DriverRegistry.all.map(\.provider)

/// `--idp auto`, then the driver `idp=NAME` names, else the one the
/// input's length picks.
private func driversChoices(words: [Substring], count: Int) -> [IdentityProvider] {
    let named = words.lazy.compactMap { word -> IdentityProvider? in
        guard word.hasPrefix("idp=") else { return nil }
        return IdentityProvider(rawValue: String(word.dropFirst(4)))
    }.first
    return [.auto, named ?? driversForced[count % driversForced.count]]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let input = String(decoding: bytes, as: UTF8.self)
    let all = Array(bytes)
    let firstLine = all.firstIndex(of: 0x0A) ?? all.endIndex
    let words = String(decoding: all[..<firstLine], as: UTF8.self).split(separator: " ")
    let rest = firstLine < all.endIndex ? all[(firstLine + 1)...] : []
    // At most 64 answers: more than any walk within its bounds asks for.
    let answers = rest.split(separator: 0, omittingEmptySubsequences: false).prefix(64).map(DriversAnswer.init)
    guard !answers.isEmpty else { return 0 }
    for choice in driversChoices(words: words, count: count) {
        runDrivers(choice, answers: answers, words: words, input: input)
    }
    return 0
}
