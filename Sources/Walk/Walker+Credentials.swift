import Core
import HTTP

extension Walker {
    /// `--totp-secret` for the forms of this walk (OneTimeCodes.swift).
    package var codes: OneTimeCodes? {
        get { pages.codes }
        set { pages.codes = newValue }
    }

    /// Whether a form went out with a `--form` value or a one-time code.
    package var credentialsSubmitted: Bool { pages.credentialsSubmitted }
}
