// libFuzzer harness: config files (`-K FILE`, `AUTHCODE_CONFIG`) in curl's
// syntax (CLI/ConfigFile.swift; README.md "Config files"). The input is a
// config file's bytes. It goes:
// 1. through `ConfigFile.parse` with the real option index, twice: the same
//    entries or the same error both times. An accepted entry names an
//    option that may be set from a file (`OptionRole.setting`), its line
//    numbers increase and stay within the file's lines, its value holds no
//    NUL; a `--form`/`--param` value whose secret-named field is sent as
//    written (VALUE not `@FILE`) counts as a literal secret. The entries, written again one per line as `--long "value"` with
//    the escapes of ConfigFile's doc comment (`\"`, `\\`, `\t`, `\n`, `\r`,
//    `\v`; any other byte, non-ASCII included, stands for itself between
//    quotes), parse to the same options and values: the quoting is exact.
// 2. from disk through `ConfigFile.read`, at 0600 and at 0644, in a
//    temporary directory: at 0600 it reads as it parses (entries or error);
//    at 0644 a file holding a literal secret (`holdsLiteralSecret`) is
//    refused, naming the first such entry's line, and one without is read
//    as at 0600.
// 3. through `ArgumentParser.parse(["-K", FILE, …])`, as `authcode -K FILE`
//    takes it (`addConfigFiles`, then `OptionRules.validate`), with an empty
//    environment and a standard input holding one line. The parsed entries
//    are written to a 0600 file with every `@FILE` turned into a name under
//    `/nonexistent/` and every path option's value (`--passkey`, `--users`,
//    keys, `-o`, …) put under `/nonexistent/`, so no real file is read,
//    created or written (as FuzzArguments.swift guards `@FILE`).
// Every error is a UsageError, exit 2 through ErrorReport, written as
// `AuthCode.run` writes a parse error (an empty Redactor: nothing is known
// to be secret yet), one line, no control character, its length bounded by
// the file's; and it holds no literal secret of the file (the whole value
// of a secret-holding entry, or its secret part: the value after `=`/`:`,
// a step's body, a proxy's userinfo) unless that text is also the file's
// path or a value that is not secret, or part of the line the error is
// about (an unknown option echoes its own name), or of an option's name
// (an error names the option).
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed.

#if canImport(Glibc)
import Glibc
#endif

private func configCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

/// A temporary directory of our own, made once (0700): under FUZZ_TMPDIR
/// (run.sh points it into .build-fuzz and empties it after each harness),
/// else /tmp.
private let configDirectory: String = {
    let parent = getenv("FUZZ_TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(parent)/authcode-fuzz-config-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    return String(cString: made)
}()

/// Writes `bytes` to `name` in our directory with exactly `mode` (fchmod,
/// so the umask does not decide); nil if the file system refused.
private func configWrite(_ bytes: [UInt8], name: String, mode: mode_t) -> String? {
    let path = configDirectory + "/" + name
    unlink(path)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
        let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard result > 0 else { return nil }
        written += result
    }
    guard fchmod(descriptor, mode) == 0 else { return nil }
    return path
}

private func configHolds(_ text: String, _ part: String) -> Bool {
    let haystack = Array(text.utf8), needle = Array(part.utf8)
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
}

/// The value between double quotes with the escapes ConfigFile reads back
/// exactly: backslash, quote, and the four controls it names. A CR must be
/// escaped (a CR before the line feed is dropped as a CRLF line end), a
/// line feed too (it would end the line).
private func configQuoted(_ value: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for byte in value.utf8 {
        switch byte {
        case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
        case UInt8(ascii: "\""): out += Array("\\\"".utf8)
        case 0x09: out += Array("\\t".utf8)
        case 0x0A: out += Array("\\n".utf8)
        case 0x0D: out += Array("\\r".utf8)
        case 0x0B: out += Array("\\v".utf8)
        default: out.append(byte)
        }
    }
    out.append(UInt8(ascii: "\""))
    return out
}

/// The entries as a file of `--long "value"` lines (a switch alone).
private func configRewritten(_ entries: [(declaration: OptionDeclaration, value: String)]) -> [UInt8] {
    var out: [UInt8] = []
    for entry in entries {
        out += Array("--\(entry.declaration.long)".utf8)
        if entry.declaration.takesValue {
            out.append(UInt8(ascii: " "))
            out += configQuoted(entry.value)
        }
        out.append(0x0A)
    }
    return out
}

/// Every `@` that could start a file name gets `/nonexistent/` after it;
/// `@-` (standard input, scripted) stays, and so does `@@` (a literal `@`:
/// a value is resolved where it starts, after `=` or after a step's URL,
/// never just after another `@`, so pairing from the left keeps a single
/// `@` single).
private func configWithoutAtFiles(_ value: String) -> String {
    guard value.contains("@") else { return value }
    var out = ""
    var index = value.startIndex
    while index < value.endIndex {
        let character = value[index]
        out.append(character)
        let next = value.index(after: index)
        if character == "@", next < value.endIndex, value[next] == "@" {
            out.append("@")
            index = value.index(after: next)
            continue
        }
        if character == "@", next < value.endIndex, value[next] != "-" {
            out += "/nonexistent/"
        }
        index = next
    }
    return out
}

/// A value as the parser may take it without touching a real file: paths
/// (`OptionValueKind.file`/`.directory`) under `/nonexistent/` — except a
/// `--jwks` given inline (`{`) or as a URL, which reads no file
/// (VerificationValues.swift) — and `@FILE` kept off the file system.
private func configWithoutFiles(_ declaration: OptionDeclaration, _ value: String) -> String {
    guard declaration.takesValue else { return value }
    if declaration.kind == .file || declaration.kind == .directory {
        let trimmed = value.trimmed.lowercased()
        let readsNoFile = declaration.long == "jwks"
            && (trimmed.hasPrefix("{") || trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://"))
        if !readsNoFile { return "/nonexistent/" + configWithoutAtFiles(value) }
    }
    return configWithoutAtFiles(value)
}

/// The secret text of a value that holds a literal secret: the whole value
/// and the part that is the secret (after the name, a step's body, a
/// proxy's userinfo). Only parts of 8 characters or more: shorter ones
/// occur by chance in the words of an error line.
private func configSecrets(_ declaration: OptionDeclaration, _ value: String) -> [String] {
    guard declaration.holdsLiteralSecret(value) else { return [] }
    var parts = [value]
    switch declaration.secret {
    case .named(let separator, _):
        if let cut = value.firstIndex(of: separator) {
            parts.append(String(value[value.index(after: cut)...].drop(while: { $0 == " " || $0 == "\t" })))
        }
    case .body:
        let split = value.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        if split.count == 3 { parts.append(String(split[2])) }
    case .urlCredentials:
        if let userinfo = URIReference(value)?.userinfo { parts.append(userinfo) }
    case .always, .never:
        break
    }
    return parts.filter { $0.count >= 8 }
}

/// An error as the user sees it after a parse failed: `AuthCode.run` writes
/// `Redactor().finished(markedLine)` and the hint likewise.
/// `secrets`: the literal secrets the error must not show; `benign`: text
/// that may show whatever it holds (the path, values that are not secret,
/// the line the error is about).
private func configWorded(_ error: UsageError, inputCount: Int, secrets: [String], benign: [String], what: String) {
    let report = ErrorReport(.usage(error))
    configCheck(report.exitCode == .usage, "\(what): exit \(report.exitCode), not 2: \(report.line)")
    let redactor = Redactor()
    let line = redactor.finished(report.markedLine)
    let hint = report.hint.map(redactor.finished) ?? ""
    for text in [line, hint] {
        configCheck(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                    "\(what): a control character in the error: \(text.debugDescription)")
        // An unknown name is echoed whole: the bound is the file's own size
        // (each byte escaped as at most `\u0085`, 6 characters), not a constant.
        configCheck(text.utf8.count <= 512 + configDirectory.utf8.count + 6 * inputCount,
                    "\(what): an error of \(text.utf8.count) bytes for a file of \(inputCount)")
    }
    for secret in secrets where !(benign + configOptionNames).contains(where: { configHolds($0, secret) }) {
        configCheck(!configHolds(line, secret) && !configHolds(hint, secret),
                    "\(what): the error shows a literal secret of the file (\(secret.utf8.count) bytes): \(line.debugDescription)")
    }
}

/// Every option's names as errors write them: a secret whose text is an
/// option's name (`client-secret client-secret`) shows in an error that
/// names the option, and that is not the secret showing.
private let configOptionNames: [String] = OptionTable.index.declarations.flatMap { declaration in
    ["--" + declaration.long] + declaration.aliases.map { "--" + $0 } + (declaration.short.map { ["-\($0)"] } ?? [])
}

private func configSame(_ a: [ConfigFile.Entry], _ b: [ConfigFile.Entry]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy {
        $0.declaration.long == $1.declaration.long && $0.value == $1.value && $0.line == $1.line && $0.warning == $1.warning
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    let path = configDirectory + "/team.conf"

    // 1. Parsed from memory, twice.
    let parsed: Result<[ConfigFile.Entry], UsageError>
    do throws(UsageError) {
        parsed = .success(try ConfigFile.parse(bytes, path: path))
    } catch {
        parsed = .failure(error)
    }
    do throws(UsageError) {
        let again = try ConfigFile.parse(bytes, path: path)
        guard case .success(let first) = parsed, configSame(first, again) else {
            fatalError("invariant broken: parsing the same file twice gave entries once and not the other time, or other entries")
        }
    } catch {
        guard case .failure(let first) = parsed, first == error else {
            fatalError("invariant broken: parsing the same file twice failed once, or with another error")
        }
    }

    switch parsed {
    case .failure(let error):
        // Secrets of the lines before the one refused; the refused line
        // itself may be echoed (its unknown name, its short options).
        let lineNumber = error.location.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        var secrets: [String] = []
        var benign = [path]
        if lineNumber > 1, let before = try? ConfigFile.parse(Array(lines.prefix(lineNumber - 1).joined(separator: [0x0A])), path: path) {
            for entry in before {
                let secret = configSecrets(entry.declaration, entry.value)
                secrets += secret
                if secret.isEmpty { benign.append(entry.value) }
            }
        }
        if lineNumber >= 1, lineNumber <= lines.count {
            benign.append(String(decoding: lines[lineNumber - 1], as: UTF8.self))
        } else {
            benign += lines.map { String(decoding: $0, as: UTF8.self) }
        }
        configWorded(error, inputCount: count, secrets: secrets, benign: benign, what: "parse")

    case .success(let entries):
        var previous = 0
        for entry in entries {
            configCheck(entry.declaration.role == .setting, "'--\(entry.declaration.long)' (\(entry.declaration.role)) accepted from a file")
            configCheck(entry.line > previous && entry.line <= lines.count, "line \(entry.line) after \(previous), of \(lines.count)")
            previous = entry.line
            configCheck(!entry.value.utf8.contains(0), "a NUL in the value of '--\(entry.declaration.long)'")
            configCheck(entry.declaration.takesValue || entry.value == "true", "switch '--\(entry.declaration.long)' has value \(entry.value.debugDescription)")
            configCheck(OptionTable.index.named(entry.declaration.long)?.long == entry.declaration.long, "'--\(entry.declaration.long)' is not its own name")
            // The secret rule reads a value as the parser will: `--form` and
            // `--param` (OptionValues.pair) send VALUE itself unless it is
            // `@FILE` (ValueReader.resolve), so a secret-named field whose
            // VALUE is sent as written is a literal secret (README.md
            // "Config files": "An @FILE reference is not a secret").
            if case .named(let separator, true) = entry.declaration.secret, let cut = entry.value.firstIndex(of: separator),
               cut != entry.value.startIndex, Redactor.isSecretName(entry.value[..<cut].trimmed) {
                let sent = entry.value[entry.value.index(after: cut)...]
                let named = sent.hasPrefix("@") && !sent.hasPrefix("@@")
                configCheck(sent.isEmpty || named || entry.declaration.holdsLiteralSecret(entry.value),
                            "'--\(entry.declaration.long)' sends a secret-named field's value as written, but the rule does not see a literal secret")
            }
        }
        // Round trip through the quoting rules.
        let rewritten = configRewritten(entries.map { ($0.declaration, $0.value) })
        do throws(UsageError) {
            let back = try ConfigFile.parse(rewritten, path: path)
            configCheck(back.count == entries.count && zip(back, entries).allSatisfy { $0.declaration.long == $1.declaration.long && $0.value == $1.value },
                        "the entries written as --long \"value\" lines parse to other entries")
        } catch {
            fatalError("invariant broken: the entries written as --long \"value\" lines do not parse: \(error.message) (\(error.location ?? ""))")
        }
    }

    // 2. The same bytes from disk, at 0600 and at 0644.
    let secrets: [String]
    let benign: [String]
    if case .success(let entries) = parsed {
        secrets = entries.flatMap { configSecrets($0.declaration, $0.value) }
        benign = [path] + entries.filter { !$0.declaration.holdsLiteralSecret($0.value) }.map(\.value)
    } else {
        secrets = []
        benign = [path]
    }
    for mode: mode_t in [0o600, 0o644] {
        guard configWrite(bytes, name: "team.conf", mode: mode) == path else { continue }
        do throws(UsageError) {
            let file = try ConfigFile.read(path)
            guard case .success(let entries) = parsed, configSame(entries, file.entries) else {
                fatalError("invariant broken: at \(String(mode, radix: 8)) the file reads, but not as it parses")
            }
            configCheck(mode == 0o600 || !entries.contains { $0.declaration.holdsLiteralSecret($0.value) },
                        "a file others can read is accepted with a literal secret")
        } catch {
            switch parsed {
            case .failure(let parseError):
                configCheck(error == parseError, "at \(String(mode, radix: 8)) the file fails otherwise than it parses: \(error.message)")
            case .success(let entries):
                let exposed = entries.first { $0.declaration.holdsLiteralSecret($0.value) }
                configCheck(mode == 0o644 && exposed != nil, "at \(String(mode, radix: 8)) a file that parses is refused: \(error.message)")
                if let exposed {
                    configCheck(configHolds(error.message, "'--\(exposed.declaration.long)' on line \(exposed.line))"),
                                "the refusal does not name the first secret's option and line: \(error.message)")
                }
            }
            configWorded(error, inputCount: count, secrets: secrets, benign: benign, what: "read at \(String(mode, radix: 8))")
        }
    }

    // 3. As `authcode -K FILE` takes it, with no real file read.
    guard case .success(let entries) = parsed else { return 0 }
    let guarded = entries.map { (declaration: $0.declaration, value: configWithoutFiles($0.declaration, $0.value)) }
    guard let guardedPath = configWrite(configRewritten(guarded), name: "guarded.conf", mode: 0o600) else { return 0 }
    // Odd lengths: the file alone; even: the file under a minimal command line.
    let arguments = count % 2 == 1 ? ["-K", guardedPath] : [
        "-K", guardedPath, "--authorize-url", "https://as.example/authorize", "--token-url", "https://as.example/token",
        "--client-id", "app", "--redirect-uri", "http://127.0.0.1:8765/cb",
    ]
    do throws(UsageError) {
        // A reader per parse: it remembers which option used standard input.
        let reader = ValueReader(readStandardInput: { Array("stdin-line\n".utf8) })
        let command = try ArgumentParser(environment: [:], reader: reader).parse(arguments)
        if case .run(let options) = command {
            configCheck(!options.flow.client.id.isEmpty, "empty client id accepted")
            configCheck(options.flow.connection.headers.allSatisfy { !$0.value.contains("\n") && !$0.value.contains("\r") },
                        "a header from a config file that would split the request")
        }
    } catch {
        let guardedSecrets = guarded.flatMap { configSecrets($0.declaration, $0.value) }
        let guardedBenign = [guardedPath] + arguments + guarded.filter { !$0.declaration.holdsLiteralSecret($0.value) }.map(\.value)
        configWorded(error, inputCount: count + 32 * guarded.count, secrets: guardedSecrets, benign: guardedBenign, what: "-K")
    }
    return 0
}
