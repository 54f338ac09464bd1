import Core
import HTTP
import JOSE

/// One GET of a JWK Set (RFC 7517 §5) through the flow's client, so the
/// plain-http policy, the trace and the trusted-origin rules apply as to
/// any request. A set that cannot be fetched says the server's status;
/// one that is not JSON, or not `{"keys":[…]}`, is unusable.
struct KeySetFetch {
    let client: HTTPClient

    func fetch(_ url: String) throws(FlowError) -> JWKSet {
        let place = URIReference(url)?.withoutQuery ?? url
        let request = HTTPRequest(method: .get, url: url, headers: [HTTPHeader("Accept", "application/jwk-set+json, application/json")])
        let response: HTTPResponse
        do {
            response = try client.send(request, purpose: "key set (JWKS)", useCookies: false)
        } catch {
            // A timeout or an oversized answer says which request it was:
            // the key set's, at its URL, not the token endpoint's that
            // needed the keys (README "Output and exit codes").
            throw .keySetFetch(url: place, error)
        }
        guard response.isSuccess else {
            throw .keySetStatus(url: place, status: response.status)
        }
        let set: JWKSet
        do throws(JOSEError) {
            set = try JWKSet(json: response.body)
        } catch {
            throw .keySetUnusable(url: place, error)
        }
        client.trace.info("key set: \(set.keys.count) key\(set.keys.count == 1 ? "" : "s")"
                          + (set.skipped > 0 ? ", \(set.skipped) skipped (a type or curve authcode does not use, or not a valid key)" : ""))
        return set
    }
}
