import Foundation
import Testing

/// `authcode.1` (README.md "Man page") through the real formatters, and
/// `make install`'s layout under a DESTDIR, used by the real shells and man.
@Suite("Man page and install")
struct ManPageTests {
    /// The page as `make` writes it.
    static func page(in dir: borrowing TempDir) async throws -> String {
        let generated = try await run(["--date", "2026-01-02"], executable: try Paths.manGenerator)
        #expect(generated.exitCode == 0 && generated.stderr.isEmpty, "\(generated)")
        return try dir.file("authcode.1", generated.stdout)
    }

    /// `man -l`, rendered as plain text at 80 columns (C locale: ASCII hyphens).
    static func render(_ path: String) async throws -> String {
        let result = try await runProgram("man", ["-l", path], env: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80", "LANG": "C", "LC_ALL": "C"])
        #expect(result.exitCode == 0, "\(result)")
        return result.stdout
    }

    @Test func lintsCleanInMandocAndGroff() async throws {
        let dir = try TempDir("man")
        let path = try await Self.page(in: dir)
        let mandoc = try await runProgram("mandoc", ["-T", "lint", "-W", "all", path])
        #expect(mandoc.exitCode == 0 && mandoc.stdout.isEmpty && mandoc.stderr.isEmpty, "\(mandoc)")
        let groff = try await runProgram("groff", ["-ww", "-z", "-man", path])
        #expect(groff.exitCode == 0 && groff.stdout.isEmpty && groff.stderr.isEmpty, "\(groff)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).allSatisfy(\.isASCII), "plain ASCII roff")
    }

    @Test func manRendersEveryOptionAndTheFixedSections() async throws {
        let dir = try TempDir("man")
        let text = try await Self.render(try await Self.page(in: dir))
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SECURITY", "SEE ALSO"] {
            #expect(text.contains("\n" + heading + "\n"), "section \(heading)")
        }
        #expect(text.hasPrefix("AUTHCODE(1)"), "\(text.prefix(200))")
        // Every option `--help` lists starts an entry (`       -H, --header name: value`).
        let entries = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for name in try await helpOptionNames() {
            #expect(entries.contains { $0.hasPrefix(name + " ") || $0 == name || $0.hasPrefix(name + ",") || $0.contains(", " + name) },
                    "no entry for \(name)")
        }
        for code in 0...9 {
            #expect(entries.contains { $0 == "\(code)" || $0.hasPrefix("\(code) ") }, "exit status \(code)")
        }
        #expect(text.contains("AUTHCODE_CLIENT_SECRET") && text.contains("AUTHCODE_CONFIG"))
        #expect(text.contains("chmod") || text.contains("others can read"), "the config file rule")
    }

    /// `make install-files` (what `make install` runs after building) into a
    /// DESTDIR, then each file used where it landed: man reads the page,
    /// fish finds its vendor completion through XDG_DATA_DIRS, zsh autoloads
    /// `_authcode` from site-functions, bash sources its file.
    @Test func installPutsEveryFileWhereItsToolLooks() async throws {
        guard case .success(let binary) = Paths.binary else { throw HarnessError("authcode binary not found") }
        let dir = try TempDir("install")
        let root = dir.path + "/root"
        let make = try await runProgram("make", ["-s", "-C", Paths.packageRoot.path, "install-files", "BIN=\(binary)",
                                                 "MANGEN=\(try Paths.manGenerator)", "SHARE=\(dir.path)/share",
                                                 "DESTDIR=\(root)", "PREFIX=/usr"], timeout: 120)
        #expect(make.exitCode == 0, "\(make)")
        let expected: [(String, Int)] = [
            ("/usr/bin/authcode", 0o755),
            ("/usr/share/man/man1/authcode.1", 0o644),
            ("/usr/share/bash-completion/completions/authcode", 0o644),
            ("/usr/share/zsh/site-functions/_authcode", 0o644),
            ("/usr/share/fish/vendor_completions.d/authcode.fish", 0o644),
        ]
        for (path, mode) in expected {
            let attributes = try FileManager.default.attributesOfItem(atPath: root + path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
        }
        let installed = try await run(["--version"], executable: root + "/usr/bin/authcode")
        #expect(installed.exitCode == 0 && installed.stdout.hasPrefix("authcode "), "\(installed)")

        let page = try await Self.render(root + "/usr/share/man/man1/authcode.1")
        #expect(page.contains("--client-secret"))
        // man finds it by name in a MANPATH, as `man authcode` will.
        let byName = try await runProgram("man", ["authcode"], env: ["MANPATH": root + "/usr/share/man", "MANPAGER": "cat", "PAGER": "cat", "LANG": "C"])
        #expect(byName.exitCode == 0 && byName.stdout.contains("EXIT STATUS"), "\(byName)")

        // fish autoloads a command's completions once the command is on PATH.
        let home = dir.path + "/home"
        let inherited = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let fish = try await runProgram("fish", ["-c", "complete -C 'authcode --pri'"],
                                        env: ["XDG_DATA_DIRS": root + "/usr/share", "HOME": home, "PATH": root + "/usr/bin:" + inherited])
        #expect(fish.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["--print"], "\(fish)")

        let zshDriver = Paths.packageRoot.appendingPathComponent("Fixtures/shells/zsh-complete.zsh").path
        let zsh = try await runProgram("zsh", ["-f", zshDriver, "fpath", root + "/usr/share/zsh/site-functions", "authcode --pkce "], timeout: 30)
        #expect(Set(zsh.stdout.split(separator: "\n")) == ["S256", "plain", "off"], "\(zsh)")

        let bash = try await runProgram("bash", ["--norc", "--noprofile", "-c",
                                                 "source \"$1\"; COMP_WORDS=(authcode --completion ''); COMP_CWORD=2; _authcode; echo \"${COMPREPLY[*]}\"",
                                                 "bash", root + "/usr/share/bash-completion/completions/authcode"])
        #expect(bash.stdout == "bash zsh fish\n", "\(bash)")
    }
}
