import Core

/// The `-v` hop trace on stderr, in curl's style (`*` info, `>` sent, `<`
/// received), with every secret passed through the `Redactor` first and
/// every control character a server sent escaped (`Redactor.finished`).
package final class Trace {
    let enabled: Bool
    package let redactor: Redactor
    private let console: Console
    /// How the trace names the options it mentions (the CLI's names).
    package let names: OptionNames

    package init(enabled: Bool, redactor: Redactor, console: Console, names: OptionNames) {
        self.enabled = enabled
        self.redactor = redactor
        self.console = console
        self.names = names
    }

    package func info(_ text: @autoclosure () -> String) {
        guard enabled else { return }
        console.writeErr("* " + redactor.finished(text()) + "\n")
    }

    func request(_ request: HTTPRequest, purpose: String) {
        guard enabled else { return }
        console.writeErr("* " + redactor.finished(purpose) + "\n")
        console.writeErr(redactor.finished("> \(request.method) \(redactor.url(request.url))") + "\n")
        for header in request.headers {
            console.writeErr(redactor.finished("> " + redactor.header(header)) + "\n")
        }
        guard let body = request.body, !body.isEmpty else { return }
        let text = String(decoding: body, as: UTF8.self)
        if request.headers.first(named: "Content-Type") == "application/x-www-form-urlencoded" {
            console.writeErr(redactor.finished("> [form] " + redactor.fields(FormEncoding.decode(text))) + "\n")
        } else {
            console.writeErr("> [body] \(body.count) bytes, not shown\n")
        }
    }

    func response(_ response: HTTPResponse) {
        guard enabled else { return }
        let milliseconds = Int((response.elapsed * 1000).rounded())
        let connection = response.reusedConnection ? "reused connection" : "new connection"
        console.writeErr("< \(response.status) (\(milliseconds) ms, \(response.body.count) bytes, \(connection))\n")
        for header in response.headers where Self.shown(header.name) {
            console.writeErr(redactor.finished("< " + redactor.header(header)) + "\n")
        }
    }

    /// Headers worth a line: the ones that steer the walk.
    private static func shown(_ name: String) -> Bool {
        ["location", "set-cookie", "content-type", "www-authenticate", "refresh"].contains(name.lowercased())
    }
}
