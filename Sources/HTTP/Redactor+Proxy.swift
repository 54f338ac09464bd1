import Core

extension Redactor {
    /// A proxy's credentials are secrets (curl sends them as
    /// Proxy-Authorization, and puts the whole proxy URL into some of its
    /// error messages): the userinfo as written, the password as written
    /// and decoded, and the Basic credential made of them.
    package func remember(proxies: ProxySettings) {
        for url in proxies.proxyURLs {
            guard let credentials = ProxyChoice.credentials(in: url) else { continue }
            remember(credentials.userinfo)
            remember(credentials.rawPassword)
            if !credentials.password.isEmpty { rememberClient(id: credentials.user, secret: credentials.password) }
        }
    }
}
