import Core
import HTTP
import JOSE

/// One GET of a JWK Set (RFC 7517 §5) through the flow's client, so the
/// plain-http policy, the trace and the trusted-origin rules apply as to
/// any request. A set that cannot be fetched is exit 3 (the server's
/// status is said); one that is not JSON, or not `{"keys":[…]}`, exit 8.
struct KeySetFetch {
    let client: HTTPClient

    func fetch(_ url: String) throws(Failure) -> JWKSet {
        let place = URIReference(url)?.withoutQuery ?? url
        let request = HTTPRequest(method: .get, url: url, headers: [HTTPHeader("Accept", "application/jwk-set+json, application/json")])
        let response: HTTPResponse
        do throws(Failure) {
            response = try client.send(request, purpose: "key set (JWKS)", useCookies: false)
        } catch {
            // A timeout or an oversized answer says which request it was:
            // the key set's, at its URL, not the token endpoint's that
            // needed the keys (DESIGN.md §3).
            throw Failure(error.exitCode, "could not fetch the key set: \(error.message)", at: error.location ?? place, hint: error.hint, reason: error.reason)
        }
        guard response.isSuccess else {
            throw Failure(.network, "could not fetch the key set at \(place): it answered \(response.status)", at: place)
        }
        let set: JWKSet
        do throws(JOSEError) {
            set = try JWKSet(json: response.body)
        } catch {
            throw Failure(.malformedResponse, "the key set at \(place) is not usable: \(error.message)", at: place)
        }
        client.trace.info("key set: \(set.keys.count) key\(set.keys.count == 1 ? "" : "s")"
                          + (set.skipped > 0 ? ", \(set.skipped) skipped (a type or curve authcode does not use, or not a valid key)" : ""))
        return set
    }
}
