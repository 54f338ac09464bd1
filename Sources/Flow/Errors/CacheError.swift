import Core

/// Every way the token cache refuses its directory or one of its files
/// (Cache/): a link, FIFO or foreign file where a cache file should be, a
/// directory others can write, a lock held too long, an I/O error (the
/// system's words). Paths as given; the CLI words each case
/// (CLI/Errors/).
package indirect enum CacheError: Error, Equatable, Sendable {
    // Opening a file (CacheFileOpen.swift).
    case symbolicLink(CacheFile, path: String)
    case notRegularFile(CacheFile, path: String, FileKind)
    case cannotOpen(CacheFile, path: String, reason: String)
    case cannotInspect(CacheFile, path: String, reason: String)
    /// The salt is readable or writable by group or others (its mode).
    case readableByOthers(CacheFile, path: String, mode: UInt32)
    case cannotUse(CacheFile, path: String, reason: String)
    case cannotRead(CacheFile, path: String, InputError)

    // The directory (CacheDirectory.swift).
    case emptyDirectoryPath
    case cannotCreateDirectory(path: String, reason: String)
    /// Not a directory, or a link to one.
    case notADirectory(CacheFile, path: String)
    case foreignOwner(CacheFile, path: String, uid: UInt32)
    /// Writable by group or others (its mode); `sharedSticky`: a sticky
    /// directory meant for all, such as /tmp.
    case writableByOthers(CacheFile, path: String, mode: UInt32, sharedSticky: Bool)

    // The salt (CacheSalt.swift).
    case saltVanished(path: String)
    case saltWrongSize(path: String, size: Int)
    /// `temporary`: the temporary file beside it could not be made.
    case cannotMakeSalt(path: String, reason: String, temporary: Bool)

    // Writing and removing (CacheFiles.swift).
    case cannotRemove(path: String, reason: String)
    /// `temporary`: the temporary file beside it could not be made.
    case cannotWrite(CacheFile, path: String, reason: String, temporary: Bool)

    // The lock (FileLock.swift).
    case cannotOpenLock(path: String)
    case cannotLock(path: String, reason: String)
    /// Another run held it longer than the timeout (seconds).
    case lockTimeout(seconds: Double, path: String)

    // A client certificate or key that keys the cache (CacheFileDigest.swift).
    /// It cannot be opened as a regular file: why.
    case clientFileNotRegular(ClientFile, CacheError)
    case clientFileMissing(ClientFile, path: String)
    case clientFileTooLarge(ClientFile, path: String, limitMiB: Int)
}

/// Which file of the cache, for the error line.
package enum CacheFile: Equatable, Sendable {
    case directory, salt, lock, entry, keptKeySet
    /// A file the user named, read to key the cache.
    case clientFile(ClientFile)
}

/// The user's files whose content keys the cache.
package enum ClientFile: Equatable, Sendable {
    /// `--cert`, `--key`, `--client-key`.
    case certificate, certificateKey, clientKey
}

/// What a path turned out to be, when it is no regular file.
package enum FileKind: Equatable, Sendable {
    case fifo, socket, directory, characterDevice, blockDevice, symbolicLink, notAFile
    /// Open said "no such device or address" and the path could not be inspected.
    case socketOrFIFO
}
