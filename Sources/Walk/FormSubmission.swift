import Core
import HTTP

/// One name/value pair to send, from the page or from `--form`.
package typealias HTMLFieldValue = NameValue

/// What to send for a form: its fields in order, and which button was pressed.
package struct FormSubmission: Equatable, Sendable {
    var form: HTMLForm
    var fields: [HTMLFieldValue]
    var pressed: HTMLField?

    init(form: HTMLForm, fields: [HTMLFieldValue], pressed: HTMLField?) {
        self.form = form
        self.fields = fields
        self.pressed = pressed
    }
}

package enum FormSubmissionError: Error, Equatable, Sendable {
    case noForm
    /// `--submit` named a control the form does not have.
    case noSubmitMatching(String)
    /// The form wants a password nobody gave: the names of its text, email
    /// and password fields still empty, for the hint.
    case missingCredentials([String])
}

/// Plays the user at a login or consent page (ARCHITECTURE.md "The walk"): picks the form
/// and fills it in as a browser would send it.
package enum FormChooser {
    /// The form with a password field, else (with `--totp-secret`) the one
    /// with a one-time-code field, else the first holding a field named
    /// in `userFields`, else the only form with an allow-like button (a
    /// consent page beside a search box), else the only POST form, else the
    /// only form; nil otherwise.
    static func choose(from forms: [HTMLForm], userFields: [HTMLFieldValue], codes: OneTimeCodes? = nil) -> HTMLForm? {
        if let login = forms.first(where: \.hasPassword) { return login }
        if let codes, let otp = forms.first(where: { codes.field(in: $0) != nil }) { return otp }
        let names = Set(userFields.map(\.name))
        if let filled = forms.first(where: { $0.fields.contains { !$0.name.isEmpty && names.contains($0.name) } }) {
            return filled
        }
        let consent = forms.filter { $0.fields.contains { $0.isSubmit && SubmitReading($0) == .allow } }
        if consent.count == 1 { return consent[0] }
        let posting = forms.filter { $0.method == "POST" }
        if posting.count == 1 { return posting[0] }
        return forms.count == 1 ? forms.first : nil
    }

    /// The form data set (HTML §4.10.21.4) with `userFields` filled in and
    /// one submit control pressed. Page values are sent byte for byte: a
    /// CSRF token or a consent form's hidden `state` must come back as it came.
    static func submission(for form: HTMLForm, userFields: [HTMLFieldValue], submit: SubmitChoice?) throws(FormSubmissionError) -> FormSubmission {
        let pressedIndex = try pressedControl(in: form, submit: submit)
        var sent: [HTMLFieldValue] = []
        var fromPage: [Int] = []  // index into `sent` of each page value, for overriding
        for (index, field) in form.fields.enumerated() where !field.name.isEmpty && (!field.disabled || index == pressedIndex) {
            if index == pressedIndex {
                if field.kind == .image {
                    // A browser sends the click position; nobody checks it.
                    sent.append(HTMLFieldValue(name: field.name + ".x", value: "0"))
                    sent.append(HTMLFieldValue(name: field.name + ".y", value: "0"))
                } else {
                    sent.append(HTMLFieldValue(name: field.name, value: field.value))
                }
            } else if isSuccessful(field) {
                fromPage.append(sent.count)
                sent.append(HTMLFieldValue(name: field.name, value: field.value))
            }
        }
        // Each --form value replaces the next page value of that name, or is
        // added on a login form.
        var overridden: Set<Int> = []
        for user in userFields {
            if let slot = fromPage.first(where: { sent[$0].name == user.name && !overridden.contains($0) }) {
                sent[slot].value = user.value
                overridden.insert(slot)
            } else if let pressed = pressedIndex, form.fields[pressed].name == user.name,
                      let slot = sent.firstIndex(where: { $0.name == user.name }), !overridden.contains(slot) {
                sent[slot].value = user.value  // --form allow=… names the button itself
                overridden.insert(slot)
            } else if form.hasPassword {
                // A login form may build fields by script; it gets the rest.
                // Other forms (consent, identifier-first) never see a value
                // they did not ask for: the password stays with the login.
                sent.append(user)
            }
        }
        try checkCredentials(form, sent: sent, userFields: userFields)
        return FormSubmission(form: form, fields: sent, pressed: pressedIndex.map { form.fields[$0] })
    }

    // MARK: - Successful controls

    /// Whether a browser sends the control without the user touching it.
    private static func isSuccessful(_ field: HTMLField) -> Bool {
        switch field.kind {
        case .submit, .image, .button, .reset: return false  // only when pressed
        case .checkbox, .radio, .select: return field.checked
        default: return true
        }
    }

    /// A password field left empty and not given by the user: the walk
    /// would only get the same login page back, so say what is missing.
    private static func checkCredentials(_ form: HTMLForm, sent: [HTMLFieldValue], userFields: [HTMLFieldValue]) throws(FormSubmissionError) {
        let given = Set(userFields.map(\.name))
        var firstValues: [String: String] = [:]
        for field in sent where firstValues[field.name] == nil { firstValues[field.name] = field.value }
        let value = { (name: String) in firstValues[name] ?? "" }
        // A nameless password input is never sent, so asking for it would not help.
        let wanted = form.fields.filter {
            $0.kind == .password && !$0.disabled && !$0.name.isEmpty && !given.contains($0.name) && value($0.name).isEmpty
        }
        guard !wanted.isEmpty else { return }
        // Each name once, in page order; a set keeps a form of thousands of
        // empty fields linear.
        var names: [String] = []
        var named: Set<String> = []
        for field in form.fields where [.text, .email, .password, .other].contains(field.kind)
            && !field.disabled && !field.name.isEmpty && !given.contains(field.name)
            && value(field.name).isEmpty && named.insert(field.name).inserted {
            names.append(field.name)
        }
        throw .missingCredentials(names)
    }

    // MARK: - The submit control

    /// `--submit` if given, else the first allow-like control, else the
    /// first that is not deny-like; nil when there is nothing to press.
    private static func pressedControl(in form: HTMLForm, submit: SubmitChoice?) throws(FormSubmissionError) -> Int? {
        let submits = form.fields.indices.filter { form.fields[$0].isSubmit }
        if let submit {
            // Asked for by name, a disabled button is pressed anyway: pages
            // often disable theirs until a script has checked the inputs.
            let candidates = submits.filter { !form.fields[$0].disabled } + submits.filter { form.fields[$0].disabled }
            let byName = candidates.first { index in
                let field = form.fields[index]
                guard field.name == submit.name else { return false }
                guard let value = submit.value else { return true }
                return field.value == value || field.label == value
            }
            if let byName { return byName }
            // `--submit Approve` for a button with no name but that label.
            if submit.value == nil, let byLabel = candidates.first(where: { form.fields[$0].label == submit.name }) {
                return byLabel
            }
            // `--submit` is usually meant for the consent page; the login
            // page before it gets the automatic choice.
            if !form.hasPassword { throw .noSubmitMatching(submit.name) }
        }
        let enabled = submits.filter { !form.fields[$0].disabled }
        let readings = enabled.map { (index: $0, reading: SubmitReading(form.fields[$0])) }
        if let allow = readings.first(where: { $0.reading == .allow }) { return allow.index }
        return readings.first { $0.reading != .deny }?.index
    }
}

/// How a submit control reads to a user deciding whether to press it.
package enum SubmitReading: Equatable {
    case allow, deny, neutral

    private static let allowWords: Set<String> = [
        "allow", "approve", "accept", "authorize", "authorise", "consent", "confirm", "continue",
        "login", "logon", "signin", "signon", "submit", "next", "yes", "ok", "okay", "grant", "proceed",
    ]
    private static let denyWords: Set<String> = [
        "deny", "cancel", "reject", "decline", "no", "not", "dont", "never", "refuse", "disallow", "abort",
    ]

    init(_ field: HTMLField) {
        let words = [field.name, field.value, field.label].flatMap { LabelWords.split($0) }
        // Adjacent words too, so "Log in", "sign_in" and "SignIn" all read as one.
        let joined = zip(words, words.dropFirst()).map { $0 + $1 }
        let all = words + joined
        if all.contains(where: Self.isDeny) {
            self = .deny
        } else if all.contains(where: Self.isAllow) {
            self = .allow
        } else {
            self = .neutral
        }
    }

    /// A word, or a longer form of one ("Authorized", "Accepting"); "no" and
    /// "ok" only as whole words, or "now" and "token" would match.
    private static func isAllow(_ word: String) -> Bool {
        allowWords.contains(word) || allowWords.contains { $0.count > 3 && word.hasPrefix($0) }
    }

    private static func isDeny(_ word: String) -> Bool {
        denyWords.contains(word) || denyWords.contains { $0.count > 3 && word.hasPrefix($0) }
    }
}
