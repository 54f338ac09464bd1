import Core

/// One `--connect-to HOST:PORT:HOST2:PORT2` entry, read the way libcurl reads
/// CURLOPT_CONNECT_TO: a request to HOST:PORT (either may be empty: any)
/// connects to HOST2:PORT2 instead (empty: unchanged). A host may be a
/// bracketed IPv6 literal.
package struct ConnectTo: Equatable, Sendable {
    var host: String
    var port: Int?
    var targetHost: String
    var targetPort: Int?

    /// Split on bytes, as libcurl does: a combining mark after `:` must not
    /// hide it (URIReference.swift says why). Nil for text libcurl refuses.
    package init?(_ text: String) {
        var parts: [ArraySlice<UInt8>] = []
        var rest = Array(text.utf8)[...]
        for _ in 0..<3 {
            if rest.first == ASCII.openBracket, let close = rest.firstIndex(of: ASCII.closeBracket) {
                guard close + 1 < rest.endIndex, rest[close + 1] == ASCII.colon else { return nil }
                parts.append(rest[..<(close + 1)])
                rest = rest[(close + 2)...]
            } else if let colon = rest.firstIndex(of: ASCII.colon) {
                parts.append(rest[..<colon])
                rest = rest[(colon + 1)...]
            } else {
                return nil
            }
        }
        parts.append(rest)
        func port(_ bytes: ArraySlice<UInt8>) -> Int?? {
            if bytes.isEmpty { return .some(nil) }
            guard bytes.count <= 5, bytes.allSatisfy(ASCII.isDigit), let value = Int(ASCII.string(bytes)), value <= 65535 else { return nil }
            return .some(value)
        }
        func host(_ bytes: ArraySlice<UInt8>) -> String {
            let bare = bytes.first == ASCII.openBracket && bytes.last == ASCII.closeBracket ? bytes.dropFirst().dropLast() : bytes
            return ASCII.string(bare).lowercased()
        }
        guard let sourcePort = port(parts[1]), let destinationPort = port(parts[3]) else { return nil }
        self.host = host(parts[0])
        self.port = sourcePort
        self.targetHost = host(parts[2])
        self.targetPort = destinationPort
    }

    /// Whether a request to `host:port` is redirected by this entry.
    func applies(host requestHost: String, port requestPort: Int?) -> Bool {
        (host.isEmpty || host == requestHost.lowercased()) && (port == nil || port == requestPort)
    }

    /// The host the connection really goes to.
    func destination(for requestHost: String) -> String {
        targetHost.isEmpty ? requestHost : targetHost
    }
}
