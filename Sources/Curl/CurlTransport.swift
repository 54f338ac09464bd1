import Core
import HTTP

import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP through libcurl (ARCHITECTURE.md, "Constraints"). One easy handle serves the whole run,
/// so the authorization and token requests can share a kept-alive connection;
/// `curl_easy_reset` between requests clears options but keeps connections,
/// the DNS cache and TLS sessions. Redirects are never followed here.
package final class CurlTransport: Transport {
    private let handle: UnsafeMutableRawPointer
    private let settings: TransportSettings
    /// The handle's open sockets, for the ACK of each response (CCurl.h).
    private let sockets: UnsafeMutablePointer<ac_sockets>
    /// What the TLS context hook reads (CCurl/trust.c): the sockets, and the
    /// store that verifies this request's server.
    private let tls: UnsafeMutablePointer<ac_tls>
    /// The run's certificates, found on this machine (TrustStore.swift).
    private let trust: TrustStore
    /// CURLOPT_ERRORBUFFER: libcurl may write into it whenever the handle
    /// works, so it lives exactly as long as the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// What the executable passes down to every flow (a batch makes one
    /// transport per record, on the record's thread).
    package static let factory: TransportFactory = { settings throws(HTTPError) in try CurlTransport(settings: settings) }

    package init(settings: TransportSettings) throws(HTTPError) {
        guard Self.globalSetUp == CURLE_OK else {
            throw .transportSetUp(reason: Self.text(of: Self.globalSetUp))
        }
        guard let handle = curl_easy_init() else {
            throw .transportSetUp(reason: nil)
        }
        if settings.sharesSessions {
            // The batch's TLS session and DNS caches (CCurl/shim.c,
            // ac_use_batch_share); curl_easy_reset keeps a share, so set once.
            let code = ac_use_batch_share(handle)
            guard code == CURLE_OK else {
                curl_easy_cleanup(handle)
                throw .sessionShare(reason: Self.text(of: code))
            }
        }
        self.handle = handle
        self.settings = settings
        sockets = .allocate(capacity: 1)
        sockets.initialize(to: ac_sockets())
        tls = .allocate(capacity: 1)
        tls.initialize(to: ac_tls(sockets: sockets, trust: nil))
        trust = TrustStore(settings.trust)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    /// curl_global_init is not thread-safe and must run once, before any
    /// handle: a static let runs its initialiser exactly once, under a lock,
    /// however many flows start at the same time.
    private static let globalSetUp: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    deinit {
        curl_easy_cleanup(handle)  // closes the connections through `sockets` first
        sockets.deallocate()
        tls.deallocate()
        errorBuffer.deallocate()
    }

    package func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let exchange = CurlExchange(maxBodyBytes: settings.maxBodyBytes, sockets: sockets)
        var headerList: UnsafeMutablePointer<curl_slist>?
        var connectToList: UnsafeMutablePointer<curl_slist>?
        defer {
            curl_slist_free_all(headerList)
            curl_slist_free_all(connectToList)
        }
        // Curl adds `Expect: 100-continue` to larger POSTs; servers of every
        // kind mishandle it, and it costs a round trip.
        for header in request.headers + [HTTPHeader("Expect", "")] {
            headerList = try Self.append(header.value.isEmpty ? "\(header.name):" : "\(header.name): \(header.value)", to: headerList)
        }
        for entry in settings.connectTo {
            connectToList = try Self.append(entry.text, to: connectToList)
        }
        let proxy = settings.proxy.choice(for: request.url)
        let code: CURLcode = try withExtendedLifetime(exchange) { () throws(HTTPError) -> CURLcode in
            try configure(for: request, exchange: Unmanaged.passUnretained(exchange).toOpaque(), headers: headerList, connectTo: connectToList,
                          proxy: proxy)
            return curl_easy_perform(handle)
        }

        if exchange.overflowed {
            throw .bodyTooLarge(limitMiB: settings.maxBodyBytes >> 20, url: Self.location(request.url))
        }
        // libcurl's headers API (7.83 and later) stops the transfer at such
        // a line itself, with a bare "bad argument", before our callback
        // sees it; older ones hand it over. Either way: malformed, exit 8.
        if exchange.misplacedFold || (code == CURLE_BAD_FUNCTION_ARGUMENT && exchange.inHeaderSection) {
            throw .malformedHeaders(url: Self.location(request.url))
        }
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            throw .network(Self.kind(of: code), detail: detail.isEmpty ? Self.text(of: code) : detail, url: Self.location(request.url),
                           suspect: suspect(for: code, detail: detail, url: request.url, proxy: proxy))
        }
        var status = 0
        var seconds = 0.0
        var newConnections = 0
        try Self.check("CURLINFO_RESPONSE_CODE", ac_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status))
        try Self.check("CURLINFO_TOTAL_TIME", ac_getinfo_double(handle, CURLINFO_TOTAL_TIME, &seconds))
        try Self.check("CURLINFO_NUM_CONNECTS", ac_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &newConnections))
        return HTTPResponse(status: status, headers: exchange.headers, body: exchange.body, elapsed: seconds,
                            reusedConnection: newConnections == 0)
    }

    /// Every option of one request, each result checked (curl_easy_setopt(3)):
    /// an option libcurl refuses (too old to know it, built without it, out
    /// of memory) would otherwise leave a request other than the one the
    /// policies checked. String options are copied by libcurl, so a Swift
    /// string's temporary C copy is enough.
    private func configure(for request: HTTPRequest, exchange context: UnsafeMutableRawPointer,
                           headers: UnsafeMutablePointer<curl_slist>?, connectTo: UnsafeMutablePointer<curl_slist>?,
                           proxy: ProxyChoice) throws(HTTPError) {
        try Self.check("CURLOPT_ERRORBUFFER", ac_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        try Self.check("CURLOPT_URL", ac_setopt_string(handle, CURLOPT_URL, request.url))
        try Self.check("CURLOPT_FOLLOWLOCATION", ac_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        try Self.check("CURLOPT_PROTOCOLS_STR", ac_allow_http_only(handle))
        try Self.check("CURLOPT_NOSIGNAL", ac_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        try Self.check("CURLOPT_SUPPRESS_CONNECT_HEADERS", ac_setopt_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1))
        try Self.check("CURLOPT_TIMEOUT_MS", ac_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.timeout)))
        try Self.check("CURLOPT_CONNECTTIMEOUT_MS", ac_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout)))
        try Self.check("CURLOPT_USERAGENT", ac_setopt_string(handle, CURLOPT_USERAGENT, settings.userAgent))
        try Self.check("CURLOPT_ACCEPT_ENCODING", ac_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""))
        try Self.check("CURLOPT_HTTPHEADER", ac_setopt_slist(handle, CURLOPT_HTTPHEADER, headers))
        if let connectTo { try Self.check("CURLOPT_CONNECT_TO", ac_setopt_slist(handle, CURLOPT_CONNECT_TO, connectTo)) }
        // Always set, "" for none: libcurl would otherwise read the
        // environment itself and pick a proxy the plain-http rule never saw.
        try Self.check("CURLOPT_PROXY", ac_setopt_string(handle, CURLOPT_PROXY, proxy.curlValue))
        try Self.check("CURLOPT_NOPROXY", ac_setopt_string(handle, CURLOPT_NOPROXY, ""))
        try configureTLS(for: request.url, proxy: proxy)
        if let cert = settings.cert { try Self.check("CURLOPT_SSLCERT", ac_setopt_string(handle, CURLOPT_SSLCERT, cert)) }
        if let key = settings.key { try Self.check("CURLOPT_SSLKEY", ac_setopt_string(handle, CURLOPT_SSLKEY, key)) }
        try applyMethod(request)
        try Self.check("CURLOPT_WRITEFUNCTION", ac_setopt_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody))
        try Self.check("CURLOPT_WRITEDATA", ac_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        try Self.check("CURLOPT_HEADERFUNCTION", ac_setopt_callback(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader))
        try Self.check("CURLOPT_HEADERDATA", ac_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        try Self.check("CURLOPT_SOCKOPTFUNCTION", ac_track_sockets(handle, sockets))
    }

    /// Trust and the TLS context hook (ARCHITECTURE.md "TLS trust"). The
    /// process's store verifies an https server; libcurl's CA options only
    /// where the hook cannot be used, and for a request through an https
    /// proxy, whose own TLS connection the hook would see too (the proxy
    /// keeps libcurl's defaults, as `--cacert` is not its trust).
    private func configureTLS(for url: String, proxy: ProxyChoice) throws(HTTPError) {
        if settings.insecure {
            try Self.check("CURLOPT_SSL_VERIFYPEER", ac_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0))
            try Self.check("CURLOPT_SSL_VERIFYHOST", ac_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0))
        }
        let https = URIReference(url)?.scheme?.lowercased() == "https"
        let useStore = TrustStore.hookUsable && https && !settings.insecure && !trust.isBuiltIn && !proxy.speaksTLS
        tls.pointee.trust = useStore ? try trust.shared(at: Self.location(url)) : nil
        if TrustStore.hookUsable {
            try Self.check("CURLOPT_SSL_CTX_FUNCTION", ac_use_tls_context(handle, tls))
        }
        guard !useStore, !settings.insecure, !trust.isBuiltIn else { return }
        // libcurl reads the same sources itself, for each connection.
        try Self.check("CURLOPT_CAINFO", ac_setopt_string(handle, CURLOPT_CAINFO, trust.file))
        try Self.check("CURLOPT_CAPATH", ac_setopt_string(handle, CURLOPT_CAPATH, trust.directory))
    }

    /// Which store verifies servers, for `-v` (HTTPClient.swift).
    package var trustNote: TrustNote? { trust.note(insecure: settings.insecure) }

    private func applyMethod(_ request: HTTPRequest) throws(HTTPError) {
        switch request.method {
        case "GET":
            try Self.check("CURLOPT_HTTPGET", ac_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case "HEAD":
            try Self.check("CURLOPT_NOBODY", ac_setopt_long(handle, CURLOPT_NOBODY, 1))
        default:
            if request.method != "POST" {
                try Self.check("CURLOPT_CUSTOMREQUEST", ac_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue))
            }
            let body = request.body ?? []
            try Self.check("CURLOPT_POST", ac_setopt_long(handle, CURLOPT_POST, 1))
            try Self.check("CURLOPT_POSTFIELDSIZE_LARGE", ac_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            // COPYPOSTFIELDS: curl keeps its own copy, so our buffer's lifetime
            // does not matter.
            let code = body.withUnsafeBytes { bytes in
                ac_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)))
            }
            try Self.check("CURLOPT_COPYPOSTFIELDS", code)
        }
    }

    /// A refused option or info ends the request before anything is sent
    /// (or after, for an info), with libcurl's reason and version.
    static func check(_ option: String, _ code: CURLcode) throws(HTTPError) {
        guard code != CURLE_OK else { return }
        // CURLVERSION_FIRST: `version` is in every edition of the struct.
        let version = curl_version_info(CURLVERSION_FIRST).map { String(cString: $0.pointee.version) } ?? "unknown"
        throw .optionRefused(option: option, version: version, reason: text(of: code))
    }

    /// A list entry; nil from libcurl means it could not allocate one.
    private static func append(_ line: String, to list: UnsafeMutablePointer<curl_slist>?) throws(HTTPError) -> UnsafeMutablePointer<curl_slist> {
        guard let appended = curl_slist_append(list, line) else {
            throw .outOfMemory
        }
        return appended
    }

    /// What the hint should point at. A server that demands a client
    /// certificate just drops the TLS connection, which curl reports as a
    /// send/receive error.
    private func suspect(for code: CURLcode, detail: String, url: String, proxy: ProxyChoice) -> NetworkSuspect? {
        if !proxy.isDirect, [CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_PROXY, CURLE_UNSUPPORTED_PROTOCOL].contains(code) {
            return .proxy(proxy)
        }
        // OpenSSL reads the first bytes of a plain-http answer ("HTTP/1.1")
        // as a TLS record of an unknown version: the port speaks http.
        if code == CURLE_SSL_CONNECT_ERROR, proxy.isDirect, Self.isPlainHTTPAnswer(detail),
           let uri = URIReference(url), let authority = uri.authority {
            return .plainHTTPPort("http://\(authority)\(uri.path)")
        }
        // OpenSSL's words when no CA of the store issued the chain's top
        // (X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, ..._SELF_SIGNED_...).
        if code == CURLE_PEER_FAILED_VERIFICATION, !settings.insecure, !proxy.speaksTLS,
           ["unable to get local issuer certificate", "self-signed certificate", "self signed certificate"].contains(where: { detail.contains($0) }) {
            return .untrustedCertificate(trust.name)
        }
        let dropped = [CURLE_SSL_CONNECT_ERROR, CURLE_SEND_ERROR, CURLE_RECV_ERROR].contains(code)
        guard dropped, settings.cert == nil, url.lowercased().hasPrefix("https:") else { return nil }
        return .clientCertificate
    }

    /// OpenSSL's words for a record that is not TLS: "wrong version
    /// number" (1.1 and 3.0/3.1), "packet length too long" and "record
    /// layer failure" (3.2 and later, for some first bytes).
    static func isPlainHTTPAnswer(_ detail: String) -> Bool {
        ["wrong version number", "packet length too long", "record layer failure"].contains { detail.contains($0) }
    }

    /// What kind of failure a code is: the CLI prefixes the ones whose
    /// words leave the user guessing.
    static func kind(of code: CURLcode) -> NetworkFailure {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE: .tls
        default: .other
        }
    }

    static func text(of code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }

    /// Where, for error lines: the URL without query (which may hold a code).
    static func location(_ url: String) -> String {
        URIReference(url)?.withoutQuery ?? "request"
    }

    static func milliseconds(_ seconds: Double) -> Int {
        max(1, Int((seconds * 1000).rounded(.up)))
    }
}
