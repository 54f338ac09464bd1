/// The command line's names of the few options that the trace and a flow's
/// notes mention (`* through the proxy … (--proxy)`, `authcode: note: …
/// without the --form values`). The CLI fills them from its option table
/// (CLI/OptionTable.swift), which alone spells an option; no layer below it
/// does.
package struct OptionNames: Equatable, Sendable {
    /// The explicit proxy (a proxy's source in the trace).
    package var proxy: String
    /// The user's headers (`-H`), which an untrusted origin does not get.
    package var header: String
    /// Where keys come from when none are known.
    package var issuer: String
    package var jwks: String
    /// What the POST→GET fallback note talks about.
    package var form: String
    package var method: String
    /// The proof a token that is not DPoP-bound cannot get.
    package var dpopFor: String
    /// The login driver chosen by hand.
    package var idp: String
    /// The certificates to trust, and not verifying them (the `-v` trust line).
    package var cacert: String
    package var insecure: String
    /// The passkey file a driver answers with.
    package var passkey: String
    /// The TOTP seed a one-time code page needs.
    package var totpSecret: String

    package init(proxy: String, header: String, issuer: String, jwks: String, form: String, method: String, dpopFor: String, idp: String,
                 cacert: String, insecure: String, passkey: String, totpSecret: String) {
        self.proxy = proxy
        self.header = header
        self.issuer = issuer
        self.jwks = jwks
        self.form = form
        self.method = method
        self.dpopFor = dpopFor
        self.idp = idp
        self.cacert = cacert
        self.insecure = insecure
        self.passkey = passkey
        self.totpSecret = totpSecret
    }

    /// Where a proxy was configured, as the trace says it.
    package func name(of source: ProxySource) -> String {
        switch source {
        case .none: ""
        case .option: proxy
        case .variable(let name): name
        }
    }
}
