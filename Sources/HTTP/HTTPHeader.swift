import Core

/// One header line as sent or received. Headers are kept as an ordered list,
/// not a dictionary: repeated headers (Set-Cookie) must stay separate.
package struct HTTPHeader: Equatable, Sendable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HTTPHeader {
    /// The first header of that name, compared case-insensitively (RFC 9110 §5.1).
    package func first(named name: String) -> String? {
        first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every header of that name, in the order received.
    package func all(named name: String) -> [String] {
        let wanted = name.lowercased()
        return filter { $0.name.lowercased() == wanted }.map(\.value)
    }
}
