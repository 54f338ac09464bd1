import OAuth

/// What `--call` got back (Flow/ResourceCall.swift): the status and the
/// body byte for byte, for stdout; the request's method and URL without its
/// query, and the resource server's RFC 6750 §3 error, for the error line
/// of an answer of 400 or more (exit 10, CLI/Errors/ErrorReport.swift).
package struct CallAnswer: Equatable, Sendable {
    package var status: Int
    package var body: [UInt8]
    package var method: String
    /// The URL without query and fragment: where the error line points.
    package var place: String
    package var bearerError: BearerError?

    package init(status: Int, body: [UInt8], method: String, place: String, bearerError: BearerError?) {
        self.status = status
        self.body = body
        self.method = method
        self.place = place
        self.bearerError = bearerError
    }

    /// RFC 9110 §15.5, §15.6: the resource server said no.
    package var isError: Bool { status >= 400 }
}
