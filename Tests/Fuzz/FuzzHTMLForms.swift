// libFuzzer harness: a hostile login or consent page (ARCHITECTURE.md "The walk",
// "2xx HTML"): extract its forms, its error text and title, pick the form a
// person would fill in and build what would be submitted, as PageHandler does.
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed.

/// `--form` values of a typical run: credentials, an OTP, a consent field.
private let htmlUserFields: [[HTMLFieldValue]] = [
    [],
    [HTMLFieldValue(name: "username", value: "alice"), HTMLFieldValue(name: "password", value: "s3cret")],
    [HTMLFieldValue(name: "email", value: "a@example.com"), HTMLFieldValue(name: "otp", value: "123456"),
     HTMLFieldValue(name: "allow", value: "Authorize"), HTMLFieldValue(name: "scope", value: "openid")],
]

/// `--submit` as users write it: none, a name, a name=value, a label.
private let htmlSubmits: [SubmitChoice?] = [
    nil,
    SubmitChoice(name: "allow", value: nil),
    SubmitChoice(name: "action", value: "accept"),
    SubmitChoice(name: "Authorize", value: nil),
]

private let htmlPage = URIReference("https://idp.example.com/o/authorize/?client_id=cli&state=s1")!
private let htmlTarget = RedirectTarget(URIReference("http://127.0.0.1:8765/callback")!)

private func htmlCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let html = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)

    let forms = HTMLFormParser.forms(in: html)
    // PageHandler quotes a page without forms (and Walker any unexpected
    // answer) in the error line.
    if forms.isEmpty {
        let page = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")],
                                body: Array(UnsafeRawBufferPointer(start: start, count: count)))
        // The excerpt is marked server text (ServerText.swift): bounded and
        // escaped only when the message is finished, after scrubbing.
        let shown = ServerText.finished(BodyQuote.page(page).text)
        htmlCheck(!TerminalText.containsControl(shown), "control character in a finished excerpt")
        htmlCheck(!shown.unicodeScalars.contains { (0xFFF9...0xFFFB).contains($0.value) }, "mark left in a finished excerpt")
        // ": " + 120 characters + "…", each escaped to at most 6 (`\u202e`).
        htmlCheck(shown.count <= 2 + 121 * 6, "finished excerpt of \(shown.count) characters")
    }
    htmlCheck(forms.count <= HTMLFormBuilder.maxForms, "more than \(HTMLFormBuilder.maxForms) forms")
    if let error = LoginErrorText.find(in: html) {
        htmlCheck(!error.isEmpty && error.count <= 200, "the error text is empty or longer than 200 characters")
    }
    if let title = HTMLFormParser.title(in: html) {
        htmlCheck(!title.isEmpty && title.count <= 200, "title is empty or longer than 200 characters")
    }

    // The page's base URL and each form's target, as PageHandler works them out.
    guard let resolver = FormTarget(pageURL: htmlPage.text, baseHref: DocumentBase.href(in: html)) else { return 0 }
    for form in forms {
        htmlCheck(form.method == "GET" || form.method == "POST", "method '\(form.method)'")
        htmlCheck(form.fields.count <= HTMLFormBuilder.maxFields, "more than \(HTMLFormBuilder.maxFields) fields")
        // What PageHandler does with each form: resolve its action, compare it
        // with the redirect_uri (form_post), build its login signature.
        if let action = resolver.url(of: form) { _ = htmlTarget.matches(action) }
        _ = PageHandler.signature(of: form, resolver: resolver)
        for pressed in form.fields where pressed.isSubmit {
            if let action = resolver.url(of: form, pressed: pressed) {
                htmlCheck(action.fragment == nil && !action.text.utf8.contains { $0 < 0x21 || $0 == 0x7F }, "a form's URL keeps a fragment or a control")
            }
            let method = resolver.method(of: form, pressed: pressed)
            htmlCheck(method == "GET" || method == "POST", "formmethod '\(method)'")
        }
    }

    // A few --form/--submit combinations, picked by the input's length so
    // each input exercises one and the corpus covers all of them.
    let userFields = htmlUserFields[count % htmlUserFields.count]
    let submit = htmlSubmits[(count / htmlUserFields.count) % htmlSubmits.count]
    guard let form = FormChooser.choose(from: forms, userFields: userFields) else { return 0 }
    htmlCheck(forms.contains(form), "choose returned a form that is not on the page")
    do {
        let submission = try FormChooser.submission(for: form, userFields: userFields, submit: submit)
        htmlCheck(submission.fields.allSatisfy { !$0.name.isEmpty }, "a nameless field is sent")
        if let pressed = submission.pressed {
            htmlCheck(pressed.isSubmit, "the pressed control is not a submit control")
        }
        // The body as it would go on the wire, and back.
        let body = FormEncoding.encode(submission.fields.map { ($0.name, $0.value) })
        htmlCheck(FormEncoding.decode(body).count == submission.fields.count, "encoded submission does not decode to as many fields")
        _ = Redactor().fields(submission.fields.map { ($0.name, $0.value) })
    } catch {
        _ = ErrorReport(.walk(.form(error, at: "fuzz"))).line
    }
    return 0
}
