import Core
import HTTP

/// Which input of a form takes the one-time code (RFC 6238 TOTP): the one
/// named by `--totp-field`, else the one the page marks
/// `autocomplete="one-time-code"` (HTML §4.10.18.7.1), else one whose name
/// reads otp, totp, one-time-code or passcode (Keycloak's `otp`,
/// `totp_code`, `oneTimeCode`, `mfa-passcode`).
package enum OneTimeCodeField {
    /// The index of that field in `form.fields`, or nil.
    static func index(in form: HTMLForm, named name: String?) -> Int? {
        let inputs = form.fields.indices.filter { takesText(form.fields[$0]) }
        if let name {
            return form.fields.indices.first { form.fields[$0].name == name && !form.fields[$0].disabled }
        }
        if let marked = inputs.first(where: { form.fields[$0].oneTimeCode }) { return marked }
        return inputs.first { readsLikeOneTimeCode(form.fields[$0].name) }
    }

    /// With `--totp-secret`, a form that comes back after being sent with
    /// an input left empty most likely wanted the code there: the name of
    /// the first such input no `--form` value fills.
    static func unfilled(in form: HTMLForm, values: [NameValue]) -> String? {
        let given = Set(values.map(\.name))
        return form.fields.first { takesText($0) && $0.value.isEmpty && !given.contains($0.name) }?.name
    }

    /// Without `--totp-secret`: the one-time-code field of `form` (the rule
    /// of `index`) that is empty and no `--form` value fills, or nil.
    /// `--form otp=` (given empty) still sends the form as it is.
    static func unseeded(in form: HTMLForm, values: [NameValue]) -> Int? {
        guard let index = index(in: form, named: nil), form.fields[index].value.isEmpty,
              !values.contains(where: { $0.name == form.fields[index].name }) else { return nil }
        return index
    }

    static func noSecret(_ name: String, at place: String) -> WalkError {
        .oneTimeCodeWithoutSecret(field: name, at: place)
    }

    /// A form sent with `name` empty came back: without a seed, the field
    /// is either a value for `--form` or a code for `--totp-secret`.
    static func unrecognised(_ name: String, at place: String, seeded: Bool) -> WalkError {
        .unfilledField(name, seeded: seeded, at: place)
    }

    /// With `--totp-secret`: the input of a form that asks for nothing else
    /// (no password, one input to type into) whose name has the word
    /// "code" (Zitadel's `code`, AD FS's `VerificationCode`). "code" alone
    /// is too common to count on a form with more to fill, and without a
    /// seed it may be an e-mailed code.
    static func soleCodeInput(in form: HTMLForm) -> Int? {
        guard !form.hasPassword else { return nil }
        let inputs = form.fields.indices.filter { takesText(form.fields[$0]) }
        guard inputs.count == 1, let only = inputs.first,
              LabelWords.split(form.fields[only].name, limit: 100, digitsEndAHump: true).contains("code") else { return nil }
        return only
    }

    /// Inputs a person types a code into; never a hidden or a button.
    private static func takesText(_ field: HTMLField) -> Bool {
        !field.disabled && !field.name.isEmpty && [.text, .password, .other].contains(field.kind)
    }

    /// `otp`, `totp`, `passcode` as a word of the name (split at
    /// punctuation and camelCase humps), or `onetimecode`/`onetimepassword`
    /// with the separators dropped; "code" alone is too common to count.
    static func readsLikeOneTimeCode(_ name: String) -> Bool {
        let words = LabelWords.split(name, limit: 100, digitsEndAHump: true)
        if words.contains(where: { ["otp", "totp", "passcode", "otpcode", "totpcode"].contains($0) }) { return true }
        let joined = words.joined()
        return joined.contains("onetimecode") || joined.contains("onetimepassword") || joined.contains("onetimepasscode")
    }
}
