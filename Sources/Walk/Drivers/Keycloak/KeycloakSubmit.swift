import Core
import HTTP

/// How the driver sends what a Keycloak page's form (or Keycloakify's app)
/// would: a form POST, marked as carrying the user's credentials when it
/// does, so that it goes only to a trusted origin (HTTP/OriginPolicy.swift).
enum KeycloakSubmit {
    static func request(_ fields: [(String, String)], to url: String, credential: Bool) -> HTTPRequest {
        var request = HTTPRequest.form(url: url, fields: fields)
        if credential { request.credential = .filledForm }
        return request
    }

    /// A built-in theme's form as a browser sends it: its own values, with
    /// `values` in the fields of those names (FormChooser.swift), and its
    /// sign-in button pressed.
    static func fill(_ form: HTMLForm, values: [NameValue], at place: String) throws(DriverError) -> [(String, String)] {
        do {
            return try FormChooser.submission(for: form, userFields: values, submit: nil).fields.map { ($0.name, $0.value) }
        } catch {
            throw .pageUnknown(provider: .keycloak, saw: "a form \(form.id.map { "'\($0)' " } ?? "")it cannot fill", at: place)
        }
    }

    /// The POST of one of the page's forms, or of Keycloakify's app to
    /// `url.loginAction`, with `values`; nil when the page has neither.
    static func post(on page: KeycloakPage, form id: String, values: [NameValue], credential: Bool) throws(DriverError) -> HTTPRequest? {
        if let form = page.form(id: id), let url = page.action(of: form) {
            return request(try fill(form, values: values, at: page.place), to: url, credential: credential)
        }
        if page.context != nil, let url = page.loginAction {
            return request(values.map { ($0.name, $0.value) }, to: url, credential: credential)
        }
        return nil
    }
}
