import Core

/// Every way the token cache refuses its directory or a file it keys the
/// cache with, beyond what any of authcode's own files may fail with
/// (`file`, Core/IO/FileError.swift); the CLI words each case (CLI/Errors/).
package indirect enum CacheError: Error, Equatable, Sendable {
    /// A cache file, its lock or its directory (CacheFileOpen.swift,
    /// CacheFiles.swift, FileLock.swift, CacheDirectory.swift).
    case file(FileError)
    case emptyDirectoryPath
    case cannotCreateDirectory(path: String, reason: String)
    case saltVanished(path: String)
    case saltWrongSize(path: String, size: Int)
    /// A client certificate or key that keys the cache cannot be opened as
    /// a regular file: why (CacheFileDigest.swift).
    case clientFileNotRegular(ClientFile, FileError)
    case clientFileMissing(ClientFile, path: String)
    case clientFileTooLarge(ClientFile, path: String, limitMiB: Int)
}
