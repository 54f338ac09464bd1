import Core

/// An error response as RFC 6749 §5.2 defines it (PAR, RFC 9126 §2.3, and
/// bearer-token errors, RFC 6750 §3, use the same members): the only part
/// of a token-bearing endpoint's body an error line may quote.
package struct OAuthErrorObject: Equatable, Sendable {
    package let error: String
    package let description: String?

    /// Nil unless the whole body is one JSON object (nothing before or
    /// after it, valid UTF-8: the strict parser) with a non-empty string
    /// `error`. Any other member whose name reads as a secret (an
    /// `access_token` beside the error) is masked where the server repeats
    /// it in `error` or `error_description`; a description that names a
    /// token member (a server quoting the answer it failed to send) is not
    /// shown at all.
    package init?(_ body: [UInt8]) {
        guard let json = JSONValue.parse(body), case .object(let members) = json,
              let error = members["error"]?.stringValue, !error.isEmpty else { return nil }
        let scrubber = SecretScrubber()
        for (name, value) in members where Redactor.isSecretName(name) { Self.remember(value, in: scrubber) }
        self.error = scrubber.scrub(error)
        let text = members["error_description"]?.stringValue ?? ""
        let quotesAToken = Self.tokenMembers.contains { text.lowercased().contains($0) }
        descriptionWithheld = quotesAToken
        description = text.isEmpty || quotesAToken ? nil : scrubber.scrub(text)
    }

    /// Whether the description was left out because it quotes a token.
    package let descriptionWithheld: Bool
    static let tokenMembers = ["access_token", "refresh_token", "id_token"]

    /// An error object as a server might send it (tests, and the answers a
    /// flow classifies itself).
    package init(error: String, description: String? = nil, descriptionWithheld: Bool = false) {
        self.error = error
        self.description = description
        self.descriptionWithheld = descriptionWithheld
    }

    /// The `error` code, to act on (RFC 6749 §5.2).
    package var code: OAuthErrorCode { OAuthErrorCode(rawValue: error) }

    private static func remember(_ value: JSONValue, in scrubber: SecretScrubber) {
        switch value {
        case .string(let text): scrubber.remember(text)
        case .array(let items): for item in items { remember(item, in: scrubber) }
        case .object(let members): for member in members.values { remember(member, in: scrubber) }
        case .number, .bool, .null: break
        }
    }
}
