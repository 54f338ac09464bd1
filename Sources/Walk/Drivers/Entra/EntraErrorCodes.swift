/// What the converged pages' error codes mean, in our words, for a page
/// that gives the code without its text (`sErrTxt` empty: the page's script
/// holds the strings). Codes and meanings from Microsoft's Entra ID error
/// code reference (Fixtures/server/replicas/entra.md, "Sources").
enum EntraErrorCodes {
    static func meaning(_ code: String) -> String? {
        switch code {
        case "50008": "the SAML assertion is missing or misconfigured"
        case "50034": "the user account does not exist in the directory"
        case "50053": "the account is locked after too many sign-ins with a wrong password"
        case "50055": "the password has expired"
        case "50057": "the user account is disabled"
        case "50074", "50076": "strong authentication is required"
        case "50089": "the flow token has expired"
        case "50126": "invalid username or password"
        case "53003": "access was blocked by Conditional Access policies"
        default: nil
        }
    }

    /// The provider's text when the page has one; else the code and its
    /// meaning (`AADSTS50126 (invalid username or password)`).
    static func text(code: String, pageText: String?) -> String {
        if let pageText, !pageText.isEmpty { return pageText }
        return "AADSTS\(code)" + (meaning(code).map { " (\($0))" } ?? "")
    }
}
