/// The secrets one redactor holds, as a value that may cross threads: a
/// batch record's flow hands them over with its outcome, so that the line
/// the CLI formats from it later, on the writing thread, is scrubbed as the
/// flow's own lines are (Flow/Batch/RecordOutcome.swift). Opaque: nothing
/// but a redactor made from it can read them.
package struct RememberedSecrets: Sendable, Equatable {
    let values: Set<String>

    package static let none = RememberedSecrets(values: [])
}

extension Redactor {
    /// What this redactor scrubs, to scrub the same elsewhere.
    package var remembered: RememberedSecrets {
        RememberedSecrets(values: scrubber.remembered)
    }

    /// A redactor that scrubs what another one remembered.
    package convenience init(_ remembered: RememberedSecrets) {
        self.init()
        for secret in remembered.values { remember(secret) }
    }
}
