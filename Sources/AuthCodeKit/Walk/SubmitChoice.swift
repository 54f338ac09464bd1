/// `--submit NAME[=VALUE]`: which submit control to press on forms met on the way.
public struct SubmitChoice: Equatable, Sendable {
    public var name: String
    public var value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}
