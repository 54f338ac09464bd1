import HTTP

extension OptionNames {
    /// The names the CLI's option table gives (CLI/Errors/CLIWording.swift),
    /// for tests of the layers below it, which do not link the CLI.
    package static let standard = OptionNames(proxy: "--proxy", header: "-H", issuer: "--issuer", jwks: "--jwks", form: "--form",
                                              method: "--method", dpopFor: "--dpop-for", idp: "--idp",
                                              cacert: "--cacert", insecure: "--insecure", passkey: "--passkey", totpSecret: "--totp-secret")
}
