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

    package init?(_ text: String) {
        var parts: [Substring] = []
        var rest = Substring(text)
        for _ in 0..<3 {
            if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                let afterClose = rest.index(after: close)
                guard afterClose < rest.endIndex, rest[afterClose] == ":" else { return nil }
                parts.append(rest[..<afterClose])
                rest = rest[rest.index(after: afterClose)...]
            } else if let colon = rest.firstIndex(of: ":") {
                parts.append(rest[..<colon])
                rest = rest[rest.index(after: colon)...]
            } else {
                return nil
            }
        }
        parts.append(rest)
        guard parts.count == 4 else { return nil }
        func port(_ text: Substring) -> Int?? {
            if text.isEmpty { return .some(nil) }
            guard text.utf8.allSatisfy(ASCII.isDigit), let value = Int(text), value <= 65535 else { return nil }
            return .some(value)
        }
        func host(_ text: Substring) -> String {
            let bare = text.hasPrefix("[") && text.hasSuffix("]") ? text.dropFirst().dropLast() : text
            return String(bare).lowercased()
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
