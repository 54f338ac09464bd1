/// A response as received: status, every header line in order, the body bytes.
public struct HTTPResponse: Equatable, Sendable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// Wall time from sending the request to the last body byte, in seconds.
    public var elapsed: Double
    /// Whether the request went over a kept-alive connection (for the trace).
    public var reusedConnection: Bool

    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = [], elapsed: Double = 0, reusedConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.elapsed = elapsed
        self.reusedConnection = reusedConnection
    }

    public var isRedirect: Bool { (300...399).contains(status) }
    public var isSuccess: Bool { (200...299).contains(status) }

    /// The media type of Content-Type, lower-cased, without parameters.
    public var mediaType: String? {
        guard let value = headers.first(named: "Content-Type") else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        return type.trimmed.lowercased()
    }

    /// The body as text; invalid UTF-8 is repaired rather than refused, since
    /// pages are only searched for forms and error text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
