/// What the command line asks for.
public enum ParsedCommand: Equatable, Sendable {
    case help
    case version
    case run(Options)
}
