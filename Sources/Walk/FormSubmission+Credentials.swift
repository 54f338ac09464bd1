import Core
import HTTP

extension FormSubmission {
    /// Whether sending this form hands over something of the user's: a
    /// `--form` value (TOTP codes included) or a filled password field. Such
    /// a form goes only to a trusted origin (OriginPolicy.swift); a consent
    /// form of the page's own values may go anywhere.
    func carriesCredentials(from userFields: [HTMLFieldValue]) -> Bool {
        let passwordNames = Set(form.fields.filter { $0.kind == .password }.map(\.name))
        return fields.contains { field in
            userFields.contains(field) || (passwordNames.contains(field.name) && !field.value.isEmpty)
        }
    }

    /// Whatever goes into a `type=password` field is a secret, whatever the
    /// field's name (`passphrase`, `pin`) or where the value came from.
    func rememberPasswords(in redactor: Redactor) {
        let passwordNames = Set(form.fields.filter { $0.kind == .password }.map(\.name))
        for field in fields where passwordNames.contains(field.name) { redactor.remember(field.value) }
    }
}
