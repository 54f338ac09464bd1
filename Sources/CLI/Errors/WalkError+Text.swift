import Core
import HTTP
import Walk

/// The words of a walk error (Walk/WalkError.swift); the exit code and hint
/// are ErrorReport.swift's.
extension WalkError {
    var text: ErrorText {
        switch self {
        case .http(let error):
            error.text
        case .driver(let error):
            error.text
        case .unmatchedFormNames(let names, let fields, let error):
            ErrorText(error.text.message + "; no field took " + names.map { "\(OptionTable.flag(\.flow.walk.form)) \(ServerText.printable($0, limit: 80))" }.joined(separator: ", ")
                      + (fields.isEmpty ? "" : " (the login's fields: \(fields.map { ServerText.printable($0, limit: 80) }.joined(separator: ", ")))"),
                      at: error.text.location)
        case .redirectLoop(let method, let place):
            ErrorText("redirect loop: the same \(method) came round again with the same cookies", at: place)
        case .redirectWithoutLocation(let status, let place):
            ErrorText("\(status) redirect without a Location header", at: place)
        case .locationNotURI(let status, let place):
            ErrorText("\(status) redirect to a Location that is not a URI", at: place)
        case .unexpectedStatus(let status, let quote, let place):
            ErrorText("unexpected \(status) answer\(quote.text)", at: place)
        case .hopLimit(let hops, let place):
            ErrorText("no authorization response after \(hops) hops", at: place)
        case .answerRedirected(let destination, let place):
            ErrorText("the authorization response was sent to \(destination), which is not the redirect_uri; not following it", at: place)
        case .answerMisdirected(let route, let destination, let place):
            ErrorText("\(Self.describe(route)) would send the authorization response to \(destination), which is not the redirect_uri; not fetched",
                      at: place)
        case .locationsDiffer(let status, let count, let place):
            ErrorText("the \(status) redirect has \(count) Location fields that differ; following neither", at: place)
        case .unresolvablePage(let place):
            ErrorText("cannot resolve forms on this page", at: place)
        case .formActionNotURL(let written, let place):
            ErrorText("the form's action \(ServerText.printable(written, limit: 120)) is not a URL; not submitting it", at: place)
        case .noFormToFill(let title, let forms, let quote, let place):
            ErrorText("the page" + (title.map { " titled '\(ServerText.printable($0))'" } ?? "") + " "
                      + (forms == 0 ? "has no form to fill in"
                         : "has \(forms) forms and none to fill in (no password field, no field named by \(OptionTable.flag(\.flow.walk.form)))")
                      + quote.text, at: place)
        case .needsJavaScript(let place):
            ErrorText("the login page needs JavaScript (no HTML form)", at: place)
        case .loginRejected(let says, let status, _, let place):
            ErrorText("login rejected" + (says.map { ": " + ServerText.printable($0) } ?? status.map { " with status \($0)" } ?? ""), at: place)
        case .form(.noForm, let place):
            ErrorText("no form to submit on the page", at: place)
        case .form(.noSubmitMatching(let name), let place):
            ErrorText("no submit control named '\(name)' on the form", at: place)
        case .form(.missingCredentials(let names), let place):
            ErrorText("the login page asks for \(names.joined(separator: ", ")), and no \(OptionTable.flag(\.flow.walk.form)) value fills them", at: place)
        case .oneTimeCodeWithoutSecret(let field, let place):
            ErrorText("the login asks for a one-time code ('\(ServerText.printable(field))'), and no \(OptionTable.flag(\.flow.walk.totpSecret)) was given",
                      at: place)
        case .unfilledField(let name, let seeded, let place):
            ErrorText("the form came back asking for '\(ServerText.printable(name))', which "
                      + (seeded ? "neither \(OptionTable.flag(\.flow.walk.form)) nor \(OptionTable.flag(\.flow.walk.totpSecret)) fills"
                         : "no \(OptionTable.flag(\.flow.walk.form)) value fills"), at: place)
        case .postRefused(let status, let place):
            ErrorText("the POST authorization request was refused with \(status)", at: place)
        case .formValueInURL(let place):
            ErrorText("the next hop would carry a \(OptionTable.flag(\.flow.walk.form)) value in its URL; not following it", at: place)
        case .requestLost(let place):
            ErrorText("the server lost the POST authorization request: a later hop goes to the authorization endpoint without it", at: place)
        case .endpointIsRedirectURI(let endpoint, let place):
            ErrorText("the \(Self.describe(endpoint)) is the redirect_uri, which authcode never fetches", at: place)
        }
    }

    static func describe(_ route: AnswerRoute) -> String {
        switch route {
        case .request(let method): "a \(method) request"
        case .refreshHeader: "a Refresh header"
        case .metaRefresh: "a meta refresh"
        case .form: "a form on the page"
        }
    }

    static func describe(_ endpoint: GuardedEndpoint) -> String {
        switch endpoint {
        case .authorization: "authorization endpoint"
        case .token: "token endpoint"
        case .pushedAuthorization: "pushed authorization request endpoint"
        case .step: "\(OptionTable.flag(\.flow.walk.steps)) URL"
        }
    }
}
