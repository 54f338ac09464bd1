/// What the flow must know of the output: where it may stop (`--print
/// code` redeems nothing), what a cache entry must carry, and how much it
/// says on stderr. How a result is printed is the CLI's (CLI/ResultPrinter.swift).
package struct OutputSettings: Equatable, Sendable {
    package var print: PrintField = .json
    package var verbosity: Verbosity = .normal

    package init() {}
}
