import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import JOSE
@testable import Flow

/// Flow/Verification/KeyStore.swift with the clock in the test's hand: the
/// key set read at most once per run, once more after an unknown kid, and
/// kept in the cache directory for an hour (Flow/Cache/KeptKeySet.swift).
struct KeyStoreTests {
    static let url = "https://as.example/jwks"
    static let keySet = #"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"a"}]}"#

    static func client(_ transport: ScriptedTransport) -> HTTPClient {
        HTTPClient(transport: transport, cookies: CookieJar(), extraHeaders: [], policy: SecurityPolicy(allowHTTP: false, connectTo: []),
                   trace: Trace(enabled: false, redactor: Redactor(), console: CapturingConsole(), names: .standard), now: { 0 })
    }

    static func transport(_ body: String = keySet, status: Int = 200) -> ScriptedTransport {
        ScriptedTransport { _ in HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body.utf8)) }
    }

    @Test func readOncePerRunAndFetchedOnceMoreAfterAnUnknownKid() throws {
        let transport = Self.transport()
        let fetch = KeySetFetch(client: Self.client(transport))
        let store = KeyStore(source: .url(Self.url))
        let first = try store.keys(fetch, now: 0)
        #expect(first.keys.map(\.kid) == ["a"])
        _ = try store.keys(fetch, now: 1)
        #expect(transport.requests.count == 1)
        #expect(try store.refetch(fetch, now: 2) == first)
        #expect(try store.refetch(fetch, now: 3) == first, "the set as it is: no second refetch")
        #expect(transport.requests.map(\.url) == [Self.url, Self.url])
        #expect(transport.requests[0].headers.first(named: "Accept") == "application/jwk-set+json, application/json")
    }

    @Test func givenSetsAndNoSourceNeverFetch() throws {
        let transport = Self.transport()
        let fetch = KeySetFetch(client: Self.client(transport))
        let given = try JWKSet(json: Array(Self.keySet.utf8))
        #expect(try KeyStore(source: .given(given, from: "f")).keys(fetch, now: 0) == given)
        #expect(try KeyStore(source: .given(given, from: "f")).refetch(fetch, now: 0) == nil)
        #expect(try KeyStore(source: nil).keys(fetch, now: 0).isEmpty)
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: [
        (500, "{}", FlowError.keySetStatus(url: url, status: 500)),
        (200, "<html>", .keySetUnusable(url: url, .notJSON)),
        (200, #"{"issuer":"x"}"#, .keySetUnusable(url: url, .notKeySet)),
    ])
    func unusableSets(status: Int, body: String, expected: FlowError) {
        let fetch = KeySetFetch(client: Self.client(Self.transport(body, status: status)))
        #expect(throws: expected) { try KeyStore(source: .url(Self.url)).keys(fetch, now: 0) }
    }

    /// Kept with its fetch time: used for an hour, then fetched and kept anew.
    @Test func keptForAnHour() throws {
        let directory = try CacheDirectory(path: NSTemporaryDirectory() + "authcode-keys-unit-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let salt = Array(repeating: UInt8(7), count: 32)
        let kept = KeptKeySet(directory: directory, url: Self.url, salt: salt)
        let transport = Self.transport()
        let fetch = KeySetFetch(client: Self.client(transport))
        let start = 1_700_000_000.0
        _ = try KeyStore(source: .url(Self.url), kept: kept).keys(fetch, now: start)
        #expect(transport.requests.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: kept.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        _ = try KeyStore(source: .url(Self.url), kept: kept).keys(fetch, now: start + 3599)
        #expect(transport.requests.count == 1, "a new run within the hour reads the kept set")
        _ = try KeyStore(source: .url(Self.url), kept: kept).keys(fetch, now: start - 3600)
        #expect(transport.requests.count == 2, "a set kept 'in the future' (the clock went back) is fetched again")
        _ = try KeyStore(source: .url(Self.url), kept: kept).keys(fetch, now: start - 3600 + 3600)
        #expect(transport.requests.count == 3, "an hour after its fetch")
        // Another URL, another file: named by the URL under the salt.
        #expect(KeptKeySet(directory: directory, url: Self.url + "2", salt: salt).path != kept.path)
        #expect(KeptKeySet(directory: directory, url: Self.url, salt: Array(repeating: 8, count: 32)).path != kept.path)
        // A corrupt file is fetched over, never fatal.
        try Data("authcode-jwks 1 \(start) 9999\n{}".utf8).write(to: URL(fileURLWithPath: kept.path))
        _ = try KeyStore(source: .url(Self.url), kept: kept).keys(fetch, now: start)
        #expect(transport.requests.count == 4)
    }
}
