/// Finds many byte patterns in one pass over a text: an Aho–Corasick
/// automaton (a trie of the patterns with failure links). Scanning costs
/// the same however many patterns there are and however much they share
/// prefixes, as the forms of one secret, or tokens all starting `eyJ`, do.
struct BytePatternSet {
    /// Trie edges, keyed `node << 8 | byte`; kept sparse so that a 2 KB
    /// token costs a few thousand entries, not 256 per node.
    private var edges: [Int: Int32] = [:]
    private var children: [[UInt8]] = [[]]
    private var depth: [Int32] = [0]
    private var isEnd: [Bool] = [false]
    /// Filled by `prepare()`: where to continue after a mismatch, and the
    /// length of the longest pattern that ends at each node (0: none).
    private var failure: [Int32] = []
    private var longestEnding: [Int32] = []
    private var prepared = false

    var isEmpty: Bool { children[0].isEmpty }

    /// Adds a pattern; the empty pattern is ignored.
    mutating func insert(_ pattern: [UInt8]) {
        guard !pattern.isEmpty else { return }
        var node = 0
        for byte in pattern {
            if let next = edges[node << 8 | Int(byte)] {
                node = Int(next)
                continue
            }
            let next = children.count
            edges[node << 8 | Int(byte)] = Int32(next)
            children[node].append(byte)
            children.append([])
            depth.append(depth[node] + 1)
            isEnd.append(false)
            node = next
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
        failure = [Int32](repeating: 0, count: children.count)
        longestEnding = [Int32](repeating: 0, count: children.count)
        var queue = [0]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for byte in children[node] {
                let child = Int(edges[node << 8 | Int(byte)]!)
                if node != 0 {
                    var fallback = Int(failure[node])
                    while fallback != 0, edges[fallback << 8 | Int(byte)] == nil { fallback = Int(failure[fallback]) }
                    failure[child] = edges[fallback << 8 | Int(byte)] ?? 0
                }
                longestEnding[child] = isEnd[child] ? depth[child] : longestEnding[Int(failure[child])]
                queue.append(child)
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
            var next = edges[node << 8 | Int(byte)]
            while next == nil, node != 0 {
                node = Int(failure[node])
                next = edges[node << 8 | Int(byte)]
            }
            node = next.map(Int.init) ?? 0
            let length = Int(longestEnding[node])
            if length > 0 { body(index + 1, length) }
        }
    }
}
