import Core

/// `--authorization-details` (RFC 9396 §2): a JSON array of objects, each
/// with a string `type`. Checked before any request, so a typo costs no
/// login; sent as given, and parsed into the request object (§3).
package enum AuthorizationDetails {
    /// Why `text` is not authorization details, or nil when it is.
    package static func problem(in text: String) -> String? {
        guard let value = JSONValue.parse(Array(text.utf8)) else { return "it is not JSON" }
        guard case .array(let items) = value else { return "it is not a JSON array" }
        guard !items.isEmpty else { return "the array is empty" }
        for (index, item) in items.enumerated() {
            guard case .object = item else { return "element \(index + 1) is not a JSON object" }
            guard case .string(let type)? = item["type"], !type.isEmpty else {
                return "element \(index + 1) has no string \"type\""
            }
        }
        return nil
    }
}
