import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import Walk
@testable import Flow

/// Flow/Passkey/PasskeyFile.swift on real files: checked before use,
/// refused when others may read it or it is no regular file, made 0600 by a
/// registration that never replaces a file, and rewritten under its lock so
/// runs at once never send one count twice.
struct PasskeyFileTests {
    static let origin = "https://login.example.com"

    struct Setup {
        let directory: String
        var path: String { directory + "/passkey.json" }

        init() throws {
            directory = NSTemporaryDirectory() + "authcode-passkey-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }

        func store(register: Bool = false, timeout: Double = 30, redactor: Redactor = Redactor()) -> PasskeyFile {
            PasskeyFile(path: path, mayRegister: register, timeout: timeout, redactor: redactor)
        }

        /// A passkey registered through the file store, as a first login does.
        @discardableResult
        func register(redactor: Redactor = Redactor()) throws -> RegistrationResponse {
            try Passkey(store: store(register: true, redactor: redactor)).create(
                RegistrationRequest(challenge: [1, 2, 3], origin: PasskeyFileTests.origin, user: .init(id: [0x75, 0x31])))
        }

        func assertion(_ store: PasskeyFile? = nil) throws -> AssertionResponse {
            try Passkey(store: store ?? self.store()).get(AssertionRequest(challenge: [4, 5, 6], origin: PasskeyFileTests.origin))
        }

        func mode() -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
        func contents() -> [UInt8] { (try? Array(Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }
        func files() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }
        func credential() throws -> PasskeyCredential { try PasskeyCredential(file: contents()) }
        func clean() { try? FileManager.default.removeItem(atPath: directory) }
    }

    @Test func registerOnceThenSignWithRisingCounts() throws {
        let setup = try Setup()
        defer { setup.clean() }
        #expect(try PasskeyFile.check(setup.path, register: true) == nil)
        let registration = try setup.register()
        #expect(setup.mode() == 0o600)
        let saved = try setup.credential()
        #expect(saved.rpID == "login.example.com" && saved.credentialID == registration.credentialID && saved.userHandle == [0x75, 0x31])
        #expect(saved.signCount == 0)
        #expect(try PasskeyFile.check(setup.path, register: false) == saved)
        for count in 1...3 {
            let assertion = try setup.assertion()
            #expect(assertion.signCount == UInt32(count))
            #expect(try setup.credential().signCount == UInt32(count))
            #expect(setup.mode() == 0o600)
        }
        // Nothing but the file and its lock: no temporary file left behind.
        #expect(setup.files() == ["passkey.json", "passkey.json.lock"])
    }

    @Test func aRegistrationNeverReplacesAFile() throws {
        let setup = try Setup()
        defer { setup.clean() }
        try setup.register()
        let before = setup.contents()
        #expect(throws: WebAuthnError.passkeyExists(path: setup.path)) { try setup.register() }
        let request = RegistrationRequest(challenge: [1], origin: Self.origin, user: .init(id: [1]))
        #expect(throws: WebAuthnError.registrationNotAllowed(path: setup.path)) { try Passkey(store: setup.store()).create(request) }
        #expect(setup.contents() == before)
        // Made by another run between the check and the link: still never replaced.
        let racing = setup.store(register: true)
        let other = try setup.credential()
        #expect(throws: WebAuthnError.passkeyExists(path: setup.path)) { try racing.create(other) }
        #expect(setup.contents() == before)
    }

    /// Threads of one process each open the file on their own, as runs do:
    /// every count is used once, each thread's counts rise, and the file
    /// ends at the number of uses.
    @Test func runsAtOnceNeverShareACount() throws {
        let setup = try Setup()
        defer { setup.clean() }
        try setup.register()
        let threads = 6
        let uses = 8
        let seen = Lock([[UInt32]](repeating: [], count: threads))
        let failures = Lock([String]())
        let path = setup.path
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let store = PasskeyFile(path: path, mayRegister: false, timeout: 60, redactor: Redactor())
            for _ in 0..<uses {
                do throws(WebAuthnError) {
                    let assertion = try Passkey(store: store).get(AssertionRequest(challenge: [UInt8(thread)], origin: PasskeyFileTests.origin))
                    seen.withLock { $0[thread].append(assertion.signCount) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.read { $0 } == [])
        let counts = seen.read { $0 }
        for sequence in counts {
            #expect(sequence.count == uses)
            #expect(sequence == sequence.sorted() && Set(sequence).count == uses)
        }
        #expect(counts.joined().sorted() == Array(1...UInt32(threads * uses)))
        #expect(try setup.credential().signCount == UInt32(threads * uses))
    }

    @Test(arguments: [0o640, 0o604, 0o620, 0o602, 0o660, 0o644, 0o666, 0o610])
    func refusedWhenOthersMayTouchIt(_ mode: Int) throws {
        let setup = try Setup()
        defer { setup.clean() }
        try setup.register()
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: setup.path)
        let exposed = WebAuthnError.file(.exposed(mode: UInt32(0o100000 | mode)), path: setup.path)
        #expect(throws: exposed) { try PasskeyFile.check(setup.path, register: false) }
        #expect(throws: exposed) { try setup.assertion() }
        // 0600 and 0700 are the owner's alone.
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: setup.path)
        #expect(try PasskeyFile.check(setup.path, register: false) != nil)
    }

    @Test func aLinkOrAFIFOIsRefusedWithoutWaiting() throws {
        let setup = try Setup()
        defer { setup.clean() }
        try setup.register()
        let link = setup.directory + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: setup.path)
        #expect(throws: WebAuthnError.store(.symbolicLink(.passkeyFile, path: link))) {
            try PasskeyFile.check(link, register: false)
        }
        let fifo = setup.directory + "/fifo.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: WebAuthnError.store(.notRegularFile(.passkeyFile, path: fifo, .fifo))) {
            try PasskeyFile.check(fifo, register: false)
        }
    }

    @Test func missingOrUnwritableIsExitTwoBeforeAnyRequest() throws {
        let setup = try Setup()
        defer { setup.clean() }
        #expect(throws: WebAuthnError.file(.absent, path: setup.path)) { try PasskeyFile.check(setup.path, register: false) }
        let nowhere = setup.directory + "/no-such-directory/passkey.json"
        #expect(throws: WebAuthnError.file(.directoryNotWritable, path: nowhere)) { try PasskeyFile.check(nowhere, register: true) }
        #expect(PasskeyFile.directory(of: "passkey.json") == "." && PasskeyFile.directory(of: "/passkey.json") == "/")
        // A file removed after the check: the login's question fails, nothing is made.
        #expect(throws: WebAuthnError.noCredentialYet(path: setup.path)) { try setup.assertion(setup.store(register: true)) }
        #expect(!setup.files().contains("passkey.json"))
    }

    /// Another run holding the lock past --timeout: the cache's error, the
    /// passkey's lock named (its words and exit: CLITests/ErrorReportTests.swift).
    @Test func aHeldLockTimesOut() throws {
        let setup = try Setup()
        defer { setup.clean() }
        try setup.register()
        let held = try FileLock(path: setup.path + ".lock", timeout: 1, what: .passkeyLock)
        defer { withExtendedLifetime(held) {} }
        #expect(throws: WebAuthnError.store(.lockTimeout(.passkeyLock, seconds: 0.05, path: setup.path + ".lock"))) {
            try setup.assertion(setup.store(timeout: 0.05))
        }
        #expect(try setup.credential().signCount == 0)
    }

    /// Each walker of a flow holds the run's passkey (for its drivers), and
    /// signs through the file with the flow's redactor; none without --passkey.
    @Test func eachWalkerHoldsTheRunsPasskey() throws {
        let setup = try Setup()
        defer { setup.clean() }
        try setup.register()
        var settings = FlowSettings()
        settings.client.id = "app"
        settings.client.redirectURI = "http://127.0.0.1:8765/cb"
        let none = TokenFlow(settings: settings, console: CapturingConsole(), transport: ScriptedTransport { _ in HTTPResponse(status: 404) }, wording: TestWording())
        let plain = AuthorizationCodeFlow(settings: settings, form: [], client: none.client, wording: TestWording())
        let plainWalker = try plain.walker(for: plain.authorizationRequest())
        #expect(!plainWalker.passkey.isAvailable)
        settings.walk.passkeyFile = setup.path
        settings.walk.passkey = try PasskeyFile.check(setup.path, register: false)
        let run = TokenFlow(settings: settings, console: CapturingConsole(), transport: ScriptedTransport { _ in HTTPResponse(status: 404) }, wording: TestWording())
        let flow = AuthorizationCodeFlow(settings: settings, form: [], client: run.client, wording: TestWording())
        let walker = try flow.walker(for: flow.authorizationRequest())
        #expect(walker.passkey.isAvailable)
        let assertion = try walker.passkey.get(AssertionRequest(challenge: [1], origin: Self.origin))
        #expect(assertion.signCount == 1)
        #expect(try setup.credential().signCount == 1)
        let d = try #require(try setup.credential().key.privateJWK().privateParameters.first?.bytes)
        #expect(run.redactor.scrub(Base64URL.encode(d)) == Redactor.mask)
    }

    /// The run's redactor knows the key from the options (KnownSecrets) and
    /// learns a key the file gets or holds when it is used.
    @Test func theRedactorLearnsEveryKey() throws {
        let setup = try Setup()
        defer { setup.clean() }
        let learnt = Redactor()
        try setup.register(redactor: learnt)
        let credential = try setup.credential()
        let d = try #require(try credential.key.privateJWK().privateParameters.first?.bytes)
        let forms = [Base64URL.encode(d), Base64URL.encodeStandard(d), d.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()]
        var settings = FlowSettings()
        settings.walk.passkey = credential
        let known = Redactor()
        KnownSecrets.remember(settings, in: known)
        let used = Redactor()
        _ = try setup.assertion(setup.store(redactor: used))
        for redactor in [learnt, known, used] {
            for form in forms {
                #expect(redactor.scrub("<p>\(form)</p>") == "<p>\(Redactor.mask)</p>")
            }
        }
        #expect(Redactor().scrub(forms[0]) == forms[0])
    }
}
