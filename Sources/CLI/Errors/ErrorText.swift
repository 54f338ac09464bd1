/// What an error line says: `<what>`, server text still marked (Core/Text/
/// ServerText.swift), and `<where>`. Each layer's errors are worded in
/// their own file here (`HTTPError+Text.swift`, …); ErrorReport.swift
/// adds the exit code and the hint.
struct ErrorText: Equatable {
    var message: String
    var location: String?

    init(_ message: String, at location: String? = nil) {
        self.message = message
        self.location = location
    }
}
