import Core
import HTTP

/// `--totp-secret` at work: a fresh RFC 6238 code for each form that asks
/// for one, and the time step it came from, so that a code turned down just
/// after its step ended (it may only have arrived late, RFC 6238 §5.2) is
/// replaced by the next step's code, once per walk.
package struct OneTimeCodes {
    let totp: TOTP
    /// `--totp-field`, when the page's field cannot be recognised.
    let fieldName: String?
    let now: () -> Double
    private var lastCounter: UInt64?
    private var retried = false

    package init(totp: TOTP, fieldName: String?, now: @escaping () -> Double) {
        self.totp = totp
        self.fieldName = fieldName
        self.now = now
    }

    /// The code for this moment (RFC 6238 §4.2); its step is remembered.
    mutating func fresh() -> String {
        let time = now()
        lastCounter = totp.counter(at: time)
        return totp.code(at: time)
    }

    /// Whether the last code may be replaced: never replaced before, and
    /// its time step has ended since it was made.
    mutating func mayRetry() -> Bool {
        guard !retried, let lastCounter, totp.counter(at: now()) != lastCounter else { return false }
        retried = true
        return true
    }

    /// The one-time-code field of `form`, if it has one (OneTimeCodeField.swift).
    func field(in form: HTMLForm) -> Int? {
        if let index = OneTimeCodeField.index(in: form, named: fieldName) { return index }
        return fieldName == nil ? OneTimeCodeField.soleCodeInput(in: form) : nil
    }
}
