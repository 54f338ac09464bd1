import Core
import HTTP
import OAuth
import Walk
import Flow

/// "Did you mean '--client-id'?" for a mistyped option, by edit distance.
package enum Suggestion {
    static func closest(to typed: String) -> String? {
        let bare = typed.drop(while: { $0 == "-" }).lowercased()
        guard !bare.isEmpty else { return nil }
        var best: (name: String, distance: Int, edits: Int)?
        for spec in OptionTable.all {
            // An exact name wins over a longer one it begins (`--par`, `--param`);
            // of those it begins, the nearest (`--user`: `--users`, not `--userinfo`).
            let edits = editDistance(bare, spec.long)
            let distance = spec.long == bare ? 0 : spec.long.hasPrefix(bare) && bare.count >= 3 ? 1 : edits
            if let best, (distance, edits) >= (best.distance, best.edits) { continue }
            best = ("--" + spec.long, distance, edits)
        }
        guard let best, best.distance <= max(2, bare.count / 3) else { return nil }
        return best.name
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
