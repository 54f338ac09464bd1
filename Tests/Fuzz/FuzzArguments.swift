// libFuzzer harness: the hand-rolled command-line parser and option validator
// (README.md "Options"). The input is split on NUL or newline into argv; it is parsed
// with an empty environment and a standard input that holds one line.
//
// Compiled together with the Swift layers of Sources/ into one executable whose module
// is AuthCodeFuzz (see Fixtures/fuzz/run.sh), so no import is needed.

/// Keeps `@FILE` values off the real file system: every `@` that could start
/// a file name gets a directory that does not exist in front of it, so the
/// reader fails with ENOENT (`/nonexistent/../etc/passwd` does not resolve
/// either). `@-` (standard input) and a bare trailing `@` (empty path) stay,
/// since neither touches a file.
private func argumentsWithoutFiles(_ argument: Substring) -> String {
    guard argument.contains("@") else { return String(argument) }
    var out = ""
    var index = argument.startIndex
    while index < argument.endIndex {
        let character = argument[index]
        out.append(character)
        let next = argument.index(after: index)
        if character == "@", next < argument.endIndex, argument[next] != "-" {
            out += "/nonexistent/"
        }
        index = next
    }
    return out
}

private func argumentsCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let arguments = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\0" || $0 == "\n" })
        .map(argumentsWithoutFiles)

    let parser = ArgumentParser(environment: [:], reader: ValueReader(readStandardInput: { Array("stdin-secret\n".utf8) }))
    do {
        let command = try parser.parse(arguments)
        if case .run(let options) = command {
            // What the validator promises the rest of the program.
            argumentsCheck(!options.flow.client.id.isEmpty, "empty client id accepted")
            argumentsCheck(URIReference(options.flow.client.redirectURI)?.isAbsolute == true, "relative redirect_uri accepted")
            argumentsCheck((1...100).contains(options.flow.walk.maxHops), "max-hops \(options.flow.walk.maxHops)")
            argumentsCheck(options.flow.connection.transport.timeout > 0 && options.flow.connection.transport.connectTimeout > 0, "non-positive timeout")
            argumentsCheck(options.flow.connection.headers.allSatisfy { !$0.name.isEmpty && !$0.value.contains("\n") && !$0.value.contains("\r") },
                           "a header that would split the request")
        }
    } catch {
        // Every parse error is a usage error (exit 2, README.md "Exit codes").
        let report = ErrorReport(.usage(error))
        argumentsCheck(report.exitCode == .usage, "parse threw exit \(report.exitCode): \(report.line)")
        _ = report.line
    }
    return 0
}
