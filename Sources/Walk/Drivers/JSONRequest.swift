import Core
import HTTP

extension HTTPRequest {
    /// A POST whose body is `body` as JSON (RFC 8259): what the providers'
    /// sign-in scripts send to their APIs. `contentType` is the media type
    /// the provider's own client sends (Okta's introspect wants its
    /// versioned `application/ion+json`).
    static func json(_ url: String, _ body: JSONValue, contentType: String = "application/json", headers: [HTTPHeader] = []) -> HTTPRequest {
        HTTPRequest(method: .post, url: url, headers: [HTTPHeader("Content-Type", contentType)] + headers,
                    body: Array(JSONText.serialize(body).utf8))
    }
}

extension JSONValue {
    /// The elements of an array, or nothing.
    var elements: [JSONValue] {
        if case .array(let elements) = self { return elements }
        return []
    }

    /// A boolean member's value; nil when absent or not a boolean.
    var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// A string that is there and not empty.
    var nonEmptyString: String? {
        guard let text = stringValue, !text.isEmpty else { return nil }
        return text
    }
}
