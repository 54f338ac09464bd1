#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// authcode-man --date YYYY-MM-DD: writes authcode.1 to stdout. The Makefile
// passes the last commit's date, so the same source gives the same page.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, arguments[0] == "--date", !arguments[1].isEmpty else {
    let usage = "usage: authcode-man --date YYYY-MM-DD\n"
    _ = write(2, usage, usage.utf8.count)
    exit(2)
}
print(ManPage.text(date: arguments[1]), terminator: "")
