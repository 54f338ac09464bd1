import Core
import Walk
import Flow

/// `--passkey` and `--passkey-register` (README "Passkeys", README "Passkeys").
extension OptionRules {
    /// FILE is read and checked here, before any request: a missing,
    /// malformed or exposed file is exit 2, never a failed login later.
    func passkey(_ options: inout Options) throws(UsageError) {
        guard let path = options.flow.walk.passkeyFile else {
            if options.flow.walk.passkeyRegister {
                throw UsageError("'--passkey-register' needs '\(display(\.flow.walk.passkeyFile))': the file the new passkey is saved to")
            }
            return
        }
        if options.flow.walk.passkeyRegister && options.batch.input != nil {
            throw UsageError("'--passkey-register' cannot be used with '--users': one passkey file holds one user's credential")
        }
        do throws(WebAuthnError) {
            options.flow.walk.passkey = try PasskeyFile.check(path, register: options.flow.walk.passkeyRegister)
        } catch {
            // Read before any request: each refusal here is a usage error
            // (its words and hint: Errors/ErrorReport.swift).
            let report = ErrorReport(error)
            throw UsageError(report.message, at: report.location, hint: report.hint)
        }
    }
}
