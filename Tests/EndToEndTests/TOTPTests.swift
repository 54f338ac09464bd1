import Foundation
import Testing

/// `--totp-secret`: a fresh RFC 6238 code fills the one-time-code field,
/// checked by pyotp in the fixture (Fixtures/server/totp.py), not by our
/// own code; seed and codes never reach stderr.
@Suite("TOTP second factor")
struct TOTPTests {
    static let sha1Seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    static let sha256URI = "otpauth://totp/Fixture:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA"
        + "&issuer=Fixture&algorithm=SHA256&digits=8&period=30"
    /// The password from stdin (`@-`): on the command line it would earn a hint on stderr.
    static let alice = ["--form", "username=alice", "--form", "password=@-"]
    static let password = "wonderland\n"

    /// The codes the fixture received in `field`.
    static func codes(_ hits: [Hit], field: String) -> [String] {
        hits.compactMap { $0.form[field] }
    }

    @Test func base32SeedFromAFile() async throws {
        let fx = try await Fixture.make()
        let seed = try TempFile(Self.sha1Seed + "\n")
        let result = try await run(fx.publicClient("totp") + Self.alice + ["--totp-secret", "@" + seed.path, "-v"], stdin: Self.password)
        expectTokenJSON(result)
        let hits = try fx.hits()
        let codes = Self.codes(hits, field: "otp")
        #expect(codes.count == 1 && codes[0].count == 6 && codes[0].allSatisfy(\.isNumber), "\(codes.map(\.count)) codes' lengths at \(hits.map(\.path))")
        #expect(hits.first { $0.endpoint == "otp" }?.form["action"] == "verify")
        #expect(result.stderr.contains("otp=[redacted]"), "\(result)")
        expectNoSecrets(in: result, fixture: fx, extra: [Self.sha1Seed] + codes)
    }

    @Test func otpauthURIWithSHA256AndEightDigitsFromTheEnvironment() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("totp-sha256-8") + Self.alice + ["-v"],
                                   env: ["AUTHCODE_TOTP_SECRET": Self.sha256URI], stdin: Self.password)
        expectTokenJSON(result)
        let codes = Self.codes(try fx.hits(), field: "otp")
        #expect(codes.count == 1 && codes[0].count == 8, "lengths \(codes.map(\.count))")
        expectNoSecrets(in: result, fixture: fx, extra: [Self.sha256URI, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA"] + codes)
    }

    @Test func fieldNamedByTOTPField() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("totp-field-named") + Self.alice
            + ["--totp-field", "verification"], env: ["AUTHCODE_TOTP_SECRET": Self.sha1Seed], stdin: Self.password)
        expectTokenJSON(result)
        #expect(Self.codes(try fx.hits(), field: "verification").count == 1)
    }

    @Test func fieldNoHeuristicKnowsNamesItself() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("totp-field-named") + Self.alice, env: ["AUTHCODE_TOTP_SECRET": Self.sha1Seed], stdin: Self.password)
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == "authcode: error: the form came back asking for 'verification', which neither --form nor --totp-secret fills (\(fx.issuer("totp-field-named"))/otp)\n"
            + "If that field takes the one-time code, pass --totp-field verification.\n", "\(result)")
        #expect(try fx.hits(to: "token").isEmpty)
    }

    /// A one-time-code form and no `--totp-secret`: stopped before the form
    /// goes out empty (it used to come back twice and read as a loop).
    @Test(arguments: ["totp", "totp-sha256-8"])
    func oneTimeCodeWithoutASeedIsNamed(_ scenario: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient(scenario) + Self.alice, stdin: Self.password)
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == "authcode: error: the login asks for a one-time code ('otp'), and no --totp-secret was given (\(fx.issuer(scenario))/login)\n"
            + "Pass the authenticator app's seed with --totp-secret (base32, or the otpauth:// URI of its QR code).\n", "\(result)")
        let hits = try fx.hits()
        #expect(!hits.contains { $0.endpoint == "otp" }, "the code form is never sent empty: \(hits.map(\.path))")
        #expect(try fx.hits(to: "token").isEmpty)
        expectNoSecrets(in: result, fixture: fx)
    }

    /// A code field no rule recognises, and no seed: the form comes back
    /// once, and the message names the field and both ways to fill it.
    @Test func unrecognisedFieldWithoutASeedIsNamed() async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("totp-field-named") + Self.alice, stdin: Self.password)
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == "authcode: error: the form came back asking for 'verification', which no --form value fills (\(fx.issuer("totp-field-named"))/otp)\n"
            + "Pass it with --form verification=VALUE, or, if it takes a one-time code, --totp-secret with --totp-field verification.\n", "\(result)")
        #expect(try fx.hits().filter { $0.endpoint == "otp" }.count == 1)
    }

    /// `--form otp=VALUE` fills the field itself: the form goes out and the
    /// server's verdict is the rejection, with the --form hint, not --totp-secret.
    @Test func oneTimeCodeGivenByFormIsSent() async throws {
        let fx = try await Fixture.make()
        let code = try TempFile("000000\n")
        let result = try await run(fx.publicClient("totp") + Self.alice + ["--form", "otp=@" + code.path], stdin: Self.password)
        expectFailure(result, exit: 6, [])
        #expect(result.stderr == "authcode: error: login rejected: Invalid authenticator code. (\(fx.issuer("totp"))/otp)\n"
            + "The server turned down the credentials given with --form; check them (-v shows the form sent, secrets redacted).\n", "\(result)")
        #expect(Self.codes(try fx.hits().filter { $0.endpoint == "otp" }, field: "otp") == ["000000"])
    }

    @Test func wrongSeedIsLoginRejected() async throws {
        let fx = try await Fixture.make()
        let wrong = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
        let result = try await run(fx.publicClient("totp") + Self.alice, env: ["AUTHCODE_TOTP_SECRET": wrong], stdin: Self.password)
        expectFailure(result, exit: 6, [])
        #expect(result.errorLine == "authcode: error: login rejected: Invalid authenticator code. (\(fx.issuer("totp"))/otp)", "\(result)")
        #expect(result.stderr.contains("check the seed (algorithm, digits, period) and this machine's clock"), "\(result)")
        // Sent once, or twice when the time step ended in between (RFC 6238 §5.2).
        #expect((1...2).contains(Self.codes(try fx.hits(), field: "otp").count))
        expectNoSecrets(in: result, fixture: fx, extra: [wrong] + Self.codes(try fx.hits(), field: "otp"))
    }

    @Test(arguments: [
        (["--totp-secret", "not base32!"], "invalid value for '--totp-secret <secret>': the TOTP secret is not base32 (RFC 4648: letters A-Z and digits 2-7)"),
        (["--totp-secret", "otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQ&counter=1"],
         "invalid value for '--totp-secret <secret>': otpauth://hotp/ (counter-based) secrets are not supported, only otpauth://totp/"),
        (["--totp-secret", "otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&algorithm=MD5"],
         "invalid value for '--totp-secret <secret>': the otpauth URI's algorithm must be SHA1, SHA256 or SHA512"),
        (["--totp-field", "otp"], "'--totp-field <name>' needs '--totp-secret <secret>'"),
    ])
    func badTOTPSettingsAreUsageErrors(_ arguments: [String], _ message: String) async throws {
        let fx = try await Fixture.make()
        let result = try await run(fx.publicClient("totp") + Self.alice + arguments, stdin: Self.password)
        expectFailure(result, exit: 2, [])
        #expect(result.errorLine == "authcode: error: " + message, "\(result)")
        #expect(!result.stderr.contains("GEZDGNBVGY3TQOJQ"), "the seed is never quoted\n\(result)")
        #expect(try fx.hits().isEmpty, "no request before the options are right")
    }
}
