#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// The cache's directory: created with missing parents 0700, and refused
/// (before any request) when another user owns it or group or
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

    package init(path: String) throws(CacheError) {
        guard !path.isEmpty else { throw .emptyDirectoryPath }
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        try create()
        do {
            try Self.checkOwnership(self.path, what: .cacheDirectory)
        } catch {
            throw .file(error)
        }
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// mkdir -p with mode 0700 for each directory it makes.
    private func create() throws(CacheError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .cannotCreateDirectory(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// A directory (not a link to one), owned by us, not writable by group or others.
    static func checkOwnership(_ path: String, what: FileRole) throws(FileError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw .cannotInspect(what, path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .notADirectory(what, path: path)
        }
        try checkOwner(info, path: path, what: what)
    }

    /// Owned by us and not writable by group or others; shared with the
    /// files of the cache (CacheFileOpen.swift), which check what they opened.
    static func checkOwner(_ info: stat, path: String, what: FileRole) throws(FileError) {
        guard info.st_uid == geteuid() else {
            throw .foreignOwner(what, path: path, uid: UInt32(info.st_uid))
        }
        guard info.st_mode & 0o022 == 0 else {
            // A sticky shared directory (/tmp, /var/tmp) is meant to stay
            // writable by all: the hint never suggests changing it.
            let shared = info.st_mode & S_IFMT == S_IFDIR && info.st_mode & S_ISVTX != 0
            throw .writableByOthers(what, path: path, mode: UInt32(info.st_mode & 0o7777), sharedSticky: shared)
        }
    }
}
