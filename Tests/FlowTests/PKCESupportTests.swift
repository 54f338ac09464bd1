import Testing
@testable import Core
@testable import HTTP
@testable import OAuth
@testable import Walk
@testable import Flow

/// Metadata lacking the --pkce method is a usage error before any request of
/// the flow (Flow/ServerEndpoints.swift, checkPKCESupport).
struct PKCESupportTests {
    static func metadata(_ methods: [String]?) -> ServerMetadata {
        ServerMetadata(issuer: "https://idp.example", authorizationEndpoint: "https://idp.example/auth", tokenEndpoint: "https://idp.example/token",
                       codeChallengeMethods: methods, issParameterSupported: false)
    }

    static func settings(_ pkce: PKCEMethod, refresh: Bool = false) -> FlowSettings {
        var settings = FlowSettings()
        settings.server.issuer = "https://idp.example"
        settings.request.pkce = pkce
        settings.request.refreshToken = refresh ? "rt-1" : nil
        return settings
    }

    static func check(_ settings: FlowSettings, _ metadata: ServerMetadata?) throws(FlowError) {
        try ServerEndpoints.checkPKCESupport(settings.request, metadata, issuer: settings.server.issuer)
    }

    @Test(arguments: [
        (PKCEMethod.s256, ["S256"] as [String]?), (.s256, ["plain", "S256"]), (.plain, ["plain"]), (.off, ["plain"]), (.off, []),
        (.s256, nil),  // metadata silent about PKCE: nothing to check against
    ])
    func supported(pkce: PKCEMethod, methods: [String]?) throws {
        try Self.check(Self.settings(pkce), Self.metadata(methods))
    }

    @Test func noMetadataNoCheck() throws {
        try Self.check(Self.settings(.s256), nil)
    }

    @Test func refreshNeedsNoPKCE() throws {
        try Self.check(Self.settings(.s256, refresh: true), Self.metadata(["plain"]))
    }

    @Test(arguments: [(PKCEMethod.s256, ["plain"]), (.plain, ["S256"]), (.s256, []), (.plain, ["S512", "x"])])
    func missingMethodIsRefused(pkce: PKCEMethod, methods: [String]) {
        #expect(throws: FlowError.pkceNotListed(pkce, listed: methods, issuer: "https://idp.example")) {
            try Self.check(Self.settings(pkce), Self.metadata(methods))
        }
    }
}
