/// `--dpop-for 'METHOD URL'`: the request a printed DPoP proof is for.
package struct DPoPTarget: Equatable, Sendable {
    package var method: String
    package var url: String

    package init(method: String, url: String) {
        self.method = method
        self.url = url
    }
}
