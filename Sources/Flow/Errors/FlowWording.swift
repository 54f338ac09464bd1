import HTTP

/// What only the CLI can say, handed to each flow by the CLI
/// (CLI/Errors/CLIWording.swift), which alone words errors and names
/// options: the names the trace and a flow's notes mention, and the words of
/// an error that a trace line or a batch's output quotes.
package protocol FlowWording: Sendable {
    var names: OptionNames { get }
    /// The error's `<what>` (no location), server text still marked.
    func message(_ error: FlowError) -> String
    /// A batch record's failure: its exit code, and `<what> (<where>)`
    /// with server text still marked.
    func recordFailure(_ error: FlowError) -> (exit: Int32, message: String)
}
