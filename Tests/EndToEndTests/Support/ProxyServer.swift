import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real forwarding HTTP proxy for one test: Debian's `tinyproxy` (the
/// `tinyproxy-bin` package, installed by `make deps`) on a loopback address
/// of its own (127.0.0.3 by default), logging every request it forwards.
/// `stop()` (or deinit) ends it with SIGKILL (children of a test process
/// may inherit a blocked SIGTERM); it runs under `timeout -s KILL 900`, so
/// even a test process that dies leaves no proxy behind for long.
final class ProxyServer: @unchecked Sendable {
    /// `http://HOST:PORT`, without credentials.
    let url: String
    let host: String
    let port: Int
    private let directory: String
    private let process: Process

    private init(url: String, host: String, port: Int, directory: String, process: Process) {
        self.url = url
        self.host = host
        self.port = port
        self.directory = directory
        self.process = process
    }

    /// The proxy URL with `user:password@` (for `http_proxy` and friends).
    func url(user: String, password: String) -> String { "http://\(user):\(password)@\(host):\(port)" }

    /// Starts tinyproxy on `host`; with `basicAuth` it demands those
    /// credentials (Proxy-Authorization, else 407).
    static func start(host: String = "127.0.0.3", basicAuth: (user: String, password: String)? = nil) throws -> ProxyServer {
        guard let tinyproxy = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy", "/usr/local/bin/tinyproxy"]
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw HarnessError("tinyproxy not found: run 'make deps' (it installs Debian's tinyproxy-bin)")
        }
        let directory = NSTemporaryDirectory() + "authcode-proxy-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = try freePort(on: host)
        var config = """
            Port \(port)
            Listen \(host)
            Timeout 30
            LogFile "\(directory)/proxy.log"
            LogLevel Connect
            MaxClients 50
            Allow 127.0.0.0/8

            """
        if let basicAuth { config += "BasicAuth \(basicAuth.user) \(basicAuth.password)\n" }
        try config.write(toFile: directory + "/proxy.conf", atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        // -d: in the foreground, a child of timeout, which stop() ends.
        process.arguments = ["-s", "KILL", "900", tinyproxy, "-d", "-c", directory + "/proxy.conf"]
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let server = ProxyServer(url: "http://\(host):\(port)", host: host, port: port, directory: directory, process: process)
        // Ready once it accepts a connection (bounded: 10 s).
        for _ in 0..<200 {
            if canConnect(host: host, port: port) { return server }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        server.stop()
        throw HarnessError("tinyproxy did not start on \(host):\(port); log: \((try? String(contentsOfFile: directory + "/proxy.log", encoding: .utf8)) ?? "none")")
    }

    /// The requests the proxy received (`METHOD URL` as logged), readiness
    /// probes left out. Empty means nothing went through it.
    func requests() -> [String] {
        let log = (try? String(contentsOfFile: directory + "/proxy.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "]: Request (file descriptor ") else { return nil }
            return line[range.upperBound...].split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// SIGKILL to tinyproxy (timeout's child, by pid), then timeout ends
    /// by itself; never a hang.
    func stop() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGKILL) }
        for _ in 0..<100 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(pid, SIGKILL) }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A port nothing listens on right now (bind to 0, read it, close).
    private static func freePort(on host: String) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, host, &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw HarnessError("cannot bind \(host):0") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func canConnect(host: String, port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
