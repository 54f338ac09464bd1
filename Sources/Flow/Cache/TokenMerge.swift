import Core
import OAuth

/// A refresh answer folded into the entry it refreshes (RFC 6749 §6: "the
/// authorization server MAY issue a new refresh token"; OIDC Core §12.2: the
/// id_token may be absent). The answer's own bytes are kept as received;
/// members only the old entry had are appended to it.
enum TokenMerge {
    static func merge(answer: TokenResponse, into old: TokenResponse) -> TokenResponse {
        guard case .object(let oldMembers) = old.json, case .object(let newMembers) = answer.json else { return answer }
        let kept = oldMembers.filter { newMembers[$0.key] == nil }.sorted { $0.key < $1.key }
        guard !kept.isEmpty else { return answer }
        var body = answer.body
        while let last = body.last, last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 { body.removeLast() }
        guard body.last == UInt8(ascii: "}") else { return answer }
        body.removeLast()
        let additions = kept.map { JSONText.quote($0.key) + ":" + JSONText.serialize($0.value) }.joined(separator: ",")
        body += Array(("," + additions + "}").utf8)
        return TokenResponse(stored: body) ?? answer
    }
}
