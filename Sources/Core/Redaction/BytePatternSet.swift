/// Finds many byte patterns in one pass over a text: an Aho–Corasick
/// automaton (a trie of the patterns with failure links). Scanning costs
/// the same however many patterns there are and however much they share
/// prefixes, as the forms of one secret, or tokens all starting `eyJ`, do.
struct BytePatternSet {
    /// Trie edges. Most nodes of a trie of secrets have one child (a long
    /// token is a chain), so a node's first edge is kept in two flat arrays
    /// and only further edges go to a dictionary keyed `node << 8 | byte`:
    /// inserting and scanning then rarely hash. Sparse, so that a 2 KB token
    /// costs a few thousand entries, not 256 per node.
    private var firstByte: [UInt8] = [0]
    private var firstChild: [Int32] = [-1]
    private var moreEdges: [Int: Int32] = [:]
    /// The bytes of a node's further edges, for nodes that have any.
    private var moreBytes: [Int32: [UInt8]] = [:]
    private var depth: [Int32] = [0]
    private var isEnd: [Bool] = [false]
    /// Filled by `prepare()`: where to continue after a mismatch, and the
    /// length of the longest pattern that ends at each node (0: none).
    private var failure: [Int32] = []
    private var longestEnding: [Int32] = []
    private var prepared = false

    var isEmpty: Bool { firstChild[0] < 0 }

    private func child(_ node: Int, _ byte: UInt8) -> Int32? {
        let first = firstChild[node]
        if first < 0 { return nil }
        if firstByte[node] == byte { return first }
        return moreBytes.isEmpty ? nil : moreEdges[node << 8 | Int(byte)]
    }

    /// Adds a pattern; the empty pattern is ignored.
    mutating func insert(_ pattern: [UInt8]) {
        guard !pattern.isEmpty else { return }
        var node = 0
        for byte in pattern {
            if let next = child(node, byte) {
                node = Int(next)
                continue
            }
            let next = Int32(depth.count)
            if firstChild[node] < 0 {
                firstByte[node] = byte
                firstChild[node] = next
            } else {
                moreEdges[node << 8 | Int(byte)] = next
                moreBytes[Int32(node), default: []].append(byte)
            }
            firstByte.append(0)
            firstChild.append(-1)
            depth.append(depth[node] + 1)
            isEnd.append(false)
            node = Int(next)
        }
        if !isEnd[node] {
            isEnd[node] = true
            prepared = false
        }
    }

    /// Computes the failure links breadth first: a node's link is the
    /// longest proper suffix of its path that is also a path in the trie.
    mutating func prepare() {
        guard !prepared else { return }
        failure = [Int32](repeating: 0, count: depth.count)
        longestEnding = [Int32](repeating: 0, count: depth.count)
        var queue = [0]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            guard firstChild[node] >= 0 else { continue }
            for byte in [firstByte[node]] + (moreBytes[Int32(node)] ?? []) {
                let next = Int(child(node, byte)!)
                if node != 0 {
                    var fallback = Int(failure[node])
                    while fallback != 0, child(fallback, byte) == nil { fallback = Int(failure[fallback]) }
                    failure[next] = child(fallback, byte) ?? 0
                }
                longestEnding[next] = isEnd[next] ? depth[next] : longestEnding[Int(failure[next])]
                queue.append(next)
            }
        }
        prepared = true
    }

    /// Calls `body(end, length)` for each position where some pattern ends,
    /// with the longest pattern ending there; ends increase. Shorter
    /// patterns ending at the same place lie inside that one.
    func forEachLongestMatch(in text: UnsafeBufferPointer<UInt8>, _ body: (_ end: Int, _ length: Int) -> Void) {
        precondition(prepared, "prepare() before matching")
        var node = 0
        for (index, byte) in text.enumerated() {
            var next = child(node, byte)
            while next == nil, node != 0 {
                node = Int(failure[node])
                next = child(node, byte)
            }
            node = next.map(Int.init) ?? 0
            let length = Int(longestEnding[node])
            if length > 0 { body(index + 1, length) }
        }
    }
}
