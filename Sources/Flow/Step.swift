import Core
import HTTP
import OAuth
import Walk

/// A `--step 'METHOD URL [BODY]'` request sent before the authorization request.
package struct Step: Equatable, Sendable {
    var method: HTTPMethod
    var url: String
    var body: String?

    package init(method: HTTPMethod, url: String, body: String?) {
        self.method = method
        self.url = url
        self.body = body
    }

    var isJSON: Bool { body?.trimmed.hasPrefix("{") ?? false }
}
