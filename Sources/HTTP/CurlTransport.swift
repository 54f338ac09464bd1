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
/// the DNS cache, TLS sessions and the share. Redirects are never followed here.
package final class CurlTransport: Transport {
    private let handle: UnsafeMutableRawPointer
    private let settings: TransportSettings
    /// The handle's open sockets, for the ACK of each response (CCurl.h).
    private let sockets: UnsafeMutablePointer<ac_sockets>
    /// The batch's TLS session and DNS caches, if any; held so that the
    /// share outlives this handle (released after `deinit` cleans it up).
    private let share: CurlShare?

    /// `share`: a batch's caches (`CurlShare`); nil for one flow on its own.
    package init(settings: TransportSettings, share: CurlShare? = nil) throws(Failure) {
        Self.setUpGlobally()
        guard let handle = curl_easy_init() else {
            throw Failure(.network, "libcurl could not be initialised")
        }
        if let share {
            // Kept by curl_easy_reset (its documentation: "the shares"), so set once.
            let code = ac_setopt_pointer(handle, CURLOPT_SHARE, share.handle)
            guard code == CURLE_OK else {
                curl_easy_cleanup(handle)
                throw Failure(.network, "libcurl could not use the shared caches: \(String(cString: curl_easy_strerror(code)))")
            }
        }
        self.handle = handle
        self.settings = settings
        self.share = share
        sockets = .allocate(capacity: 1)
        sockets.initialize(to: ac_sockets())
    }

    /// curl_global_init is not thread-safe and must run once, before any
    /// handle: a static let runs its initialiser exactly once, under a lock,
    /// however many flows start at the same time.
    private static let globalSetUp: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    static func setUpGlobally() {
        _ = globalSetUp
    }

    deinit {
        // Closes the connections through `sockets` first, and detaches the
        // share; `share` is released only after this body.
        curl_easy_cleanup(handle)
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

        let context = Unmanaged.passUnretained(exchange).toOpaque()
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            ac_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            ac_setopt_string(handle, CURLOPT_URL, cStrings.keep(request.url))
            ac_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            ac_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            ac_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            ac_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.timeout))
            ac_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout))
            ac_setopt_string(handle, CURLOPT_USERAGENT, cStrings.keep(settings.userAgent))
            ac_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
            ac_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
            if connectToList != nil { ac_setopt_slist(handle, CURLOPT_CONNECT_TO, connectToList) }
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
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(.network, Self.describe(code, detail: detail), at: Self.location(request.url), hint: hint(for: code, url: request.url))
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
    private func hint(for code: CURLcode, url: String) -> String? {
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
    /// libcurl hands the header callback more than the response's header
    /// section: the fields of each 1xx interim response before it, and the
    /// trailer fields after a chunked body. Neither is the response's
    /// headers (RFC 9110 §15.2, §6.5: a trailer never adds a Set-Cookie or
    /// Location), so only the block after the last status line counts, up
    /// to the blank line that ends it.
    private var headerSectionDone = false
    private var interim = false

    init(maxBodyBytes: Int, sockets: UnsafeMutablePointer<ac_sockets>) {
        self.maxBodyBytes = maxBodyBytes
        self.sockets = sockets
    }

    func receiveHeader(_ line: String) {
        let trimmed = line.trimmed
        if trimmed.hasPrefix("HTTP/") {
            // The status line is in: ACK it now, or a server that writes the
            // body separately without TCP_NODELAY waits for our delayed ACK
            // before sending it (CCurl/shim.c, ac_quickack).
            ac_quickack(sockets)
            // A new status line (after 1xx): the headers so far were not the answer.
            headers.removeAll()
            headerSectionDone = false
            let code = trimmed.split(separator: " ", maxSplits: 2).dropFirst().first
            interim = code?.first == "1"
            return
        }
        if trimmed.isEmpty {
            // The end of a section; after an interim one, the real status line follows.
            if !interim { headerSectionDone = true }
            return
        }
        guard !headerSectionDone, !interim, let colon = trimmed.firstIndex(of: ":") else { return }
        headers.append(HTTPHeader(String(trimmed[..<colon]), trimmed[trimmed.index(after: colon)...].trimmed))
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
