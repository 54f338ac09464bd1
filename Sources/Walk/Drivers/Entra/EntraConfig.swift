import Core
import HTTP

/// The state of one of Entra ID's converged sign-in pages: the page holds
/// no form, only `$Config={…};`, a JSON object its script reads
/// (Fixtures/server/replicas/entra.md; the keys are those headless clients
/// read, saml2aws pkg/provider/aad/aad.go). `pgid` names the page:
/// `ConvergedSignIn`, `ConvergedTFA`, `KmsiInterrupt`,
/// `ConvergedProofUpRedirect`, `ConvergedError`. Flow tokens and canaries
/// work as credentials: the driver remembers them as secrets.
struct EntraConfig {
    let json: JSONValue

    /// Whether the page holds a converged page's configuration: `$Config=`
    /// with a page id or a flow token in it.
    static func recognises(_ html: String) -> Bool {
        ScriptValues.contains("$Config=", in: html)
            && (ScriptValues.contains("\"pgid\"", in: html) || ScriptValues.contains("\"sFT\"", in: html))
    }

    init?(_ html: String) {
        guard let json = ScriptValues.object(after: "$Config=", in: html) else { return nil }
        self.json = json
    }

    func string(_ key: String) -> String? { json[key]?.nonEmptyString }

    /// A member the page writes as a number or a string (`hpgact`, `hpgid`).
    func number(_ key: String) -> String? {
        switch json[key] {
        case .number(let value)? where value.isFinite && value == value.rounded() && abs(value) < 1e15: return String(Int64(value))
        case .string(let text)?: return text.isEmpty ? nil : text
        default: return nil
        }
    }

    var pageID: String { string("pgid") ?? "a page without pgid" }
    var flowToken: String? { string("sFT") }
    /// The form field the flow token goes in (`flowToken`; `PPFT` on older pages).
    var flowTokenName: String { string("sFTName") ?? "flowToken" }
    var context: String? { string("sCtx") }
    var canary: String? { string("canary") }
    var apiCanary: String? { string("apiCanary") }
    var sessionID: String? { string("sessionId") }
    var correlationID: String? { string("correlationId") }
    var postedUsername: String? { string("sPOST_Username") }
    /// The page's error code; `50058` ("not signed in yet") is no error.
    var errorCode: String? {
        guard let code = number("sErrorCode") ?? string("sErrorCode"), code != "50058" else { return nil }
        return code
    }
    var errorText: String? { string("sErrTxt") ?? string("strServiceExceptionMessage") }

    /// Flow tokens, context and canaries: values that work as credentials
    /// while the flow lives.
    var secrets: [String] { [flowToken, context, canary, apiCanary].compactMap { $0 } }

    /// `hpgact`/`hpgid`/`hpgrequestid`/`client-request-id` headers the
    /// page's script adds to its API calls.
    var apiHeaders: [HTTPHeader] {
        var headers: [HTTPHeader] = []
        if let apiCanary { headers.append(HTTPHeader("canary", apiCanary)) }
        if let correlationID { headers.append(HTTPHeader("client-request-id", correlationID)) }
        if let hpgact = number("hpgact") { headers.append(HTTPHeader("hpgact", hpgact)) }
        if let hpgid = number("hpgid") { headers.append(HTTPHeader("hpgid", hpgid)) }
        if let sessionID { headers.append(HTTPHeader("hpgrequestid", sessionID)) }
        return headers
    }
}
