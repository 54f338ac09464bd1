import Foundation
import Testing

/// `authcode --completion bash|zsh|fish` (README.md "Completion"), driven in
/// the real shells: bash's `complete`/`compgen` in a plain bash (no
/// bash-completion package), zsh's completion system through a
/// pseudo-terminal (Fixtures/shells/zsh-complete.zsh) and fish's
/// `complete -C`. Each line is completed in a directory holding
/// `ca.pem`, `client.key`, `notes file.txt` and the directory `tokens`.
@Suite("Shell completion")
struct CompletionTests {
    /// The workspace, and each script as `authcode --completion` wrote it.
    final class Shells: Sendable {
        let work: String
        let scripts: String

        init() async throws {
            let root = NSTemporaryDirectory() + "authcode-completion-\(UUID().uuidString.prefix(8))"
            work = root + "/work"
            scripts = root + "/scripts"
            let manager = FileManager.default
            try manager.createDirectory(atPath: work + "/tokens", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: scripts, withIntermediateDirectories: true)
            for name in ["ca.pem", "client.key", "notes file.txt"] {
                try Data().write(to: URL(fileURLWithPath: work + "/" + name))
            }
            for (shell, name) in [("bash", "authcode.bash"), ("zsh", "_authcode"), ("fish", "authcode.fish")] {
                let result = try await run(["--completion", shell])
                #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
                try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: scripts + "/" + name))
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: work).deletingLastPathComponent().path) }

        /// What bash's function puts in COMPREPLY for these words (as bash
        /// splits a line: `--print=e` is `--print`, `=`, `e`), the last one
        /// being completed.
        func bash(_ words: [String]) async throws -> [String] {
            let driver = """
                cd "$1" || exit 9
                source "$2" || exit 9
                shift 2
                declare -F _init_completion >/dev/null && { echo "bash-completion is loaded" >&2; exit 9; }
                [[ "$(complete -p authcode)" == "complete -F _authcode authcode" ]] || exit 8
                COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                _authcode
                ((${#COMPREPLY[@]})) && printf '%s\\n' "${COMPREPLY[@]}"
                exit 0
                """
            let result = try await runProgram("bash", ["--norc", "--noprofile", "-c", driver, "bash", work, scripts + "/authcode.bash"] + words)
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
            return lines(result)
        }

        /// The matches zsh's completion system offers for `line`, with the
        /// script sourced or, `installed`, autoloaded from $fpath.
        func zsh(_ line: String, installed: Bool = false) async throws -> [String] {
            let driver = Paths.packageRoot.appendingPathComponent("Fixtures/shells/zsh-complete.zsh").path
            let target = installed ? scripts : scripts + "/_authcode"
            let result = try await runProgram("bash", ["-c", "cd \"$1\" && exec zsh -f \"$2\" \"$3\" \"$4\" \"$5\"", "bash",
                                                       work, driver, installed ? "fpath" : "source", target, line], timeout: 30)
            #expect(result.exitCode == 0, "\(result)")
            // zsh may add a match twice (once per tag); the set is what it offers.
            return Array(Set(lines(result))).sorted()
        }

        /// What fish's `complete -C` offers for `line` (the match, without its description).
        func fish(_ line: String) async throws -> [String] {
            let result = try await runProgram("bash", ["-c", "cd \"$1\" && exec fish --no-config -c 'source $SCRIPT; complete -C \"$LINE\"'",
                                                       "bash", work],
                                              env: ["SCRIPT": scripts + "/authcode.fish", "LINE": line], timeout: 30)
            #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
            return lines(result).map { String($0.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
        }

        func lines(_ result: RunResult) -> [String] {
            result.stdout.split(separator: "\n").map(String.init)
        }
    }

    // MARK: - bash

    @Test func bashCompletesOptionsValuesAndFiles() async throws {
        let shells = try await Shells()
        #expect(try await shells.bash(["authcode", "--pri"]) == ["--print"])
        #expect(try await shells.bash(["authcode", "--cache"]) == ["--cache", "--cache-dir"])
        #expect(try await shells.bash(["authcode", "--print", "=", "e"]) == ["expires_at", "exec-credential"])
        #expect(try await shells.bash(["authcode", "--print", "e"]) == ["expires_at", "exec-credential"])
        #expect(try await shells.bash(["authcode", "--pkce", ""]) == ["S256", "plain", "off"])
        #expect(try await shells.bash(["authcode", "--method", "="]) == ["POST", "GET"])
        #expect(try await shells.bash(["authcode", "--completion", ""]) == ["bash", "zsh", "fish"])
        #expect(try await shells.bash(["authcode", "--cacert", "c"]).sorted() == ["ca.pem", "client.key"])
        #expect(try await shells.bash(["authcode", "-K", ""]).sorted() == ["ca.pem", "client.key", "notes file.txt", "tokens"])
        #expect(try await shells.bash(["authcode", "-o", "no"]) == ["notes file.txt"])
        #expect(try await shells.bash(["authcode", "--cache-dir", ""]) == ["tokens"])
        #expect(try await shells.bash(["authcode", "--scope", ""]) == [], "a value with nothing to offer, not file names")
        #expect(try await shells.bash(["authcode", "--client-secret", "c"]) == [])
    }

    @Test func bashOffersEveryOptionOfTheTable() async throws {
        let shells = try await Shells()
        let offered = try await shells.bash(["authcode", "-"])
        #expect(Set(offered) == (try await helpOptionNames()))
        #expect(offered.count == Set(offered).count)
    }

    // MARK: - zsh

    @Test(arguments: [false, true])
    func zshCompletesOptionsValuesAndFiles(installed: Bool) async throws {
        let shells = try await Shells()
        #expect(try await shells.zsh("authcode --pri", installed: installed) == ["--print"])
        #expect(try await shells.zsh("authcode --print e", installed: installed) == ["exec-credential", "expires_at"])
        #expect(try await shells.zsh("authcode --print=e", installed: installed) == ["exec-credential", "expires_at"])
        #expect(try await shells.zsh("authcode --pkce ", installed: installed) == ["S256", "off", "plain"])
        #expect(try await shells.zsh("authcode --completion ", installed: installed) == ["bash", "fish", "zsh"])
        #expect(try await shells.zsh("authcode --cacert c", installed: installed) == ["ca.pem", "client.key"])
        #expect(try await shells.zsh("authcode -o no", installed: installed) == ["notes\\ file.txt"])
        #expect(try await shells.zsh("authcode --cache-dir ", installed: installed) == ["tokens"])
        #expect(try await shells.zsh("authcode --scope ", installed: installed) == [])
    }

    @Test func zshOffersEveryOptionOnceAndRepeatablesAgain() async throws {
        let shells = try await Shells()
        #expect(Set(try await shells.zsh("authcode -")) == (try await helpOptionNames()))
        // A single-valued option already given is not offered again; a repeatable one is.
        #expect(try await shells.zsh("authcode --print json --pri") == [])
        #expect(try await shells.zsh("authcode --for") == ["--forget", "--form"])
        #expect(try await shells.zsh("authcode --forget --for") == ["--form"])
        #expect(try await shells.zsh("authcode --form a=1 --for") == ["--forget", "--form"])
    }

    // MARK: - fish

    @Test func fishCompletesOptionsValuesAndFiles() async throws {
        let shells = try await Shells()
        #expect(try await shells.fish("authcode --pri") == ["--print"])
        #expect(try await shells.fish("authcode --print e") == ["exec-credential", "expires_at"])
        #expect(try await shells.fish("authcode --print=e") == ["--print=exec-credential", "--print=expires_at"])
        #expect(try await shells.fish("authcode --pkce ") == ["off", "plain", "S256"])
        #expect(try await shells.fish("authcode --completion ") == ["bash", "fish", "zsh"])
        #expect(try await shells.fish("authcode --cacert c") == ["ca.pem", "client.key"])
        #expect(try await shells.fish("authcode -o no") == ["notes file.txt"])
        #expect(try await shells.fish("authcode --cache-dir ") == ["tokens/"])
        #expect(try await shells.fish("authcode --scope ") == [])
        #expect(try await shells.fish("authcode c") == [], "authcode takes options only: no file names as words")
    }

    @Test func fishOffersEveryOptionOfTheTable() async throws {
        let shells = try await Shells()
        #expect(Set(try await shells.fish("authcode -")) == (try await helpOptionNames()))
    }

    // MARK: - the option itself

    @Test func unknownShellIsUsage() async throws {
        let result = try await run(["--completion", "tcsh"])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.errorLine == "authcode: error: invalid value 'tcsh' for '--completion': expected one of bash, zsh, fish", "\(result)")
    }

    /// A completion script is printed whatever else is around: no config
    /// file is read, no setting checked.
    @Test func completionReadsNothingElse() async throws {
        let result = try await run(["--completion", "bash", "--timeout", "0"],
                                   env: ["AUTHCODE_CONFIG": "/nonexistent/authcode.conf", "AUTHCODE_PKCE": "bogus"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.hasPrefix("# bash completion for authcode"))
    }
}
