/// What a batch came to: records written, and how many of them failed.
package struct BatchTally: Sendable, Equatable {
    package var done: Int
    package var failed: Int
}
