/// Where the run's passkey is kept: a passkey file (Flow/Passkey/PasskeyFile.swift)
/// or a test's memory. Walk defines it and Flow implements it, so a driver
/// reaches the file and its lock without importing Flow.
package protocol PasskeyStore {
    /// Under the store's lock, held from reading the credential to saving
    /// it: `use` gets the credential as stored now and returns what it
    /// answers with and the credential to save. Two runs at once (threads
    /// or processes) never read the same count, so no count is sent twice
    /// or goes backwards (WebAuthn Level 3 §6.1.1).
    func update<Answer>(_ use: (PasskeyCredential) throws(WebAuthnError) -> (Answer, PasskeyCredential)) throws(WebAuthnError) -> Answer

    /// Throws when a registration may not save a credential here: the run
    /// did not ask to register (`.registrationNotAllowed`), or one is saved
    /// already (`.passkeyExists`). Asked before a key is made.
    func checkRegistration() throws(WebAuthnError)

    /// Saves a new credential where none is; never replaces one
    /// (`.passkeyExists` when another run saved one first).
    func create(_ credential: PasskeyCredential) throws(WebAuthnError)
}
