import Core

/// Where proxies come from for a run: an explicit proxy and no-proxy list
/// (options that may be added later; each wins over the environment, as
/// curl's `--proxy` and `--noproxy` do), else the variables libcurl itself
/// would read. authcode reads them, decides per request (`choice(for:)`)
/// and always hands libcurl its answer as CURLOPT_PROXY, an empty string
/// for none, so libcurl never picks a proxy that the plain-http rule
/// (SecurityPolicy.swift) has not seen.
package struct ProxySettings: Equatable, Sendable {
    package var explicitProxy: String?
    package var explicitNoProxy: String?
    /// The proxy variables of the environment, as set (an empty value too).
    var variables: [String: String]

    /// Read in libcurl's order (lib/url.c, detect_proxy): `<scheme>_proxy`,
    /// its upper-case form except `HTTP_PROXY` (CGI puts a request's
    /// `Proxy:` header there, httpoxy), then `all_proxy`, `ALL_PROXY`;
    /// `no_proxy`, then `NO_PROXY`. A variable set to "" still ends the
    /// search: it means no proxy.
    static let variableNames = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"]

    package init(explicitProxy: String? = nil, explicitNoProxy: String? = nil, environment: [String: String] = [:]) {
        self.explicitProxy = explicitProxy
        self.explicitNoProxy = explicitNoProxy
        variables = environment.filter { Self.variableNames.contains($0.key) }
    }

    /// The proxy for one request. A loopback host never takes a proxy from
    /// the environment: a variable meant for the outside world must not
    /// carry what stays on this machine (Loopback.swift) to another host.
    package func choice(for url: String) -> ProxyChoice {
        guard let reference = URIReference(url), let scheme = reference.scheme?.lowercased(),
              let host = reference.host, !host.isEmpty else { return .direct }
        if NoProxyList(explicitNoProxy ?? variables["no_proxy"] ?? variables["NO_PROXY"] ?? "").matches(host) { return .direct }
        if let explicitProxy { return ProxyChoice(explicitProxy, source: .option) }
        if Loopback.isLoopback(host) { return .direct }
        var names = ["\(scheme)_proxy"]
        if scheme != "http" { names.append("\(scheme)_proxy".uppercased()) }
        names += ["all_proxy", "ALL_PROXY"]
        guard let name = names.first(where: { variables[$0] != nil }), let value = variables[name] else { return .direct }
        return ProxyChoice(value, source: .variable(name))
    }

    /// Every proxy URL this run might use, for the redactor: their
    /// credentials are secrets (ProxyChoice.credentials).
    package var proxyURLs: [String] {
        ([explicitProxy] + ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].map { variables[$0] }).compactMap { $0 }
    }
}
