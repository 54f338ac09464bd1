import Core

/// An HTTP request method (RFC 9110 §9). A struct rather than an enum: a
/// `--step` may use any token, while the walk speaks only of the few below.
/// Written as a string literal (`"GET"`) where a method is expected.
package struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    package let rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    package init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    package var description: String { rawValue }

    package static let get: HTTPMethod = "GET"
    package static let head: HTTPMethod = "HEAD"
    package static let post: HTTPMethod = "POST"

    /// The methods `--step` accepts.
    package static let stepMethods: [HTTPMethod] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
}
