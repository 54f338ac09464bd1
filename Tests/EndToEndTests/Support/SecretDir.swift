import Foundation

/// A private directory (0700) for one test's password files and passkey
/// files, removed when the test is done: a password passed as
/// `--form password=@FILE` stays off the command line, so no run prints
/// the "shows in 'ps'" hint and stderr can be compared line by line.
struct SecretDir: ~Copyable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "authcode-secrets-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Writes `contents` (no newline added) to `name`, mode 0600; returns its path.
    func file(_ name: String, _ contents: String) throws -> String {
        let file = path + "/" + name
        guard FileManager.default.createFile(atPath: file, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw HarnessError("cannot write \(file)")
        }
        return file
    }

    /// A path in the directory that nothing has made yet (a passkey file to register).
    func fresh(_ name: String) -> String { path + "/" + name }

    /// `--form username=U --form password=@FILE`.
    func login(_ username: String, _ password: String) throws -> [String] {
        ["--form", "username=\(username)", "--form", "password=@" + (try file("password-\(username)", password))]
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
