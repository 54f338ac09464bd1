/// What the scrubber keeps of one form of a secret, measured as an encoder
/// writes it (EchoForm.swift): its length and window hash always, and its
/// bytes only while it is short enough to index whole. A 4 MB token's
/// forms pass through here and leave a few words each.
struct FormSketch: ByteSink {
    /// Forms up to this many bytes are kept whole.
    let keepUpTo: Int
    private(set) var length = 0
    private(set) var hash: UInt64 = 0
    /// The form, while `length <= keepUpTo`; emptied after.
    private(set) var bytes: [UInt8] = []

    init(keepUpTo: Int) {
        self.keepUpTo = keepUpTo
    }

    var isKept: Bool { length <= keepUpTo }

    mutating func put(_ byte: UInt8) {
        length += 1
        hash = WindowHash.appending(hash, byte)
        if length <= keepUpTo {
            bytes.append(byte)
        } else if !bytes.isEmpty {
            bytes = []
        }
    }
}
