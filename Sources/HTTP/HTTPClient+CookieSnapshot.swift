import Core

extension HTTPClient {
    /// The cookie jar as it is now (CookieJar.Snapshot).
    package func saveCookies() -> CookieJar.Snapshot {
        cookies.snapshot
    }

    /// Back to a saved jar: every cookie set since is gone.
    package func restoreCookies(_ snapshot: CookieJar.Snapshot) {
        cookies.restore(snapshot)
        trace.info("cookies now: \(cookies.names.isEmpty ? "none" : cookies.names.joined(separator: ", "))")
    }
}
