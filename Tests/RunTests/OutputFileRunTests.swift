import Foundation
import Testing
@testable import Core
@testable import HTTP
@testable import CLI
#if canImport(Glibc)
import Glibc
#endif

/// `-o FILE` (README.md "Writing the result to a file") on a real file
/// system: mode 0600, whole or not at all, checked before any request.
/// Moved from EndToEndTests/OutputFileTests (the umask and a file size
/// limit are the process's, and stay there).
struct OutputFileRunTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    static func inode(_ path: String) -> ino_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_ino : nil
    }

    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func anExistingFileIsReplacedWholeByRename() throws {
        let server = ScriptedServer()
        let dir = try TempDir()
        let path = try dir.file("token", "old\n", mode: 0o644)
        let before = Self.inode(path)
        let ran = authcode(server.publicClient() + ["--print", "access_token", "-o", path], server: server)
        #expect(ran.exit == .success && ran.out.isEmpty && ran.err.isEmpty, "\(ran)")
        let token = try #require(server.lastTokenBody.flatMap(jsonObject)?["access_token"] as? String)
        #expect(Self.contents(path) == token + "\n")
        #expect(Self.mode(path) == 0o600, "the new file is 0600, not the old 0644")
        #expect(Self.inode(path) != before, "a new file renamed into place, not the old one rewritten")
        #expect(dir.names == ["token"])
    }

    @Test func aFailedRunLeavesTheOldFileAsItWas() throws {
        let server = ScriptedServer(.loginAndConsent)
        let dir = try TempDir()
        let path = try dir.file("token", "old\n", mode: 0o600)
        let ran = authcode(server.publicClient() + ["--form", "username=alice", "--form", "password=@-", "-o", path], stdin: "nope", server: server)
        #expect(ran.exit == .noAuthorizationResponse, "\(ran)")
        #expect(Self.contents(path) == "old\n")
        #expect(dir.names == ["token"], "the temporary file is removed")
    }

    @Test func aMissingOrUnwritableDirectoryIsUsageBeforeAnyRequest() throws {
        let server = ScriptedServer()
        let dir = try TempDir()
        let missing = dir.path + "/no/such/dir/token"
        expectFailure(authcode(server.publicClient() + ["-o", missing], server: server), .usage,
                      "authcode: error: cannot write '\(missing)' for '-o': directory '\(dir.path)/no/such/dir' does not exist\nSee 'authcode --help'.\n")
        // /proc takes no new file, not even from root.
        let proc = authcode(server.publicClient() + ["-o", "/proc/authcode-token"], server: server)
        #expect(proc.exit == .usage, "\(proc)")
        #expect(proc.errorLine?.hasPrefix("authcode: error: cannot write '/proc/authcode-token' for '-o': cannot create a file in '/proc': ") == true, "\(proc)")
        let notADirectory = try dir.file("plain")
        expectFailure(authcode(server.publicClient() + ["-o", notADirectory + "/token"], server: server), .usage,
                      "authcode: error: cannot write '\(notADirectory)/token' for '-o': '\(notADirectory)' is not a directory\nSee 'authcode --help'.\n")
        if getuid() != 0 {
            let locked = dir.path + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o500])
            #expect(authcode(server.publicClient() + ["-o", locked + "/token"], server: server).exit == .usage)
        }
        #expect(server.requests.isEmpty, "no request was made")
    }

    @Test func aBatchWritesItsJSONLinesToTheFile() throws {
        let server = ScriptedServer(.users)
        let dir = try TempDir()
        let users = try dir.file("users.csv", "username,password\nuser1,pw-1\nuser2,pw-2\nuser3,pw-3\n")
        let path = dir.path + "/tokens.jsonl"
        let ran = authcode(server.publicClient() + ["--users", users, "-o", path], server: server)
        #expect(ran.exit == .success && ran.out.isEmpty && ran.err.isEmpty, "\(ran)")
        #expect(Self.mode(path) == 0o600)
        let lines = (Self.contents(path) ?? "").split(separator: "\n").map { jsonObject(String($0)) ?? [:] }
        #expect(lines.map { $0["user"] as? String } == ["user1", "user2", "user3"])
        #expect(lines.allSatisfy { ($0["token"] as? [String: Any])?["access_token"] != nil })
        #expect(dir.names == ["tokens.jsonl", "users.csv"])
    }

    @Test func dashIsStandardOutput() {
        let server = ScriptedServer()
        expectToken(authcode(server.publicClient() + ["-o", "-"], server: server), from: server)
    }
}
