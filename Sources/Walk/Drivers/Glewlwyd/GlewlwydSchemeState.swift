import Core

/// What `GET /api/auth/scheme/?scope=…` says the session still lacks, per
/// scope: the password, and groups of schemes of which so many must be
/// authenticated (Glewlwyd's docs/SCOPE.md; Fixtures/glewlwyd/README.md,
/// "Second factors"). Read as the login app's parseSchemes reads it.
struct GlewlwydSchemeState: Equatable {
    struct Scheme: Equatable {
        /// The module: `otp`, `webauthn`, `email`, `certificate`, `oauth2`, …
        let type: String
        /// The instance's name, which the API calls take with the type.
        let name: String
        let authenticated: Bool
        /// Whether the user has set this scheme up (a TOTP seed, a passkey).
        let registered: Bool
        /// Seconds since 1970 of the user's last login with it; the app
        /// offers the most recent first.
        let lastLogin: Double
    }

    struct Group: Equatable {
        let name: String
        /// How many of `schemes` must be authenticated.
        let required: Int
        let schemes: [Scheme]
    }

    struct Scope: Equatable {
        let name: String
        let available: Bool
        let passwordRequired: Bool
        let passwordAuthenticated: Bool
        let groups: [Group]
    }

    let scopes: [Scope]

    /// Nil when the answer is not an object of scope entries.
    init?(_ json: JSONValue) {
        guard case .object(let entries) = json else { return nil }
        var scopes: [Scope] = []
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            guard case .object = entry else { return nil }
            var groups: [Group] = []
            if case .object(let named)? = entry["schemes"] {
                for (group, list) in named.sorted(by: { $0.key < $1.key }) {
                    guard case .array(let items) = list else { return nil }
                    let schemes = items.compactMap { item -> Scheme? in
                        guard let type = item["scheme_type"]?.stringValue, let scheme = item["scheme_name"]?.stringValue else { return nil }
                        return Scheme(type: type, name: scheme, authenticated: item["scheme_authenticated"] == .bool(true),
                                      registered: item["scheme_registered"] == .bool(true),
                                      lastLogin: item["scheme_last_login"]?.numberValue ?? 0)
                    }
                    let required = entry["scheme_required"]?[group]?.numberValue.map { Int($0) } ?? 1
                    groups.append(Group(name: group, required: required, schemes: schemes))
                }
            }
            scopes.append(Scope(name: name, available: entry["available"] != .bool(false),
                                passwordRequired: entry["password_required"] == .bool(true),
                                passwordAuthenticated: entry["password_authenticated"] == .bool(true), groups: groups))
        }
        self.scopes = scopes
    }
}
