import Core
import JOSE

/// The two authenticator operations (WebAuthn Level 3 §6.3.2
/// authenticatorMakeCredential, §6.3.3 authenticatorGetAssertion) together
/// with the client's part of each (§5.1.3, §5.1.4: the origin and RP ID
/// checks, clientDataJSON), as functions of their inputs: where the
/// credential is kept, and the lock around its counter, is the caller's
/// (`Passkey`, `PasskeyStore`).
///
/// Every check runs before anything is signed. Flags are UP and UV
/// (README "Passkeys": authcode stands in for a user it does not verify); BE
/// and BS stay clear, ED too (no extensions).
enum SoftwareAuthenticator {
    static let flags: AuthenticatorData.Flags = [.userPresent, .userVerified]

    /// An assertion by `credential` with its next count; returns it and the
    /// credential as it must be saved before the answer is sent.
    static func assertion(_ request: AssertionRequest, with credential: PasskeyCredential) throws(WebAuthnError)
        -> (AssertionResponse, PasskeyCredential) {
        guard !request.challenge.isEmpty else { throw .emptyChallenge }
        let scope = try RelyingPartyID.check(request.rpID, origin: request.origin)
        // §6.3.3: the credential must be one the relying party
        // allows, for the RP ID asked.
        guard scope.rpID == credential.rpID else { throw .rpIDMismatch(asked: scope.rpID, file: credential.rpID) }
        guard request.allowCredentials.isEmpty || request.allowCredentials.contains(credential.credentialID) else {
            throw .credentialNotAllowed
        }
        // §6.3.3: the counter rises by a positive value; at 2³²−1 it cannot.
        guard credential.signCount < UInt32.max else { throw .counterExhausted }
        var next = credential
        next.signCount += 1
        let authenticatorData = AuthenticatorData(rpID: scope.rpID, flags: flags, signCount: next.signCount, attested: nil).bytes
        let clientDataJSON = CollectedClientData(kind: .get, challenge: request.challenge, origin: scope.origin).json
        let signature: [UInt8]
        do throws(JOSEError) {
            signature = try credential.key.derSignature(of: authenticatorData + SHA256.hash(clientDataJSON))
        } catch {
            throw .signing(error)
        }
        let response = AssertionResponse(credentialID: credential.credentialID, clientDataJSON: clientDataJSON,
                                         authenticatorData: authenticatorData, signature: signature,
                                         userHandle: credential.userHandle, signCount: next.signCount)
        return (response, next)
    }

    /// A new credential for `request`, with `key` and `credentialID`
    /// (fresh ones from `Passkey.create`; a test gives its own), attested
    /// with `none`; returns the answer and the credential to save.
    static func registration(_ request: RegistrationRequest, key: SigningKey, credentialID: [UInt8]) throws(WebAuthnError)
        -> (RegistrationResponse, PasskeyCredential) {
        guard !request.challenge.isEmpty else { throw .emptyChallenge }
        let scope = try RelyingPartyID.check(request.rpID, origin: request.origin)
        // §5.1.3: an empty list means ES256 and RS256; we make ES256 only.
        guard request.algorithms.isEmpty || request.algorithms.contains(COSEKey.es256) else {
            throw .noSupportedAlgorithm(request.algorithms)
        }
        guard PasskeyCredential.userHandleLengths.contains(request.user.id.count) else {
            throw .badUserHandle(bytes: request.user.id.count)
        }
        let credential: PasskeyCredential
        do throws(PasskeyFileProblem) {
            credential = try PasskeyCredential(rpID: scope.rpID, credentialID: credentialID, userHandle: request.user.id,
                                               key: key, signCount: 0)
        } catch {
            // The checks above leave a key that is not P-256 or an ID of a
            // length WebAuthn does not allow: `Passkey.create` makes neither.
            throw .signing(.unsupportedKey("key type"))
        }
        let authenticatorData = AuthenticatorData(
            rpID: scope.rpID, flags: flags, signCount: 0,
            attested: .init(credentialID: credentialID, publicKey: credential.publicCOSEKey)).bytes
        let response = RegistrationResponse(
            credentialID: credentialID,
            clientDataJSON: CollectedClientData(kind: .create, challenge: request.challenge, origin: scope.origin).json,
            attestationObject: AttestationObject.none(authenticatorData: authenticatorData),
            authenticatorData: authenticatorData, publicKeyAlgorithm: COSEKey.es256)
        return (response, credential)
    }
}
