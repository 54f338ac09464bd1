import Core

/// `--form username=…` and `--form password=…` on any plain login form, as
/// the login drivers take them (README "Identity providers": "the provider's field names, or
/// `username`/`password`"). A form with no field named `username` gets that
/// value in its one identifier field — the one text or e-mail input a person
/// would type the user name into, if there is exactly one — and a form with
/// no field named `password` gets that value in its one `type=password`
/// field. A provider's own field name given with `--form` wins: then the
/// generic value is left as it is. So Zitadel's `loginName`, Gitea's
/// `user_name`, GitLab's `user[login]`, Dex's `login` and AD FS's
/// `UserName`/`Password` all log in with the two generic names.
enum GenericCredentials {
    static let username = "username"
    static let password = "password"

    /// The values with the generic names renamed to this form's own fields,
    /// and which were (`username` → `loginName`), for the trace.
    /// - Parameters:
    ///   - codeField: the one-time-code field (`--totp-secret`'s, or one
    ///     named like it), never an identifier.
    ///   - afterLogin: credentials went out already: a lone text field on a
    ///     form without a password is a second factor's (a code, an
    ///     answer), not the user name an identifier-first page asks for.
    static func mapped(_ values: [HTMLFieldValue], to form: HTMLForm, codeField: Int?,
                       afterLogin: Bool) -> (values: [HTMLFieldValue], renamed: [(String, String)]) {
        let names = Set(form.fields.map(\.name))
        let given = Set(values.map(\.name))
        var renames: [String: String] = [:]
        func usable(_ index: Int) -> Bool {
            let field = form.fields[index]
            return !field.name.isEmpty && !field.disabled && index != codeField
        }
        if given.contains(username), !names.contains(username), form.hasPassword || !afterLogin {
            let identifiers = form.fields.indices.filter { usable($0) && [.text, .email].contains(form.fields[$0].kind) }
            if identifiers.count == 1, case let name = form.fields[identifiers[0]].name, !given.contains(name) {
                renames[username] = name
            }
        }
        if given.contains(password), !names.contains(password) {
            let secrets = form.fields.indices.filter { usable($0) && form.fields[$0].kind == .password }
            if secrets.count == 1, case let name = form.fields[secrets[0]].name, !given.contains(name) {
                renames[password] = name
            }
        }
        guard !renames.isEmpty else { return (values, []) }
        let mapped = values.map { value in renames[value.name].map { NameValue($0, value.value) } ?? value }
        return (mapped, renames.sorted { $0.key > $1.key }.map { ($0.key, $0.value) })
    }
}
