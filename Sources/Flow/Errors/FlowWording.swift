import HTTP

/// What only the CLI can say, handed to each flow by the CLI
/// (CLI/Errors/CLIWording.swift), which alone words errors and names
/// options: the names the trace and a flow's notes mention, and the words of
/// an error that a trace line or a warning quotes.
package protocol FlowWording: Sendable {
    var names: OptionNames { get }
    /// The error's `<what>` (no location), server text still marked.
    func message(_ error: FlowError) -> String
}
