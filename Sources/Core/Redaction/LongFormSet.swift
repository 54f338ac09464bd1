/// The forms too long to index byte by byte (`SecretScrubber.indexedLength`),
/// each kept as its length and window hash (FormSketch.swift). A text is
/// searched once per distinct length, sliding that length's window hash
/// along it (WindowHash.swift): time linear in the text for each length,
/// memory a few words per form however long the secret — a 3 MB token, in
/// all its forms, costs bytes, not the hundreds of MiB a trie of it took.
struct LongFormSet {
    /// Length → the hashes of the forms of that length, and base^(length−1).
    private var byLength: [Int: (hashes: Set<UInt64>, firstWeight: UInt64)] = [:]
    /// The lengths, shortest first.
    private var lengths: [Int] = []

    var isEmpty: Bool { lengths.isEmpty }

    mutating func insert(length: Int, hash: UInt64) {
        if byLength[length] == nil {
            byLength[length] = ([], WindowHash.power(length - 1))
            lengths.insert(length, at: lengths.firstIndex { $0 > length } ?? lengths.endIndex)
        }
        byLength[length]?.hashes.insert(hash)
    }

    /// Every range of `text` that is one of the forms (or, with probability
    /// under length / 2^61 per window, collides with one).
    func matches(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for length in lengths {
            guard length <= text.count else { break }
            guard let (hashes, firstWeight) = byLength[length] else { continue }
            var hash: UInt64 = 0
            for index in 0..<length { hash = WindowHash.appending(hash, text[index]) }
            var start = 0
            while true {
                if hashes.contains(hash) { found.append(start..<start + length) }
                guard start + length < text.count else { break }
                hash = WindowHash.slide(hash, leaving: text[start], entering: text[start + length], firstWeight: firstWeight)
                start += 1
            }
        }
        return found
    }
}
