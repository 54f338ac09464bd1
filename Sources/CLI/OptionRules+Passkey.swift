import Core
import Walk
import Flow

/// `--passkey` and `--passkey-register` (DESIGN.md §13, README "Passkeys").
extension OptionRules {
    /// FILE is read and checked here, before any request: a missing,
    /// malformed or exposed file is exit 2, never a failed login later.
    func passkey(_ options: inout Options) throws(Failure) {
        guard let path = options.passkeyFile else {
            if options.passkeyRegister {
                throw Failure.usage("'--passkey-register' needs '\(display(\.passkeyFile))': the file the new passkey is saved to")
            }
            return
        }
        if options.passkeyRegister && options.users != nil {
            throw Failure.usage("'--passkey-register' cannot be used with '--users': one passkey file holds one user's credential")
        }
        do throws(WebAuthnError) {
            options.passkey = try PasskeyFile.check(path, register: options.passkeyRegister)
        } catch {
            throw error.failure()
        }
    }
}
