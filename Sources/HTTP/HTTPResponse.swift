import Core

/// A response as received: status, every header line in order, the body bytes.
package struct HTTPResponse: Equatable, Sendable {
    package var status: Int
    package var headers: [HTTPHeader]
    package var body: [UInt8]
    /// Wall time from sending the request to the last body byte, in seconds.
    package var elapsed: Double
    /// Whether the request went over a kept-alive connection (for the trace).
    package var reusedConnection: Bool

    package init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = [], elapsed: Double = 0, reusedConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.elapsed = elapsed
        self.reusedConnection = reusedConnection
    }

    package var isRedirect: Bool { (300...399).contains(status) }
    package var isSuccess: Bool { (200...299).contains(status) }

    /// The media type of Content-Type, lower-cased, without parameters.
    package var mediaType: String? {
        guard let value = headers.first(named: "Content-Type") else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        return type.trimmed.lowercased()
    }

    /// The body as text; invalid UTF-8 is repaired rather than refused, since
    /// pages are only searched for forms and error text.
    package var text: String { String(decoding: body, as: UTF8.self) }
}
