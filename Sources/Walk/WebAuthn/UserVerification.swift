/// `userVerification` of the options (WebAuthn Level 3 §5.8.6). This
/// authenticator sets UV whatever is asked (README "Passkeys"): it stands in
/// for a user it does not verify, which README "Passkeys" says. The value
/// is kept so a driver passes on what the page asked and `-v` can say it.
package enum UserVerification: String, Sendable, Equatable {
    case required, preferred, discouraged

    /// §5.8.6: a value the client does not know is ignored, which leaves
    /// the default, `preferred`.
    package init(_ value: String?) {
        self = value.flatMap(Self.init(rawValue:)) ?? .preferred
    }
}
