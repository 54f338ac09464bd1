import Core
import HTTP

/// The token endpoint's answer (RFC 6749 §5.1, §5.2), kept as received:
/// `--print json` writes the body byte for byte.
package struct TokenResponse: Equatable, Sendable {
    package let body: [UInt8]
    package let json: JSONValue

    /// Classifies the HTTP response: an OAuth error or any non-2xx is a
    /// refusal; a 2xx that is not a JSON object with a string access_token
    /// is malformed. The body is never quoted (HTTP/Quoting/EndpointKind.swift): an answer that is
    /// almost JSON, or an error page echoing it, may hold a working token
    /// the redactor cannot know yet. Only the error and error_description
    /// of a well-formed error object are shown.
    package init(_ response: HTTPResponse, at location: String) throws(OAuthError) {
        let error = OAuthErrorObject(response.body)
        guard response.isSuccess else {
            if let error {
                throw .tokenRefused(status: response.status, error, at: location)
            }
            throw .tokenStatus(response.status, BodyQuote.of(response, from: .token), at: location)
        }
        guard let parsed = JSONValue.parse(response.body), case .object = parsed else {
            throw .tokenNotJSON(status: response.status, BodyQuote.of(response, from: .token), at: location)
        }
        if let error {
            throw .tokenRefused(status: nil, error, at: location)
        }
        guard let token = parsed["access_token"]?.stringValue, !token.isEmpty else {
            throw .noAccessToken(at: location)
        }
        body = response.body
        json = parsed
    }

    /// A body read back from the cache: nil unless it is still a JSON
    /// object with a non-empty string access_token.
    package init?(stored body: [UInt8]) {
        guard let parsed = JSONValue.parse(body), case .object = parsed,
              let token = parsed["access_token"]?.stringValue, !token.isEmpty else { return nil }
        self.body = body
        json = parsed
    }

    package var accessToken: String? { json["access_token"]?.stringValue }
    package var idToken: String? { json["id_token"]?.stringValue }
    package var refreshToken: String? { json["refresh_token"]?.stringValue }

    /// The body on one line. JSON strings cannot hold a raw line break, so
    /// every CR or LF, and the indentation after it, is white space between
    /// tokens: dropping it keeps the document and its meaning intact.
    package var oneLine: String {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var afterBreak = false
        for byte in body {
            if byte == 0x0A || byte == 0x0D {
                afterBreak = true
            } else if afterBreak && (byte == 0x20 || byte == 0x09) {
                continue
            } else {
                afterBreak = false
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self).trimmed
    }
}
