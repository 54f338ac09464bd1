/// Which fields name the person logging in (user, username, login, email,
/// sub, identifier): they label a batch record. (The token cache keys on
/// every field by any name, Flow/Cache/CacheKey.swift.) Never a field that
/// is secret by name, whatever else it is called.
package enum IdentityField {
    static let names: Set<String> = ["user", "username", "login", "email", "sub", "identifier", "userid", "loginid", "emailaddress"]

    /// `Username`, `user_name`, `e-mail`: compared without case and without
    /// the separators people put between words.
    package static func isIdentity(_ name: String) -> Bool {
        guard !Redactor.isSecretName(name) else { return false }
        let folded = String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != "." && $0 != " " })
        return names.contains(folded) || folded == "mail"
    }
}
