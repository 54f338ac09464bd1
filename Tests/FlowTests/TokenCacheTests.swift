import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Flow

/// Flow/Cache/TokenCache.swift with the clock in the test's hand: when an
/// entry is used, refreshed, dropped or minted anew. Real files in a fresh
/// 0700 directory; the minting and refreshing are closures that count.
struct TokenCacheTests {
    final class Calls: Sendable {
        let log = Lock([String]())
        var all: [String] { log.read { $0 } }
        func add(_ call: String) { log.withLock { $0.append(call) } }
    }

    struct Setup {
        let directory: String
        let clock = ManualClock()
        let calls = Calls()
        let console = CapturingConsole()

        init() throws {
            directory = NSTemporaryDirectory() + "authcode-cache-unit-\(UUID().uuidString.prefix(8))"
        }

        func cache(minTTL: Double = 60) throws -> TokenCache {
            let console = self.console
            return TokenCache(directory: try CacheDirectory(path: directory), key: "k", minTTL: minTTL, carriesIDToken: false, lockTimeout: 5,
                              trace: Trace(enabled: true, redactor: Redactor(), console: console, names: .standard), now: clock.now,
                              wording: TestWording(), warn: { console.writeErr($0 + "\n") })
        }

        static func token(_ json: String) -> TokenResponse {
            try! TokenResponse(HTTPResponse(status: 200, body: Array(json.utf8)), at: Server.token)
        }

        /// Mints `at-N` with a refresh token, N counting the mints; refreshes per `refresh`.
        func minting(refresh: @escaping @Sendable (String) throws(FlowError) -> TokenResponse = { _ throws(FlowError) in
            Setup.token(#"{"access_token":"at-refreshed","expires_in":3600}"#)
        }) -> TokenCache.Minting {
            TokenCache.Minting(
                mint: { [calls, clock] (_: TokenResponse?) throws(FlowError) -> MintedToken in
                    calls.add("mint")
                    let json = #"{"access_token":"at-\#(calls.all.count)","expires_in":3600,"refresh_token":"rt-1"}"#
                    return MintedToken(response: Setup.token(json), receivedAt: clock.time, source: .flow)
                },
                refresh: { [calls] (refreshToken: String, _: TokenResponse) throws(FlowError) -> TokenResponse in
                    calls.add("refresh \(refreshToken)")
                    return try refresh(refreshToken)
                })
        }

        func clean() { try? FileManager.default.removeItem(atPath: directory) }
    }

    @Test func aHitMakesNoRequest() throws {
        let setup = try Setup()
        defer { setup.clean() }
        let first = try setup.cache().obtain(setup.minting())
        setup.clock.advance(by: 3600 - 60 - 1)
        let second = try setup.cache().obtain(setup.minting())
        #expect(first.response.accessToken == "at-1" && first.source == .flow)
        #expect(second.response.accessToken == "at-1" && second.source == .cache)
        #expect(setup.calls.all == ["mint"])
    }

    /// The injected clock decides staleness: within --min-ttl of expiry the
    /// entry's refresh token is redeemed and the answer merged.
    @Test func aStaleEntryIsRefreshed() throws {
        let setup = try Setup()
        defer { setup.clean() }
        _ = try setup.cache().obtain(setup.minting())
        setup.clock.advance(by: 3600 - 60 + 1)
        let token = try setup.cache().obtain(setup.minting())
        #expect(token.source == .refresh && token.response.accessToken == "at-refreshed")
        #expect(token.response.refreshToken == "rt-1", "a refresh token that was not rotated is kept")
        #expect(token.receivedAt == setup.clock.time)
        #expect(setup.calls.all == ["mint", "refresh rt-1"])
    }

    /// invalid_grant, as the token endpoint's typed reason: the entry goes
    /// and a full flow runs.
    @Test func invalidGrantDropsTheEntry() throws {
        let setup = try Setup()
        defer { setup.clean() }
        _ = try setup.cache().obtain(setup.minting())
        setup.clock.advance(by: 3600)
        let refused = FlowError.oauth(.tokenRefused(status: 400, OAuthErrorObject(error: "invalid_grant"), at: Server.token))
        let token = try setup.cache().obtain(setup.minting(refresh: { _ throws(FlowError) in throw refused }))
        #expect(token.source == .flow && token.response.accessToken == "at-3")
        #expect(setup.calls.all == ["mint", "refresh rt-1", "mint"])
        #expect(setup.console.err.contains("* the refresh token was refused (invalid_grant); dropping the entry and logging in again\n"))
    }

    /// A refresh answer whose id_token names another user (or fails any
    /// security check: `answerRefused` of a security refusal) drops the
    /// entry: OIDC Core §12.2. The next run logs in anew.
    @Test(arguments: [FlowError.oauth(.identityChanged(claim: "sub")), .signature(.idToken, .badSignature, accepted: [.rs256])])
    func aRefusedRefreshAnswerDropsTheEntry(why: FlowError) throws {
        let setup = try Setup()
        defer { setup.clean() }
        _ = try setup.cache().obtain(setup.minting())
        setup.clock.advance(by: 3600)
        let refused = FlowError.answerRefused(.refreshToken, at: Server.token, why)
        #expect(throws: refused) { try setup.cache().obtain(setup.minting(refresh: { _ throws(FlowError) in throw refused })) }
        #expect(!FileManager.default.fileExists(atPath: setup.directory + "/k.token"), "the entry is dropped")
        #expect(setup.console.err.contains("* the refreshed token was refused; its cache entry is dropped\n"))
        let next = try setup.cache().obtain(setup.minting())
        #expect(next.source == .flow)
        #expect(setup.calls.all == ["mint", "refresh rt-1", "mint"])
    }

    /// Any other refusal is the run's answer, whatever its text says: a
    /// description that reads "error=invalid_grant" decides nothing, and an
    /// answer whose keys could not be fetched was not refused by a check.
    @Test(arguments: [
        FlowError.oauth(.tokenRefused(status: 401, OAuthErrorObject(error: "invalid_client", description: "not error=invalid_grant"), at: Server.token)),
        .answerRefused(.refreshToken, at: Server.token, .keySetStatus(url: "https://as.example/jwks", status: 503)),
    ])
    func anotherRefusalKeepsTheEntry(refused: FlowError) throws {
        let setup = try Setup()
        defer { setup.clean() }
        _ = try setup.cache().obtain(setup.minting())
        setup.clock.advance(by: 3600)
        #expect(throws: refused) { try setup.cache().obtain(setup.minting(refresh: { _ throws(FlowError) in throw refused })) }
        #expect(setup.calls.all == ["mint", "refresh rt-1"])
        #expect(FileManager.default.fileExists(atPath: setup.directory + "/k.token"), "the entry is kept")
    }

    @Test func aTokenWithoutLifetimeIsNotStored() throws {
        let setup = try Setup()
        defer { setup.clean() }
        let minting = TokenCache.Minting(
            mint: { [calls = setup.calls, clock = setup.clock] (_: TokenResponse?) throws(FlowError) -> MintedToken in
                calls.add("mint")
                return MintedToken(response: Setup.token(#"{"access_token":"forever"}"#), receivedAt: clock.time, source: .flow)
            },
            refresh: { _, _ throws(FlowError) in Setup.token("{}") })
        _ = try setup.cache().obtain(minting)
        _ = try setup.cache().obtain(minting)
        #expect(setup.calls.all == ["mint", "mint"])
        #expect(!FileManager.default.fileExists(atPath: setup.directory + "/k.token"))
    }
}
