import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// Which field takes the TOTP code, and when a turned-down code is replaced.
@Suite struct OneTimeCodeTests {
    static func form(_ fields: [HTMLField]) -> HTMLForm { HTMLForm(action: "/otp", method: .post, fields: fields) }

    @Test(arguments: [
        ([HTMLField(kind: .hidden, name: "txn"), HTMLField(kind: .text, name: "code", oneTimeCode: true)], nil, 1),
        ([HTMLField(kind: .text, name: "username"), HTMLField(kind: .other, name: "otp")], nil, 1),
        ([HTMLField(kind: .text, name: "totpCode")], nil, 0),
        ([HTMLField(kind: .password, name: "one-time-code")], nil, 0),
        ([HTMLField(kind: .text, name: "mfa_passcode")], nil, 0),
        ([HTMLField(kind: .text, name: "oneTimePassword")], nil, 0),
        ([HTMLField(kind: .text, name: "verification")], "verification", 0),
        ([HTMLField(kind: .hidden, name: "otp")], nil, nil),                  // hidden: not typed into
        ([HTMLField(kind: .text, name: "code")], nil, nil),                   // too common a name
        ([HTMLField(kind: .text, name: "footprint"), HTMLField(kind: .text, name: "hotpot")], nil, nil),
        ([HTMLField(kind: .text, name: "otp", disabled: true)], nil, nil),
        ([HTMLField(kind: .text, name: "otp")], "verification", nil),         // --totp-field wins
    ] as [([HTMLField], String?, Int?)])
    func findsTheField(_ fields: [HTMLField], _ named: String?, _ expected: Int?) {
        #expect(OneTimeCodeField.index(in: Self.form(fields), named: named) == expected)
    }

    /// With a seed, a form asking for one "code" input and nothing else
    /// takes the code there (Zitadel's `code`, AD FS's `VerificationCode`);
    /// never beside a password or another input.
    @Test(arguments: [
        ([HTMLField(kind: .hidden, name: "authRequestID"), HTMLField(kind: .text, name: "code"), HTMLField(kind: .submit, name: "")], 1),
        ([HTMLField(kind: .hidden, name: "Context"), HTMLField(kind: .text, name: "VerificationCode")], 1),
        ([HTMLField(kind: .text, name: "security_code")], 0),
        ([HTMLField(kind: .text, name: "code"), HTMLField(kind: .text, name: "email")], nil),
        ([HTMLField(kind: .text, name: "code"), HTMLField(kind: .password, name: "password")], nil),
        ([HTMLField(kind: .text, name: "postcode")], nil),
        ([HTMLField(kind: .text, name: "zip")], nil),
    ] as [([HTMLField], Int?)])
    func aSeedTakesTheSoleCodeInput(_ fields: [HTMLField], _ expected: Int?) throws {
        let codes = OneTimeCodes(totp: try TOTP(secret: Array("12345678901234567890".utf8)), fieldName: nil, now: { 59 })
        #expect(codes.field(in: Self.form(fields)) == expected)
        #expect(OneTimeCodeField.index(in: Self.form(fields), named: nil) == nil, "without a seed the rule does not apply")
    }

    @Test func autocompleteOneTimeCodeIsParsed() {
        let forms = HTMLFormParser.forms(in: #"<form method="post"><input name="c" autocomplete="section-2fa One-Time-Code"><input name="d" autocomplete="off"></form>"#)
        #expect(forms.first?.fields.map(\.oneTimeCode) == [true, false])
    }

    /// RFC 6238 Appendix B, SHA1, 8 digits at T = 59 s: 94287082.
    @Test func aTurnedDownCodeIsReplacedOnceAfterItsStepEnded() throws {
        let totp = try TOTP(secret: Array("12345678901234567890".utf8), digits: 8)
        let clock = Clock(59)
        var codes = OneTimeCodes(totp: totp, fieldName: nil, now: { clock.time })
        let first = codes.fresh()
        #expect(first == "94287082")
        var retry = codes.mayRetry()
        #expect(!retry, "same time step: the code was wrong, not late")
        clock.time = 61
        retry = codes.mayRetry()
        #expect(retry, "the step ended since")
        let second = codes.fresh()
        #expect(second != first)
        clock.time = 95
        retry = codes.mayRetry()
        #expect(!retry, "only once per walk")
    }

    /// The walk side of it: the same one-time-code form back after its time
    /// step ended gets the next code once, then it is "login rejected".
    @Test func theSameFormBackAfterTheStepEndedIsFilledAgainOnce() throws {
        let totp = try TOTP(secret: Array("12345678901234567890".utf8), digits: 8)
        let clock = Clock(59)
        let handler = PageHandler(target: RedirectTarget(URIReference("http://127.0.0.1:8765/cb")!), formValues: [],
                                  submit: nil, trace: Trace(enabled: false, redactor: Redactor(), console: CapturingConsole(), names: .standard))
        handler.codes = OneTimeCodes(totp: totp, fieldName: nil, now: { clock.time })
        let page = ScriptPageTests.page(#"<div role="alert">Invalid code.</div><form method="post" action="/otp"><input name="otp" autocomplete="one-time-code"><button>Verify</button></form>"#)
        func sent() throws -> String? {
            guard case .submit(let request) = try handler.handle(page, at: "https://as.example/otp") else { return nil }
            return FormEncoding.decode(String(decoding: request.body ?? [], as: UTF8.self)).first { $0.0 == "otp" }?.1
        }
        #expect(try sent() == "94287082")
        #expect(handler.credentialsSubmitted)
        clock.time = 61
        let next = try sent()
        #expect(next == totp.code(at: 61) && next != "94287082")
        #expect(throws: LoginRejection.failure(page, at: "https://as.example/otp", oneTimeCode: true)) { try sent() }
    }

    final class Clock: @unchecked Sendable {
        var time: Double
        init(_ time: Double) { self.time = time }
    }
}
