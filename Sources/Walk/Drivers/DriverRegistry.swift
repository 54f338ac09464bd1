import HTTP

/// Which driver takes a page (README "Identity providers"): with `--idp auto` the first
/// whose recognition holds; with `--idp none` none; with `--idp NAME` only
/// that one, and the first page the walk meets that is not a redirect goes
/// to it even unrecognised — the user said whose login this is.
package struct DriverRegistry: Sendable {
    /// Every driver authcode has, in the order they are asked. A page is
    /// asked of the most specific recognition first.
    package static let all: [any LoginDriver] = [KeycloakDriver(), OktaDriver(), EntraDriver(), Auth0LockDriver(), GlewlwydDriver(), AuthentikDriver()]

    let choice: IdentityProvider
    let drivers: [any LoginDriver]

    package init(choice: IdentityProvider = .auto, drivers: [any LoginDriver] = DriverRegistry.all) {
        self.choice = choice
        switch choice {
        case .auto: self.drivers = drivers
        case .none: self.drivers = []
        default: self.drivers = drivers.filter { $0.provider == choice }
        }
    }

    /// Whether `--idp NAME` still waits for its first page.
    var forcesFirstPage: Bool {
        choice != .auto && choice != .none && !drivers.isEmpty
    }

    /// The driver for this page, if any; `forced` pages go to the named one.
    func driver(for page: DriverPage) -> (any LoginDriver)? {
        if page.forced { return drivers.first }
        return drivers.first { $0.recognises(page) }
    }
}
