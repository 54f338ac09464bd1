import Core
import Flow

/// A batch's output (README "Batch"), formatted here as a single run's
/// result is (ResultPrinter.swift): each record's outcome as a JSON line —
/// `{"line":N,"user":…,"token":{…}}` or `{…,"error":{"exit":E,"message":…}}`
/// — or, with `--print FIELD`, its value alone and for a failure nothing
/// but an error line on stderr naming the file line and the user; then the summary of a batch with
/// failures. Flow runs the records and writes these in input order
/// (Flow/Batch/OrderedWriter.swift).
struct BatchPrinter {
    let field: PrintField
    /// `KUBERNETES_EXEC_INFO`, for `--print exec-credential`.
    let execInfo: String?

    func printed(_ outcome: RecordOutcome) -> PrintedRecord {
        // The record's exit code and words, as a single run's (Errors/ErrorReport.swift).
        let report: ErrorReport
        switch outcome.result {
        case .success(let result):
            if field == .json, case .token(let token) = result {
                let head = Self.head(line: outcome.line, user: outcome.user) + "\"token\":" + token.response.oneLine
                guard let call = token.call else {
                    return PrintedRecord(stdout: head + "}\n", failed: false)
                }
                let called = head + ",\"call\":" + Self.call(call)
                guard call.isError else {
                    return PrintedRecord(stdout: called + "}\n", failed: false)
                }
                let report = ErrorReport(FlowError.resourceRefused(method: call.method, status: call.status, call.bearerError, at: call.place))
                return PrintedRecord(stdout: called + ",\"error\":" + Self.error(report, secrets: outcome.secrets) + "}\n", failed: true)
            }
            do throws(PrintError) {
                return PrintedRecord(stdout: try ResultPrinter.output(result, field: field, execInfo: execInfo), failed: false)
            } catch {
                report = ErrorReport(.unprintable(error))
            }
        case .failure(let failure):
            report = ErrorReport(failure)
        }
        let message = Self.message(report, secrets: outcome.secrets)
        if field == .json {
            return PrintedRecord(stdout: Self.head(line: outcome.line, user: outcome.user) + "\"error\":" + Self.error(report, secrets: outcome.secrets) + "}\n",
                                 failed: true)
        }
        // Nothing on stdout: a load tool's feeder would take an empty line
        // for a user (README "Many users at once"). The file line and the user say which record.
        let user = outcome.user.map { " (user \(TerminalText.escapeLine($0)))" } ?? ""
        return PrintedRecord(stdout: "", stderr: "authcode: error: line \(outcome.fileLine)\(user): \(TerminalText.escapeLine(message))\n", failed: true)
    }

    /// The error line's words, scrubbed of the record's secrets, then
    /// server text bounded and escaped (Core/ServerText/ServerText.swift).
    static func message(_ report: ErrorReport, secrets: RememberedSecrets) -> String {
        Redactor(secrets).finished(report.message + (report.location.map { " (\($0))" } ?? ""))
    }

    /// `{"exit":E,"message":"…"}`.
    static func error(_ report: ErrorReport, secrets: RememberedSecrets) -> String {
        "{\"exit\":\(report.exitCode.rawValue),\"message\":\(JSONText.quote(message(report, secrets: secrets)))}"
    }

    /// `--call`'s answer: `{"status":S,"body":"…"}`, the body as a JSON
    /// string — `"body_base64"` (RFC 4648 §4) when it is not UTF-8 text,
    /// so no byte is lost.
    static func call(_ answer: CallAnswer) -> String {
        if let text = String(validating: answer.body, as: UTF8.self) {
            return "{\"status\":\(answer.status),\"body\":\(JSONText.quote(text))}"
        }
        return "{\"status\":\(answer.status),\"body_base64\":\"\(Base64URL.encodeStandard(answer.body))\"}"
    }

    /// `{"line":N,"user":…,` — the start every JSON line shares.
    static func head(line: Int, user: String?) -> String {
        "{\"line\":\(line),\"user\":\(user.map(JSONText.quote) ?? "null"),"
    }

    /// Exit 9's last stderr line: how many failed, and where their errors are.
    func summary(_ tally: BatchTally, outputName: String) -> String {
        let place = field != .json ? "see the error lines above"
            : outputName == "stdout" ? "see the JSON lines" : "see the JSON lines in \(outputName)"
        return "authcode: \(tally.failed) of \(tally.done) \(tally.done == 1 ? "record" : "records") failed; \(place)"
    }
}
