import Testing
@testable import Core
@testable import Walk

/// Literals read out of a page's script (Walk/Drivers/ScriptLiteral.swift):
/// what Keycloakify's declaration and Keycloak's WebAuthn scripts write.
struct ScriptLiteralTests {
    @Test func aKeycloakifyDeclarationReadsAsJSON() {
        let script = #"""
        const kcContext = {
            "url": {
                "loginAction": "https://kc.example/realms/demo/login-actions/authenticate?session_code=c1\x26execution=e1",
                "resourcesPath": "/resources/x/login/app",
            },
            "realm": { "name": "demo", 'displayName': 'Demo \'realm\'', rememberMe: false, },
            "otpLogin": { "userOtpCredentials": [ { "id": "d1", "userLabel": "Phone", }, ], },
            "signatureAlgorithms": [ -7, -257, ],
            /* a member left out: "x" */
            "messagesPerField": {
                "get": function (fieldName) { if(fieldName === 'username'){ return decodeHtmlEntities("Invalid, {really}"); } },
                "existsError": function (fieldName) { return false; },
            },
            "now": new Date(),
        };
        kcContext.pageId = "login-otp.ftl";
        """#
        let object = ScriptLiteral.assigned("const kcContext", in: script)
        #expect(object?["url"]?["loginAction"]?.stringValue == "https://kc.example/realms/demo/login-actions/authenticate?session_code=c1&execution=e1")
        #expect(object?["realm"]?["displayName"]?.stringValue == "Demo 'realm'")
        #expect(object?["realm"]?["rememberMe"] == .bool(false))
        #expect(object?["otpLogin"]?["userOtpCredentials"] == .array([.object(["id": .string("d1"), "userLabel": .string("Phone")])]))
        #expect(object?["signatureAlgorithms"] == .array([.number(-7), .number(-257)]))
        #expect(object?["messagesPerField"]?["get"] == .null, "a function is skipped, not evaluated")
        #expect(object?["now"] == .null)
        #expect(ScriptLiteral.assigned("kcContext.pageId", in: script)?.stringValue == "login-otp.ftl")
        #expect(KeycloakContext(scripts: [script])?.fieldErrors == ["Invalid, {really}"])
        #expect(KeycloakContext(scripts: [script])?.pageID == "login-otp.ftl")
    }

    /// The spellings of Keycloak's WebAuthn pages: `name : 'x'` (v2,
    /// older), `name : "x"` (newer), `let name = "x";` (before 22).
    @Test(arguments: [
        #"const input = { isUserIdentified : false, challenge : 'Y2hhbA', rpId : 'localhost' };"#,
        #"const input = {challenge : "Y2hhbA", rpId : "localhost"};"#,
        #"let challenge = "Y2hhbA"; let rpId = "localhost"; publicKey = { rpId : rpId, challenge: base64url.decode(challenge) };"#,
        #"if (challenge == 'no') {} var challenge = 'Y2hhbA'; const o = {"rpId": "localhost"};"#,
    ])
    func challengeAndRPIDAreFoundInEachSpelling(_ script: String) {
        #expect(ScriptLiteral.assigned("challenge", in: script)?.stringValue == "Y2hhbA")
        #expect(ScriptLiteral.assigned("rpId", in: script)?.stringValue == "localhost")
        #expect(ScriptLiteral.assigned("userVerification", in: script) == nil)
    }

    @Test(arguments: [
        (#""a\u00e9\u{1F600}\x3C\n""#, "aé😀<\n"),
        (#"'\ud83d\ude00'"#, "😀"),
        (#"`plain`"#, "plain"),
        ("\"line\\\njoined\"", "linejoined"),
    ] as [(String, String)])
    func stringEscapes(_ literal: String, _ expected: String) {
        #expect(ScriptLiteral.value(in: literal)?.stringValue == expected)
    }

    /// Hostile or broken scripts end in nil, never a trap or a hang.
    @Test(arguments: [
        String(repeating: "[", count: 10_000),
        String(repeating: "{a:", count: 5_000),
        #"{"a": "unterminated"#, #"{"a": `x${y}`}"#, #"'\u{110000}'"#, #""\x4""#, "-", "1e999", "",
    ])
    func brokenLiteralsAreNil(_ text: String) {
        #expect(ScriptLiteral.value(in: text) == nil)
    }

    @Test func aMemberThatIsNoLiteralIsNull() {
        #expect(ScriptLiteral.value(in: "{a: 1 2, b: x.y(), c: 3}") == .object(["a": .null, "b": .null, "c": .number(3)]))
    }

    @Test func aFunctionMemberWithBracesInStringsIsSkipped() {
        let text = #"{ f: function () { return "}{,"; }, g: 'kept' }"#
        #expect(ScriptLiteral.value(in: text)?["g"]?.stringValue == "kept")
    }
}
