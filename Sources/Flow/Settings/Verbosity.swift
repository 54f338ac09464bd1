/// How much a run says on stderr: `-q`, the default, or `-v`'s trace.
package enum Verbosity: Sendable, Equatable {
    case quiet, normal, verbose
}
