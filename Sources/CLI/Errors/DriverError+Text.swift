import Core
import Walk

/// The words of a login driver's error (Walk/Drivers/DriverError.swift);
/// the exit code and hint are ErrorReport.swift's.
extension DriverError {
    var text: ErrorText {
        switch self {
        case .loginRejected(_, let said, let place):
            ErrorText("login rejected" + (said.map { ": " + ServerText.printable($0) } ?? ""), at: place)
        case .factorUnsupported(let provider, let factor, let place):
            ErrorText("the \(provider.displayName) login asks for \(factor), which authcode cannot answer", at: place)
        case .oneTimeCodeNeeded(let provider, let place):
            ErrorText("the \(provider.displayName) login asks for a one-time code", at: place)
        case .oneTimeCodeRejected(_, let said, let place):
            ErrorText("login rejected" + (said.map { ": " + ServerText.printable($0) } ?? ""), at: place)
        case .passkeyRejected(_, let said, let place):
            ErrorText("login rejected" + (said.map { ": " + ServerText.printable($0) } ?? ""), at: place)
        case .errorPage(let provider, let said, let place):
            ErrorText("the \(provider.displayName) login ended on its error page" + (said.map { ": " + ServerText.printable($0) } ?? ""), at: place)
        case .noProgress(let provider, let requests, let place):
            ErrorText("the \(provider.displayName) login read \(requests) answers without getting anywhere", at: place)
        case .requiredAction(let provider, let action, let place):
            ErrorText("the \(provider.displayName) login stops at a required action: \(action)", at: place)
        case .credentialsMissing(let provider, let names, let place):
            ErrorText("the \(provider.displayName) login asks for \(names.joined(separator: ", ")), and no \(OptionTable.flag(\.flow.walk.form)) value fills them",
                      at: place)
        case .pageUnknown(let provider, let saw, let place):
            ErrorText("the \(provider.displayName) driver does not know this page: \(ServerText.printable(saw))", at: place)
        case .passkey(let error, let place):
            error.text(at: place)
        case .walk(let error):
            error.text
        }
    }
}
