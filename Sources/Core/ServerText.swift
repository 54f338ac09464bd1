/// Text a server wrote, made fit for one line of an error message.
package enum ServerText {
    /// No control characters, bounded: a hostile page cannot repaint the
    /// terminal or flood it.
    package static func printable(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        return cleaned.count > 300 ? String(cleaned.prefix(300)) + "…" : cleaned
    }
}
