/// Where batch input comes from, a chunk at a time, so that a file of a
/// million users never sits in memory whole.
package protocol ByteSource {
    /// Appends at most `max` bytes to `buffer` and returns how many; 0 means
    /// the input has ended. May block until data arrives.
    mutating func read(into buffer: inout [UInt8], max: Int) throws(RecordInputError) -> Int
}
