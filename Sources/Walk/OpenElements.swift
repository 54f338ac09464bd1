/// The stack of open elements of one pass over a page (HTML §13.2.4.3),
/// with every question a pass asks of it answered in constant time: the
/// innermost open element of a name, and whether only inline elements lie
/// above a position. Searching the stack instead costs its depth on every
/// tag, which a page of deeply nested elements turns into quadratic time
/// (or, with a depth cap, a huge constant: seconds for a few megabytes).
struct OpenElements<Element> {
    private(set) var elements: [Element] = []
    private var names: [String] = []
    /// Name → its positions on the stack, innermost last.
    private var positions: [String: [Int]] = [:]
    /// Per position: the nearest position at or below it holding an element
    /// that is not inline, -1 when there is none.
    private var lastBlock: [Int] = []
    /// Operations done, for tests that count work (LoginErrorTextTests).
    private(set) var steps = 0

    var count: Int { elements.count }
    var last: Element? { elements.last }

    subscript(_ index: Int) -> Element { elements[index] }

    /// Changes the element at `index` in place (no copy of what it holds).
    mutating func update<Result>(_ index: Int, _ change: (inout Element) -> Result) -> Result {
        change(&elements[index])
    }

    mutating func push(_ element: Element, name: String, inline: Bool) {
        steps += 1
        positions[name, default: []].append(elements.count)
        lastBlock.append(inline ? (lastBlock.last ?? -1) : elements.count)
        names.append(name)
        elements.append(element)
    }

    mutating func pop() -> Element {
        steps += 1
        let name = names.removeLast()
        positions[name]?.removeLast()  // an emptied list stays: the name is likely to come again
        lastBlock.removeLast()
        return elements.removeLast()
    }

    /// The innermost open element called `name`.
    mutating func lastIndex(named name: String) -> Int? {
        steps += 1
        return positions[name]?.last
    }

    /// Whether every element above `index` is inline.
    func onlyInlineAbove(_ index: Int) -> Bool {
        (lastBlock.last ?? -1) <= index
    }
}
