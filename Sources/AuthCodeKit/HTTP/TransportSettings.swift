/// Connection settings that apply to every request of a run.
public struct TransportSettings: Equatable, Sendable {
    public var timeout: Double = 30
    public var connectTimeout: Double = 10
    public var cacert: String?
    public var insecure = false
    public var cert: String?
    public var key: String?
    public var connectTo: [String] = []
    /// Bodies over this size end the run with exit 8 instead of eating memory.
    public var maxBodyBytes = 4 << 20
    public var userAgent = "authcode/\(Version.current)"

    public init() {}
}

public enum Version {
    public static let current = "0.1.0"
}
