import Core

/// What the reading thread and the workers of a batch share, always under
/// one `Lock`: records waiting for a worker, outcomes waiting for their
/// turn to be written, and how far both have got. A value: every field is
/// `Sendable`, so the compiler checks what crosses threads.
struct BatchJobs: Sendable {
    /// Records read and not yet taken, with their output slot (0, 1, 2…).
    private(set) var queue: [(slot: Int, record: Record)] = []
    /// Outcomes whose slot is not yet written.
    private(set) var finished: [Int: RecordOutcome] = [:]
    /// The slot the output waits for.
    private(set) var nextToWrite = 0
    /// No record comes after those queued.
    private(set) var inputDone = false

    /// Whether the reader may queue `slot`: fewer than `window` slots are
    /// in flight or waiting, or the next to write is ready to go (so a slow
    /// record never stalls the output of those before it).
    func hasRoom(for slot: Int, window: Int) -> Bool {
        slot - nextToWrite < window || finished[nextToWrite] != nil
    }

    mutating func add(_ record: Record, slot: Int) {
        queue.append((slot, record))
    }

    mutating func endInput() {
        inputDone = true
    }

    /// A worker stops once the input is done and nothing is queued.
    var workerMayGo: Bool { !queue.isEmpty || inputDone }

    /// The oldest queued record; nil when none is left.
    mutating func take() -> (slot: Int, record: Record)? {
        queue.isEmpty ? nil : queue.removeFirst()
    }

    mutating func finish(_ slot: Int, _ outcome: RecordOutcome) {
        finished[slot] = outcome
    }

    var nextIsFinished: Bool { finished[nextToWrite] != nil }

    /// The next outcome in input order, if it is done; its slot is then written.
    mutating func takeNextFinished() -> RecordOutcome? {
        guard let outcome = finished.removeValue(forKey: nextToWrite) else { return nil }
        nextToWrite += 1
        return outcome
    }
}
