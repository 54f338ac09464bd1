import Core
import HTTP

/// What the login app's grant page records for the user (GrantScope.js):
/// the requested scopes granted to the client, and consent to each type of
/// the request's `authorization_details`. The user who runs authcode asked
/// for these, as the user who clicks "Grant" did.
struct GlewlwydConsent {
    let api: GlewlwydAPI

    /// The user's grant of the requested scopes to the client, as the app's
    /// grant page records it: read with `GET /api/auth/grant/{client}/{scopes}`,
    /// and set with `PUT /api/auth/grant/{client}` (space-separated) when a
    /// scope other than `openid` is not granted yet. `openid` alone needs no
    /// grant. Returns the scopes the user has (the app checks schemes for these).
    func grantScopes() throws(DriverError) -> [String] {
        let page = api.page
        if page.scopes.isEmpty || page.scopes == ["openid"] { return page.scopes }
        let client = GlewlwydLoginPage.component(page.clientID)
        let path = "/auth/grant/\(client)/\(page.scopeComponent)"
        let answer = try api.call(.get, path, step: "grant check")
        if answer.status == 404 {
            // The app's text for this answer.
            throw .loginRejected(provider: .glewlwyd, text: "You don't have the credential to access these scopes", at: Walker.place(api.url(path)))
        }
        try api.expectOK(answer, path)
        guard case .array(let listed)? = try api.object(answer, path)["scope"] else {
            throw .pageUnknown(provider: .glewlwyd, saw: "a grant answer without a scope list", at: Walker.place(api.url(path)))
        }
        let names = listed.compactMap { $0["name"]?.stringValue }
        guard !names.isEmpty else {
            throw .loginRejected(provider: .glewlwyd, text: "Error, no required scope is available", at: Walker.place(api.url(path)))
        }
        let ungranted = listed.filter { $0["name"]?.stringValue != "openid" && $0["granted"] != .bool(true) }
        if !ungranted.isEmpty {
            let put = "/auth/grant/\(client)"
            let scope = names.joined(separator: " ")
            api.session.trace.info("glewlwyd: granting \(scope) to \(page.clientID), as the user does on the login page")
            try api.expectOK(try api.call("PUT", put, .object(["scope": .string(scope)]), step: "grant"), put)
        }
        return names
    }

    /// `GET /api/<plugin>/rar/<client>/<type>` (the app's checkAuthorizationDetails)
    /// and, when its `consent` is not true, `PUT …/<type>/1`: only `1` consents
    /// (Fixtures/glewlwyd/README.md, "Resource indicators and RAR").
    func consentToAuthorizationDetails() throws(DriverError) {
        let page = api.page
        guard let plugin = page.plugin, !page.authorizationDetailTypes.isEmpty else { return }
        for type in page.authorizationDetailTypes {
            let path = "/\(GlewlwydLoginPage.component(plugin))/rar/\(GlewlwydLoginPage.component(page.clientID))/\(GlewlwydLoginPage.component(type))"
            let answer = try api.call(.get, path, step: "authorization_details check (\(type))")
            try api.expectOK(answer, path)
            if try api.object(answer, path)["consent"] == .bool(true) { continue }
            api.session.trace.info("glewlwyd: consenting to the authorization_details type \(type) for \(page.clientID)")
            try api.expectOK(try api.call("PUT", path + "/1", step: "authorization_details consent (\(type))"), path + "/1")
        }
    }
}
