import Core
import HTTP

/// One Okta Identity Engine answer: any JSON object with a `version`
/// member (okta-auth-js treats exactly those as IDX responses), carrying
/// the transaction's `stateHandle`, the `remediation` forms it offers next,
/// `messages`, and `success` once signed in (Fixtures/server/replicas/
/// okta.md, "Identity Engine").
struct OktaIDXAnswer {
    let status: Int
    let json: JSONValue

    init?(_ response: HTTPResponse) {
        guard let json = JSONValue.parse(response.body), json["version"] != nil else { return nil }
        status = response.status
        self.json = json
    }

    var stateHandle: String? { json["stateHandle"]?.nonEmptyString }

    var remediations: [OktaRemediation] {
        (json["remediation"]?["value"]?.elements ?? []).compactMap(OktaRemediation.init)
    }

    func remediation(_ name: String) -> OktaRemediation? {
        remediations.first { $0.name == name }
    }

    /// Where the browser goes once signed in: `success.href`, or a
    /// `success-redirect` remediation (both shapes are recorded, okta.md).
    var successHref: String? {
        if let href = json["success"]?["href"]?.nonEmptyString { return href }
        return remediation("success-redirect")?.href
    }

    /// Every message of the answer, top-level first, then those attached
    /// to a field of a remediation (a wrong code is reported on its field).
    var messages: [String] {
        var found: [String] = []
        Self.collect(json["messages"], into: &found)
        for remediation in json["remediation"]?["value"]?.elements ?? [] {
            Self.collectFieldMessages(remediation["value"], into: &found)
        }
        return found
    }

    /// Whether the answer reports an error: a status outside 2xx, or a
    /// message of class ERROR.
    var isError: Bool {
        !(200...299).contains(status) || Self.hasErrorClass(json)
    }

    /// The value a relation such as `$.currentAuthenticatorEnrollment` or
    /// `$.authenticatorEnrollments.value[0]` points at; an object member
    /// named there that wraps its content in `value` is unwrapped.
    func resolve(_ path: String) -> JSONValue? {
        guard path.hasPrefix("$.") else { return nil }
        var current: JSONValue? = json
        for segment in path.dropFirst(2).split(separator: ".") {
            var name = Substring(segment)
            var index: Int?
            if let open = segment.firstIndex(of: "["), segment.last == "]" {
                name = segment[..<open]
                index = Int(segment[segment.index(after: open)..<segment.index(before: segment.endIndex)])
            }
            current = current?[String(name)]
            if let index {
                let elements = current?.elements ?? []
                current = elements.indices.contains(index) ? elements[index] : nil
            }
        }
        if let wrapped = current?["value"], case .object = wrapped, current?["type"] != nil { return wrapped }
        return current
    }

    private static func collect(_ messages: JSONValue?, into found: inout [String]) {
        for message in messages?["value"]?.elements ?? [] {
            if let text = message["message"]?.nonEmptyString, !found.contains(text) { found.append(text) }
        }
    }

    private static func collectFieldMessages(_ value: JSONValue?, into found: inout [String]) {
        for field in value?.elements ?? [] {
            collect(field["messages"], into: &found)
            collectFieldMessages(field["form"]?["value"], into: &found)
        }
    }

    private static func hasErrorClass(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            if members["class"]?.stringValue == "ERROR", members["message"] != nil { return true }
            return members.values.contains { hasErrorClass($0) }
        case .array(let elements):
            return elements.contains { hasErrorClass($0) }
        default:
            return false
        }
    }
}

/// One remediation: a form the Identity Engine offers, posted as JSON to
/// its `href` with the transaction's `stateHandle`.
struct OktaRemediation {
    let name: String
    let href: String
    let method: String
    let accepts: String?
    /// The form's fields (`value[]`).
    let fields: [JSONValue]
    /// What it relates to (`$.currentAuthenticator`, …).
    let relatesTo: [String]

    init?(_ json: JSONValue) {
        guard let name = json["name"]?.nonEmptyString, let href = json["href"]?.nonEmptyString else { return nil }
        self.name = name
        self.href = href
        method = json["method"]?.stringValue ?? "POST"
        accepts = json["accepts"]?.nonEmptyString
        fields = json["value"]?.elements ?? []
        if let one = json["relatesTo"]?.stringValue {
            relatesTo = [one]
        } else {
            relatesTo = (json["relatesTo"]?.elements ?? []).compactMap(\.stringValue)
        }
    }

    func field(_ name: String) -> JSONValue? {
        fields.first { $0["name"]?.stringValue == name }
    }

    /// The name of the one field inside `credentials` (`passcode`, or
    /// Okta Verify's `totp`).
    var credentialsFieldName: String? {
        field("credentials")?["form"]?["value"]?.elements.first?["name"]?.nonEmptyString
    }
}
