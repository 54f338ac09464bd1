/// A name and its value, in order: form fields, parameters, record fields.
package struct NameValue: Equatable, Sendable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    package init(name: String, value: String) {
        self.init(name, value)
    }
}
