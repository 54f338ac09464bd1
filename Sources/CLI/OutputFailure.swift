import Core
import Flow

/// Exit 1: the result was made but stdout would not take it. Whether a code
/// was redeemed decides what the user must do next (a code works once, RFC
/// 6749 §4.1.2), so the line says it.
enum OutputFailure {
    static func failure(for result: FlowResult) -> Failure {
        let consequence = switch result {
        case .code: "the authorization code was not redeemed and is lost"
        case .token: "the code was redeemed, and the tokens it bought are lost"
        }
        return Failure(.outputFailed, "cannot write the result to stdout (closed pipe or full disk): \(consequence)", at: "stdout",
                       hint: "Run authcode again with stdout going somewhere that stays open.")
    }
}
