import Core
import HTTP

/// The words of an HTTP error (HTTP/HTTPError.swift); the exit code and hint
/// are ErrorReport.swift's.
extension HTTPError {
    var text: ErrorText {
        switch self {
        case .notAURL(let url):
            ErrorText("not a URL authcode can fetch", at: ServerText.printable(url))
        case .unsupportedScheme(let scheme, let url):
            ErrorText("cannot follow a '\(scheme):' URL", at: url)
        case .noHost(let scheme, let url):
            ErrorText("a \(scheme) URL without a host cannot be fetched", at: ServerText.printable(url))
        case .plainHTTP(let route, let host, let url):
            ErrorText(Self.plainHTTP(route, host: host), at: url)
        case .untrustedOrigin(let credential, let origin, let url):
            ErrorText("refusing to send \(Self.describe(credential)) to \(origin), which is not a trusted origin", at: url)
        case .redirectURI(let url):
            ErrorText("refusing to fetch \(url): it is the redirect_uri", at: url)
        case .transportSetUp(let reason):
            ErrorText("libcurl could not be initialised" + (reason.map { ": \($0)" } ?? ""))
        case .sessionShare(let reason):
            ErrorText("libcurl could not share TLS sessions between the batch's flows: \(reason)")
        case .optionRefused(let option, let version, let reason):
            ErrorText("libcurl \(version) refused \(option): \(reason)")
        case .outOfMemory:
            ErrorText("libcurl could not build the request (out of memory)")
        case .bodyTooLarge(let limit, let url):
            ErrorText("response body larger than \(limit) MiB", at: url)
        case .malformedHeaders(let url):
            ErrorText("the response's header section is malformed: a folded line with no field before it, or a line that is no field (RFC 9112 §5)",
                      at: url)
        case .trustStoreUnusable(let name, let reason, let url):
            ErrorText("TLS failed: the trust store (\(name.text(CLIWording.names))) cannot be used: \(reason)", at: url)
        case .network(let kind, let detail, let url, _):
            // Curl's own words, prefixed where they leave the user guessing.
            switch kind {
            case .timedOut: ErrorText("timed out: \(detail)", at: url)
            case .tls: ErrorText("TLS failed: \(detail)", at: url)
            case .other: ErrorText(detail, at: url)
            }
        }
    }

    static func plainHTTP(_ route: PlainHTTPRoute, host: String) -> String {
        switch route {
        case .remoteHost(let proxy):
            let via = proxy.host.map { " through the proxy '\($0)' (\(source(proxy)))" } ?? ""
            return "refusing plain http to '\(host)'\(via): secrets would travel unencrypted"
        case .connectTo(let target):
            return "refusing plain http to '\(host)': \(OptionTable.flag(\.flow.connection.transport.connectTo)) sends it to '\(target)', which is not this machine"
        case .unreadableProxy(let proxy):
            return "refusing plain http to '\(host)': the proxy in \(source(proxy)) cannot be read, so where it sends the request is unknown"
        case .remoteProxy(let proxyHost, let proxy):
            return "refusing plain http to '\(host)' through the proxy '\(proxyHost)' (\(source(proxy))), which is not this machine"
        }
    }

    /// Where a proxy was configured: the option, or the variable's name.
    static func source(_ proxy: ProxyChoice) -> String {
        CLIWording.names.name(of: proxy.source)
    }

    /// What would have been sent.
    static func describe(_ credential: CarriedCredential) -> String {
        switch credential {
        case .filledForm: "the filled-in form (\(OptionTable.flag(\.flow.walk.form)) values)"
        case .replayedBody(let status): "the request body again (a \(status) redirect replays it)"
        }
    }
}
