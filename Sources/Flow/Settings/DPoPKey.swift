/// The key a flow's DPoP proofs are signed with (RFC 9449 §4): one made
/// afresh for the flow, or a kept one (`--dpop-key`), the only kind a token
/// bound to it can be used with in a later run (§6).
package enum DPoPKey: Equatable, Sendable {
    /// A P-256 key made on first use, gone when the flow ends.
    case fresh
    case kept(LoadedKey)

    /// The kept key; nil for a fresh one.
    package var kept: LoadedKey? {
        guard case .kept(let key) = self else { return nil }
        return key
    }
}
