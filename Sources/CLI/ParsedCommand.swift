import Core
import HTTP
import OAuth
import Walk
import Flow

/// What the command line asks for.
package enum ParsedCommand: Equatable, Sendable {
    case help
    case version
    case completion(CompletionShell)
    case run(Options)
}
