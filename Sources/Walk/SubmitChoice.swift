import Core
import HTTP

/// `--submit NAME[=VALUE]`: which submit control to press on forms met on the way.
package struct SubmitChoice: Equatable, Sendable {
    package var name: String
    package var value: String?

    package init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}
