import Core
import HTTP

/// One form control as a browser would see it before the user touches it.
package struct HTMLField: Equatable, Sendable {
    enum Kind: String, Sendable {
        case hidden, text, password, email, checkbox, radio, submit, image, button, reset, select, textarea, file, other
    }

    var kind: Kind
    /// "" when the control has no name (it is then never sent).
    var name: String
    /// Entities decoded; checkbox/radio default "on"; select: the selected
    /// option's value (its text when it has no value attribute); textarea:
    /// its text content.
    var value: String
    /// Checkbox/radio: the `checked` attribute. Select: an option is
    /// selected. Everything else: true.
    var checked: Bool
    /// The control's own `disabled`, or that of an enclosing `<fieldset>`.
    var disabled: Bool
    /// Buttons only: the text a user reads on it (a `<button>`'s content, an
    /// input's value, an image's alt); "" otherwise.
    var label: String
    /// `autocomplete="one-time-code"` (HTML §4.10.18.7.1): the page says
    /// this input takes a one-time code.
    var oneTimeCode: Bool
    /// A submit control's `formaction` and `formmethod` (HTML §4.10.18.6):
    /// pressed, they win over the form's (FormTarget.swift); nil when absent.
    var formAction: String?
    var formMethod: HTTPMethod?

    /// `<button>` without a type (or type=submit) is `.submit`.
    var isSubmit: Bool { kind == .submit || kind == .image }

    init(kind: Kind, name: String, value: String = "", checked: Bool = true, disabled: Bool = false, label: String = "",
         oneTimeCode: Bool = false, formAction: String? = nil, formMethod: HTTPMethod? = nil) {
        self.kind = kind
        self.name = name
        self.value = value
        self.checked = checked
        self.disabled = disabled
        self.label = label
        self.oneTimeCode = oneTimeCode
        self.formAction = formAction
        self.formMethod = formMethod
    }
}

/// A `<form>` and its controls, in document order.
package struct HTMLForm: Equatable, Sendable {
    /// The raw attribute with entities decoded, nil when absent; the caller
    /// resolves it ("" and "#" mean the page's URL).
    var action: String?
    /// "GET" or "POST"; anything else a browser also treats as GET.
    var method: HTTPMethod
    var id: String?
    var name: String?
    var fields: [HTMLField]

    init(action: String? = nil, method: HTTPMethod = .get, id: String? = nil, name: String? = nil, fields: [HTMLField] = []) {
        self.action = action
        self.method = method
        self.id = id
        self.name = name
        self.fields = fields
    }

    /// Whether the form asks for a password: the mark of a login form.
    var hasPassword: Bool { fields.contains { $0.kind == .password } }
}
