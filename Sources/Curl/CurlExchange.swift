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
    /// libcurl hands the header callback more than the response's header
    /// section: the fields of each 1xx interim response before it, and the
    /// trailer fields after a chunked body. Neither is the response's
    /// headers (RFC 9110 §15.2, §6.5: a trailer never adds a Set-Cookie or
    /// Location), so only the block after the last status line counts, up
    /// to the blank line that ends it.
    private var headerSectionDone = false
    private var interim = false

    init(maxBodyBytes: Int, sockets: UnsafeMutablePointer<ac_sockets>?) {
        self.maxBodyBytes = maxBodyBytes
        self.sockets = sockets
    }

    func receiveHeader(_ line: String) {
        let trimmed = line.trimmed
        if trimmed.hasPrefix("HTTP/") {
            // The status line is in: ACK it now, or a server that writes the
            // body separately without TCP_NODELAY waits for our delayed ACK
            // before sending it (CCurl/shim.c, ac_quickack).
            if let sockets { ac_quickack(sockets) }
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

    /// A piece of the body; false (curl then stops with CURLE_WRITE_ERROR)
    /// once the body would pass `maxBodyBytes`.
    func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if body.count + bytes.count > maxBodyBytes {
            overflowed = true
            return false
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
