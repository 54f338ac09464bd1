import Core
import Flow

/// `--print exec-credential`: a Kubernetes client-go credential plugin's
/// answer (ExecCredential, client.authentication.k8s.io), so kubectl can run
/// authcode from a kubeconfig `users[].user.exec` entry. The token is the
/// id_token when there is one — what the API server's OIDC authenticator
/// checks — else the access token; `expirationTimestamp` is that token's
/// expiry, omitted when unknown (kubectl then calls again each time).
enum ExecCredential {
    static let group = "client.authentication.k8s.io/"
    static let defaultVersion = group + "v1"

    /// The apiVersion kubectl asks for in `KUBERNETES_EXEC_INFO`, else v1.
    static func apiVersion(execInfo: String?) -> String {
        guard let execInfo, let info = JSONValue.parse(Array(execInfo.utf8)),
              let version = info["apiVersion"]?.stringValue, version.hasPrefix(group),
              !TerminalText.containsControl(version) else { return defaultVersion }
        return version
    }

    static func json(_ token: MintedToken, apiVersion: String) throws(PrintError) -> String {
        let carried: String
        let expiry: Double?
        if let idToken = token.response.idToken {
            carried = idToken
            expiry = token.idTokenExpiry
        } else {
            carried = token.response.accessToken ?? ""
            expiry = token.accessTokenExpiry
        }
        var status = "\"token\":" + JSONText.quote(try ResultPrinter.raw(carried, named: "token"))
        if let expiry, let text = RFC3339.format(unixTime: expiry) {
            status += ",\"expirationTimestamp\":" + JSONText.quote(text)
        }
        return "{\"apiVersion\":\(JSONText.quote(apiVersion)),\"kind\":\"ExecCredential\",\"status\":{\(status)}}"
    }
}
