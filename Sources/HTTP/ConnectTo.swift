import Core

/// One `--connect-to HOST:PORT:HOST2:PORT2` entry, read the way libcurl reads
/// CURLOPT_CONNECT_TO: a request to HOST:PORT (either may be empty: any)
/// connects to HOST2:PORT2 instead (empty: unchanged). A host may be a
/// bracketed IPv6 literal. The one parser of an entry: the command line
/// refuses what it refuses, and the plain-http policy reads what it reads.
package struct ConnectTo: Equatable, Sendable {
    /// The entry as given, for libcurl.
    package let text: String
    let host: String
    let port: Int?
    let targetHost: String
    let targetPort: Int?

    /// Why an entry cannot be read; the caller names the flag.
    package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not four parts separated by `:`.
        case shape
        /// A port that is not empty and not a number from 1 to 65535.
        case port(String)

        package var description: String {
            switch self {
            case .shape: "expected HOST:PORT:HOST2:PORT2"
            case .port(let text): "port '\(text)' is not a number from 1 to 65535 (or empty: any)"
            }
        }
    }

    /// Split on bytes, as libcurl does: a combining mark after `:` must not
    /// hide it (URIReference.swift says why).
    package init(_ text: String) throws(Problem) {
        var parts: [ArraySlice<UInt8>] = []
        var rest = Array(text.utf8)[...]
        for _ in 0..<3 {
            if rest.first == ASCII.openBracket, let close = rest.firstIndex(of: ASCII.closeBracket) {
                guard close + 1 < rest.endIndex, rest[close + 1] == ASCII.colon else { throw .shape }
                parts.append(rest[..<(close + 1)])
                rest = rest[(close + 2)...]
            } else if let colon = rest.firstIndex(of: ASCII.colon) {
                parts.append(rest[..<colon])
                rest = rest[(colon + 1)...]
            } else {
                throw .shape
            }
        }
        parts.append(rest)
        self.text = text
        host = Self.host(parts[0])
        port = try Self.port(parts[1])
        targetHost = Self.host(parts[2])
        targetPort = try Self.port(parts[3])
    }

    /// Empty: any port (nil). A port is 1 to 65535 (RFC 9110 §4.2: a TCP
    /// port; 0 names none).
    private static func port(_ bytes: ArraySlice<UInt8>) throws(Problem) -> Int? {
        if bytes.isEmpty { return nil }
        guard bytes.count <= 5, bytes.allSatisfy(ASCII.isDigit), let value = Int(ASCII.string(bytes)), (1...65535).contains(value) else {
            throw .port(ASCII.string(bytes))
        }
        return value
    }

    private static func host(_ bytes: ArraySlice<UInt8>) -> String {
        let bare = bytes.first == ASCII.openBracket && bytes.last == ASCII.closeBracket ? bytes.dropFirst().dropLast() : bytes
        return ASCII.string(bare).lowercased()
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
