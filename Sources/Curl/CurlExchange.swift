import Core
import HTTP

import CCurl

/// Collects one response; libcurl calls into it from `curl_easy_perform`.
final class CurlExchange {
    var headers: [HTTPHeader] = []
    var body: [UInt8] = []
    var overflowed = false
    let maxBodyBytes: Int
    /// The transport's sockets, ACKed at each status line; nil in tests.
    let sockets: UnsafeMutablePointer<ac_sockets>?
    /// A folded line with no field before it in its block (RFC 9112 §5.2).
    var misplacedFold = false
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

    init(maxBodyBytes: Int, sockets: UnsafeMutablePointer<ac_sockets>?) {
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
            if let sockets { ac_quickack(sockets) }
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

    /// A piece of the body; false (curl then stops with CURLE_WRITE_ERROR)
    /// once the body would pass `maxBodyBytes`.
    func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if body.count + bytes.count > maxBodyBytes {
            overflowed = true
            return false
        }
        // The size the server announced, within the limit, asked for once:
        // a 4 MB answer then never holds a half-grown copy besides itself.
        if body.capacity == 0, let announced = headers.first(named: "Content-Length").flatMap({ Int($0) }), announced > 0 {
            body.reserveCapacity(min(announced, maxBodyBytes))
        }
        body.append(contentsOf: bytes)
        return true
    }
}

let curlWriteBody: ac_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let taken = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        exchange.receiveBody(UnsafeBufferPointer(start: bytes, count: length))
    }
    return taken ? length : 0
}

let curlWriteHeader: ac_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
    exchange.receiveHeader(line)
    return length
}
