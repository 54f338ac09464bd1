import Core
import HTTP

/// "login rejected: <what the page says>": the login form (or a 400, 401,
/// 403 or 422 login page) came back after the credentials were sent. The text is
/// the one a person would read (LoginErrorText.swift); without one, the
/// status says what happened.
package enum LoginRejection {
    /// - Parameters:
    ///   - oneTimeCode: the form turned down asked for a one-time code.
    ///   - standing: the alert texts of the page the credentials were sent
    ///     from; a text among them is a standing banner, reported only when
    ///     nothing new is there.
    static func failure(_ response: HTTPResponse, at place: String, oneTimeCode: Bool = false, standing: Set<String> = []) -> WalkError {
        let text = LoginErrorText.find(in: response.text, standing: standing)
        return .loginRejected(says: text, status: text == nil && !response.isSuccess ? response.status : nil, oneTimeCode: oneTimeCode, at: place)
    }
}

extension PageHandler {
    /// Whether this answer turns down credentials: a 401, 403 or 422 HTML
    /// page answering them, or one of those or a 400 holding a login form
    /// after they went out (Auth0's Universal Login answers a wrong password
    /// with its form and 400; a bare 400 is a bad request, said as such).
    func isRejection(_ response: HTTPResponse, to request: HTTPRequest) -> Bool {
        guard credentialsSubmitted, Self.rejectionStatuses.contains(response.status), Self.isHTML(response) else { return false }
        if request == credentialRequest, response.status != 400 { return true }
        return HTMLFormParser.forms(in: response.text).contains { form in
            form.hasPassword || codes?.field(in: form) != nil
        }
    }

    static let rejectionStatuses: Set<Int> = [400, 401, 403, 422]
}
