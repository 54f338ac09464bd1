import Core

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

    package init(settings: TransportSettings) throws(Failure) {
        _ = Self.globalSetUp
        guard let handle = curl_easy_init() else {
            throw Failure(.network, "libcurl could not be initialised")
        }
        self.handle = handle
        self.settings = settings
        sockets = .allocate(capacity: 1)
        sockets.initialize(to: ac_sockets())
    }

    /// curl_global_init is not thread-safe and must run once, before any
    /// handle: a static let runs its initialiser exactly once, under a lock,
    /// however many flows start at the same time.
    private static let globalSetUp: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    deinit {
        curl_easy_cleanup(handle)  // closes the connections through `sockets` first
        sockets.deallocate()
    }

    package func send(_ request: HTTPRequest) throws(Failure) -> HTTPResponse {
        curl_easy_reset(handle)
        let exchange = CurlExchange(maxBodyBytes: settings.maxBodyBytes, sockets: sockets)
        var cStrings = CStringStore()
        defer { cStrings.free() }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        var headerList: UnsafeMutablePointer<curl_slist>?
        var connectToList: UnsafeMutablePointer<curl_slist>?
        defer {
            curl_slist_free_all(headerList)
            curl_slist_free_all(connectToList)
        }
        // Curl adds `Expect: 100-continue` to larger POSTs; servers of every
        // kind mishandle it, and it costs a round trip.
        for header in request.headers + [HTTPHeader("Expect", "")] {
            headerList = curl_slist_append(headerList, header.value.isEmpty ? "\(header.name):" : "\(header.name): \(header.value)")
        }
        for entry in settings.connectTo {
            connectToList = curl_slist_append(connectToList, entry)
        }

        let proxy = settings.proxy.choice(for: request.url)
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            ac_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            ac_setopt_string(handle, CURLOPT_URL, cStrings.keep(request.url))
            ac_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            ac_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            ac_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            ac_setopt_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
            ac_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.timeout))
            ac_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout))
            ac_setopt_string(handle, CURLOPT_USERAGENT, cStrings.keep(settings.userAgent))
            ac_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
            ac_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
            if connectToList != nil { ac_setopt_slist(handle, CURLOPT_CONNECT_TO, connectToList) }
            // Always set, "" for none: libcurl would otherwise read the
            // environment itself and pick a proxy the plain-http rule never saw.
            ac_setopt_string(handle, CURLOPT_PROXY, cStrings.keep(proxy.curlValue))
            ac_setopt_string(handle, CURLOPT_NOPROXY, "")
            if let cacert = settings.cacert { ac_setopt_string(handle, CURLOPT_CAINFO, cStrings.keep(cacert)) }
            if settings.insecure {
                ac_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
                ac_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
            }
            if let cert = settings.cert { ac_setopt_string(handle, CURLOPT_SSLCERT, cStrings.keep(cert)) }
            if let key = settings.key { ac_setopt_string(handle, CURLOPT_SSLKEY, cStrings.keep(key)) }
            applyMethod(request, &cStrings)
            ac_setopt_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody)
            ac_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
            ac_setopt_callback(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader)
            ac_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
            ac_track_sockets(handle, sockets)
            return curl_easy_perform(handle)
        }

        if exchange.overflowed {
            throw Failure(.malformedResponse, "response body larger than \(settings.maxBodyBytes >> 20) MiB", at: Self.location(request.url))
        }
        // libcurl's headers API (7.83 and later) stops the transfer at such
        // a line itself, with a bare "bad argument", before our callback
        // sees it; older ones hand it over. Either way: malformed, exit 8.
        if exchange.misplacedFold || (code == CURLE_BAD_FUNCTION_ARGUMENT && exchange.inHeaderSection) {
            throw Failure(.malformedResponse, CurlExchange.malformedSection, at: Self.location(request.url))
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(.network, Self.describe(code, detail: detail), at: Self.location(request.url),
                          hint: hint(for: code, url: request.url, proxy: proxy))
        }
        var status = 0
        ac_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var seconds = 0.0
        ac_getinfo_double(handle, CURLINFO_TOTAL_TIME, &seconds)
        var newConnections = 0
        ac_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &newConnections)
        return HTTPResponse(status: status, headers: exchange.headers, body: exchange.body, elapsed: seconds,
                            reusedConnection: newConnections == 0)
    }

    private func applyMethod(_ request: HTTPRequest, _ cStrings: inout CStringStore) {
        switch request.method {
        case "GET":
            ac_setopt_long(handle, CURLOPT_HTTPGET, 1)
        case "HEAD":
            ac_setopt_long(handle, CURLOPT_NOBODY, 1)
        default:
            if request.method != "POST" {
                ac_setopt_string(handle, CURLOPT_CUSTOMREQUEST, cStrings.keep(request.method.rawValue))
            }
            let body = request.body ?? []
            ac_setopt_long(handle, CURLOPT_POST, 1)
            ac_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            // COPYPOSTFIELDS: curl keeps its own copy, so our buffer's lifetime
            // does not matter.
            body.withUnsafeBytes { bytes in
                _ = ac_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)))
            }
        }
    }

    /// A server that demands a client certificate just drops the TLS
    /// connection, which curl reports as a send/receive error.
    private func hint(for code: CURLcode, url: String, proxy: ProxyChoice) -> String? {
        if !proxy.isDirect, [CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_PROXY, CURLE_UNSUPPORTED_PROTOCOL].contains(code) {
            return proxy.source == "--proxy" ? "The request went through the proxy \(proxy.shown) (--proxy); check it."
                : "The request went through the proxy \(proxy.shown) from \(proxy.source); check it, or list the host in no_proxy."
        }
        let dropped = [CURLE_SSL_CONNECT_ERROR, CURLE_SEND_ERROR, CURLE_RECV_ERROR].contains(code)
        guard dropped, settings.cert == nil, url.lowercased().hasPrefix("https:") else { return nil }
        return "The server closed the TLS connection; if it requires a client certificate, pass --cert and --key."
    }

    /// Curl's own words, prefixed where they leave the user guessing.
    static func describe(_ code: CURLcode, detail: String) -> String {
        let base = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return "timed out: \(base)"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
            return "TLS failed: \(base)"
        default: return base
        }
    }

    /// Where, for error lines: the URL without query (which may hold a code).
    static func location(_ url: String) -> String {
        URIReference(url)?.withoutQuery ?? "request"
    }

    static func milliseconds(_ seconds: Double) -> Int {
        max(1, Int((seconds * 1000).rounded(.up)))
    }
}

/// Collects one response; libcurl calls into it from `curl_easy_perform`.
final class CurlExchange {
    var headers: [HTTPHeader] = []
    var body: [UInt8] = []
    var overflowed = false
    let maxBodyBytes: Int
    let sockets: UnsafeMutablePointer<ac_sockets>
    /// A folded line with no field before it in its block (RFC 9112 §5.2).
    var misplacedFold = false
    static let malformedSection = "the response's header section is malformed: a folded line with no field before it, or a line that is no field (RFC 9112 §5)"
    /// libcurl hands the header callback more than the response's header
    /// section: the fields of each 1xx interim response before it, and the
    /// trailer fields after a chunked body. Neither is the response's
    /// headers (RFC 9110 §15.2, §6.5: a trailer never adds a Set-Cookie or
    /// Location), so only the block after the last status line counts, up
    /// to the blank line that ends it.
    private var headerSectionDone = false
    private var interim = false
    /// A status line starts a response only where one may come: first, and
    /// after the blank line that ends a 1xx (CONNECT answers are kept from
    /// the callback, CURLOPT_SUPPRESS_CONNECT_HEADERS). Anywhere else a line
    /// reading `HTTP/…` is no status line: in a trailer it would otherwise
    /// start a second header section after the body.
    private var expectingStatus = true
    /// Whether a field line came before in the current block, for obs-fold.
    private var fieldOpen = false
    /// The header a fold continues: the last line's, if that line was kept.
    private var continued: Int?

    /// Between a status line and the blank line that ends its fields.
    var inHeaderSection: Bool { !expectingStatus && !headerSectionDone }

    init(maxBodyBytes: Int, sockets: UnsafeMutablePointer<ac_sockets>) {
        self.maxBodyBytes = maxBodyBytes
        self.sockets = sockets
    }

    /// One line as libcurl hands it over, CRLF included.
    func receiveHeader(_ line: String) {
        let first = line.utf8.first
        // RFC 9112 §5.2: a line starting with SP or HTAB (obs-fold) continues
        // the field before it, its white space read as one SP; it never
        // starts a field of its own, or a server could show a Location or
        // Set-Cookie to authcode that other clients read as part of another
        // field. With no field before it, the message is malformed.
        if first == 0x20 || first == 0x09 {
            guard fieldOpen else {
                misplacedFold = true
                return
            }
            let continuation = line.trimmed
            if !continuation.isEmpty, let index = continued {
                headers[index].value = headers[index].value.isEmpty ? continuation : headers[index].value + " " + continuation
            }
            return
        }
        let trimmed = line.trimmed
        if expectingStatus, trimmed.hasPrefix("HTTP/") {
            // The status line is in: ACK it now, or a server that writes the
            // body separately without TCP_NODELAY waits for our delayed ACK
            // before sending it (CCurl/shim.c, ac_quickack).
            ac_quickack(sockets)
            // A new status line (after 1xx): the headers so far were not the answer.
            headers.removeAll()
            headerSectionDone = false
            expectingStatus = false
            fieldOpen = false
            continued = nil
            let code = trimmed.split(separator: " ", maxSplits: 2).dropFirst().first
            interim = code?.first == "1"
            return
        }
        if trimmed.isEmpty {
            // The end of a section; after an interim one, the real status line follows.
            if interim { expectingStatus = true } else { headerSectionDone = true }
            fieldOpen = false
            return
        }
        fieldOpen = true
        continued = nil
        guard !headerSectionDone, !interim, let colon = trimmed.firstIndex(of: ":") else { return }
        headers.append(HTTPHeader(String(trimmed[..<colon]), trimmed[trimmed.index(after: colon)...].trimmed))
        continued = headers.count - 1
    }
}

private func releaseCString(_ pointer: UnsafeMutablePointer<CChar>) {
    free(pointer)
}

/// C strings that must outlive `curl_easy_perform` (most string options are
/// copied by curl, but keeping them alive is cheap and safe).
struct CStringStore {
    private var pointers: [UnsafeMutablePointer<CChar>] = []

    mutating func keep(_ text: String) -> UnsafePointer<CChar>? {
        guard let copy = strdup(text) else { return nil }
        pointers.append(copy)
        return UnsafePointer(copy)
    }

    mutating func free() {
        for pointer in pointers { releaseCString(pointer) }
        pointers.removeAll()
    }
}

private let curlWriteBody: ac_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    if exchange.body.count + length > exchange.maxBodyBytes {
        exchange.overflowed = true
        return 0 // makes curl stop with CURLE_WRITE_ERROR
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        exchange.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
    }
    return length
}

private let curlWriteHeader: ac_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
    exchange.receiveHeader(line)
    return length
}
