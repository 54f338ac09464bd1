import Core
import HTTP

/// What to do with an HTML page met during the walk (ARCHITECTURE.md "The walk"):
/// a form aimed at the redirect_uri is the answer (form_post); otherwise pick
/// the form a person would fill in, fill it, and press the right button.
package final class PageHandler {
    enum Outcome {
        case answer(AuthorizationAnswer)
        case submit(HTTPRequest)
    }

    let target: RedirectTarget
    let formValues: [HTMLFieldValue]
    let submit: SubmitChoice?
    let trace: Trace
    /// The login form last submitted with credentials: seeing it again means
    /// the server rejected them.
    private var lastLogin: String?
    /// `--totp-secret`: fills the one-time-code field of any form met.
    package var codes: OneTimeCodes?
    /// Whether a form went out holding a `--form` value or a one-time code,
    /// and the last request that did (LoginRejection.swift).
    package private(set) var credentialsSubmitted = false
    private(set) var credentialRequest: HTTPRequest?
    /// The alert texts of the page that credentials were last sent from:
    /// shown again after a wrong password they are banners, not the error
    /// (LoginErrorText.swift).
    private var standingAlerts: Set<String> = []
    /// Forms sent so far, to tell a form that comes back.
    private var submittedForms: Set<String> = []
    /// The authorization request's `state`: a link carrying it continues
    /// the request (ContinuationLinks.swift).
    var state = ""
    /// Every field name of every form met, and the generic names a form
    /// took (GenericCredentials.swift): a `--form` name outside both
    /// matched nothing, which a failed run says (Walker.unmatchedFormNames).
    private(set) var seenNames: Set<String> = []
    /// The fields a person fills in (not hidden, not buttons) of the last
    /// form that asked for credentials, for that message.
    private(set) var loginFields: [String] = []
    /// Whether that form had a password field: a whole login form, not an
    /// identifier-first page that asks for the password later.
    private(set) var loginHasPassword = false

    init(target: RedirectTarget, formValues: [NameValue], submit: SubmitChoice?, trace: Trace) {
        self.target = target
        self.formValues = formValues
        self.submit = submit
        self.trace = trace
    }

    static func isHTML(_ response: HTTPResponse) -> Bool {
        switch response.mediaType {
        case "text/html", "application/xhtml+xml": return true
        case nil: return response.body.first == UInt8(ascii: "<")
        default: return false
        }
    }

    /// - Parameter rejected: the page came with 400, 401, 403 or 422 after
    ///   credentials were sent: unless it asks for a one-time code again
    ///   that may be retried, it is the rejection.
    /// - Parameter page: the response's parsed page, when the walk has it already.
    func handle(_ response: HTTPResponse, at pageURL: String, rejected: Bool = false, page: ParsedPage? = nil) throws(WalkError) -> Outcome {
        let page = page ?? ParsedPage(response)
        let html = page.html
        let forms = page.forms
        let place = Walker.place(pageURL)
        guard let base = URIReference(pageURL), let resolver = FormTarget(pageURL: pageURL, baseHref: page.baseHref) else {
            throw .unresolvablePage(at: place)
        }

        for form in forms { seenNames.formUnion(form.fields.map(\.name)) }
        // form_post (OAuth 2.0 Form Post Response Mode): read, never submit.
        for form in forms {
            if let action = resolver.url(of: form), target.matches(action) {
                trace.info("form_post page aimed at the redirect_uri: reading its fields, not submitting")
                let fields = form.fields.filter { !$0.name.isEmpty && !$0.isSubmit }.map { NameValue($0.name, $0.value) }
                return .answer(.formPost(fields: fields, page: place))
            }
        }

        guard let form = FormChooser.choose(from: forms, userFields: formValues, codes: codes) else {
            if rejected { throw LoginRejection.failure(response, at: place, standing: standingAlerts) }
            // No form to fill: an interstitial page may move on by refresh.
            let refresh = response.headers.first(named: "Refresh").flatMap(MetaRefresh.target(ofContent:)) ?? page.metaRefresh
            if let refresh, let reference = URIReference(refresh) {
                var next = reference.resolved(against: base)
                next.fragment = nil
                trace.info("no form to fill; following the page's refresh to \(trace.redactor.url(next.text))")
                return .submit(HTTPRequest(method: "GET", url: next.text))
            }
            // A choice of ways on (Dex's connectors): the first, as listed.
            let links = ContinuationLinks.find(in: html, base: base, state: state)
            if let first = links.first {
                let offered = links.map { "'\(ServerText.printable($0.text, limit: ContinuationLinks.textLimit))'" }.joined(separator: ", ")
                trace.info("no form to fill; the page offers \(links.count) link\(links.count == 1 ? "" : "s") carrying this request on (\(offered)); following the first")
                return .submit(HTTPRequest(method: "GET", url: first.url))
            }
            // After a login, a page of text with no form is the server's
            // answer (Gitea's "Sign in Prohibited"), whatever scripts it has.
            let excerpt = Walker.pageText(response)
            if ScriptPage.holdsScripts(html), !(credentialsSubmitted && excerpt != .nothing) { throw ScriptPage.failure(at: place) }
            throw .noFormToFill(title: HTMLFormParser.title(in: html), forms: forms.count, forms.isEmpty ? excerpt : .nothing, at: place)
        }

        let codeField = codes?.field(in: form)
        // `username`/`password` fill a form that names its fields otherwise.
        let (formValues, renamed) = GenericCredentials.mapped(self.formValues, to: form, codeField: codeField ?? OneTimeCodeField.index(in: form, named: nil),
                                                              afterLogin: credentialsSubmitted)
        for (generic, field) in renamed {
            seenNames.insert(generic)
            trace.info("\(trace.names.form) \(generic) fills the form's \(generic == GenericCredentials.password ? "password" : "identifier") field '\(ServerText.printable(field, limit: 80))'")
        }
        if ScriptPage.isFilledByScript(form, values: formValues), ScriptPage.holdsScripts(html) { throw ScriptPage.failure(at: place) }
        // A code field filled by --form (no seed) is a credential too: the
        // form coming back is the code turned down, not a loop.
        // An identifier-first form (a username, no password) filled from
        // --form is a credential too: the same form back says no.
        let asksCredentials = form.hasPassword || codeField != nil || OneTimeCodeField.index(in: form, named: nil) != nil
            || form.fields.contains { field in field.kind != .hidden && !field.name.isEmpty && formValues.contains { $0.name == field.name } }
        if asksCredentials { noteFields(of: form, values: formValues) }
        let signature = Self.signature(of: form, resolver: resolver)
        if asksCredentials, signature == lastLogin {
            // A one-time code turned down may have arrived after its time step.
            guard codeField != nil, codes?.mayRetry() == true else {
                throw LoginRejection.failure(response, at: place, oneTimeCode: codeField != nil, standing: standingAlerts)
            }
            trace.info("the one-time code was turned down and its time step has ended since; sending the next one, once")
        } else if rejected {
            throw LoginRejection.failure(response, at: place, standing: standingAlerts)
        } else if codeField == nil, !submittedForms.insert(signature).inserted,
                  let name = OneTimeCodeField.unfilled(in: form, values: formValues) {
            throw OneTimeCodeField.unrecognised(name, at: place, seeded: codes != nil)
        }

        // A one-time code nobody can type: sending the form empty would only
        // bring it back (read as a loop or a rejection), so stop and say so.
        if codes == nil, let index = OneTimeCodeField.unseeded(in: form, values: formValues) {
            throw OneTimeCodeField.noSecret(form.fields[index].name, at: place)
        }

        var values = formValues
        if let index = codeField, let code = codes?.fresh() {
            trace.redactor.remember(code)
            values.removeAll { $0.name == form.fields[index].name }
            values.append(NameValue(form.fields[index].name, code))
        }
        let submission: FormSubmission
        do {
            submission = try FormChooser.submission(for: form, userFields: values, submit: submit)
        } catch {
            throw .form(error, at: place)
        }
        if asksCredentials { lastLogin = signature }
        submission.rememberPasswords(in: trace.redactor)
        let carriesCredentials = submission.fields.contains(where: values.contains)

        // Where a browser would send it: the pressed control's formaction and
        // formmethod first; an action that is no URL is not submitted.
        guard let action = resolver.url(of: form, pressed: submission.pressed) else {
            throw .formActionNotURL(submission.pressed?.formAction ?? form.action ?? "", at: place)
        }
        let method = resolver.method(of: form, pressed: submission.pressed)
        let pairs = submission.fields.map { ($0.name, $0.value) }
        let pressed = submission.pressed.map { " pressing '\($0.label.isEmpty ? $0.value : $0.label)'" } ?? ""
        trace.info("form chosen: \(method) \(Walker.place(action.text))\(pressed); fields: \(trace.redactor.fields(pairs))")
        var request: HTTPRequest
        if method == "POST" {
            request = .form(url: action.text, fields: pairs)
        } else {
            // A GET form replaces the action's query with its fields (HTML §4.10.21.3).
            var url = action
            url.query = FormEncoding.encode(pairs)
            request = HTTPRequest(method: "GET", url: url.text)
        }
        // A filled form goes only to a trusted origin (OriginPolicy.swift).
        if submission.carriesCredentials(from: values) { request.credential = .filledForm }
        if carriesCredentials {
            credentialsSubmitted = true
            credentialRequest = request
            standingAlerts = LoginErrorText.texts(in: html)
        }
        return .submit(request)
    }

    /// A login form's fields, for a failed run's message, and in `-v` the
    /// `--form` names this form has no field for (README "How the walk works" step 3).
    private func noteFields(of form: HTMLForm, values: [HTMLFieldValue]) {
        // Each name once, in page order; a set keeps a form of thousands of fields linear.
        loginFields = []
        loginHasPassword = form.hasPassword
        var listed: Set<String> = []
        for field in form.fields where ![.hidden, .submit, .image, .button, .reset].contains(field.kind) && !field.name.isEmpty
            && listed.insert(field.name).inserted {
            loginFields.append(field.name)
        }
        let names = Set(form.fields.map(\.name))
        var unmatched: [String] = []
        for value in values where !names.contains(value.name) && !unmatched.contains(value.name) { unmatched.append(value.name) }
        guard !unmatched.isEmpty else { return }
        trace.info("no field of this form takes \(unmatched.map { "\(trace.names.form) \(ServerText.printable($0, limit: 80))" }.joined(separator: ", ")) "
                   + "(its fields: \(loginFields.map { ServerText.printable($0, limit: 80) }.joined(separator: ", ")))")
    }

    /// Credentials went out in a request the walk did not build from a form
    /// (a login driver's).
    func noteCredentials(sentIn request: HTTPRequest) {
        credentialsSubmitted = true
        credentialRequest = request
    }

    /// Identifies a login form across two pages: where it posts and what it asks.
    static func signature(of form: HTMLForm, resolver: FormTarget) -> String {
        let action = resolver.url(of: form) ?? resolver.document
        let names = form.fields.filter { $0.kind != .hidden }.map(\.name).sorted().joined(separator: ",")
        return "\(form.method) \(action.withoutQuery) \(names)"
    }
}
