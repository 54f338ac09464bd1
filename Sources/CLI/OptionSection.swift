/// The `--help` sections, in order.
package enum OptionSection: String, Sendable, CaseIterable {
    case endpoints = "ENDPOINTS"
    case client = "CLIENT"
    case request = "AUTHORIZATION REQUEST"
    case profile = "MODERN CLIENT PROFILE"
    case walk = "LOGIN AND CONSENT PAGES"
    case output = "OUTPUT"
    case verification = "VERIFICATION"
    case lifecycle = "TOKEN REUSE"
    case batch = "MANY USERS"
    case transport = "TRANSPORT AND TLS"
    case general = "GENERAL"
}
