/// The scheme a token is presented with, from the token response's
/// `token_type` (RFC 6749 §7.1), compared without regard to case as RFC
/// 6750 §5.1 and RFC 9449 §5 register them: servers write `bearer`,
/// `Bearer`, `dpop`. An absent or empty type is Bearer.
package enum TokenScheme: Equatable, Sendable {
    case bearer
    case dpop
    case other(String)

    package init(tokenType: String?) {
        switch tokenType?.lowercased() {
        case nil, "", "bearer"?: self = .bearer
        case "dpop"?: self = .dpop
        default: self = .other(tokenType ?? "")
        }
    }

    /// The name in an `Authorization` header: the registered spelling of
    /// the two known schemes, others as the server wrote them.
    package var headerName: String {
        switch self {
        case .bearer: "Bearer"
        case .dpop: "DPoP"
        case .other(let name): name
        }
    }
}
