#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// The cache's directory: created with missing parents 0700, and refused
/// (exit 2, before any request) when another user owns it or group or
/// others can write to it — for root too: a token written where someone
/// else can swap files is a token handed to them.
package struct CacheDirectory: Sendable {
    package let path: String

    /// `--cache-dir`, else `$XDG_CACHE_HOME/authcode`, else `~/.cache/authcode`.
    package static func defaultPath(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/authcode" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/authcode" }
        return nil
    }

    package init(path: String) throws(Failure) {
        guard !path.isEmpty else { throw Failure.usage("the cache directory path is empty") }
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        try create()
        try Self.checkOwnership(self.path, what: "cache directory")
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// mkdir -p with mode 0700 for each directory it makes.
    private func create() throws(Failure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw Failure(.usage, "cannot create the cache directory '\(path)': \(String(cString: strerror(errno)))",
                              hint: "Pass --cache-dir with a directory you can write.")
            }
        }
    }

    /// A directory (not a link to one), owned by us, not writable by group or others.
    static func checkOwnership(_ path: String, what: String) throws(Failure) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw Failure(.usage, "cannot inspect the \(what) '\(path)': \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(.usage, "the \(what) '\(path)' is not a directory (a link is refused too)")
        }
        try checkOwner(info, path: path, what: what)
    }

    /// Owned by us and not writable by group or others; shared with the
    /// files of the cache (CacheFileOpen.swift), which check what they opened.
    static func checkOwner(_ info: stat, path: String, what: String) throws(Failure) {
        guard info.st_uid == geteuid() else {
            throw Failure(.usage, "the \(what) '\(path)' belongs to another user (uid \(info.st_uid)); refusing to keep tokens there",
                          hint: "Pass --cache-dir with a directory of your own, mode 0700.")
        }
        guard info.st_mode & 0o022 == 0 else {
            // A sticky shared directory (/tmp, /var/tmp) is meant to stay
            // writable by all: never suggest changing it.
            let shared = info.st_mode & S_IFMT == S_IFDIR && info.st_mode & S_ISVTX != 0
            let hint = shared ? "Pass --cache-dir with a private directory instead, e.g. --cache-dir \"$HOME/.cache/authcode\"."
                : "chmod go-w '\(path)', or pass --cache-dir with a directory of mode 0700."
            throw Failure(.usage, "the \(what) '\(path)' can be written by group or others (mode \(String(info.st_mode & 0o7777, radix: 8))); refusing to keep tokens there",
                          hint: hint)
        }
    }
}
