/// A file authcode keeps for itself — the token cache's directory, salt,
/// locks and entries, a passkey file — or reads to key the cache, refused
/// or failed: a link, FIFO or foreign file where it should be, a mode that
/// lets others in, a lock held too long, an I/O error in the system's
/// words. Values only; the CLI words each case (CLI/Errors/FileError+Text.swift).
/// In Core because both the cache (Flow) and a passkey store (Walk/WebAuthn)
/// report it.
package enum FileError: Error, Equatable, Sendable {
    case symbolicLink(FileRole, path: String)
    case notRegularFile(FileRole, path: String, FileKind)
    case cannotOpen(FileRole, path: String, reason: String)
    case cannotInspect(FileRole, path: String, reason: String)
    /// Readable or writable by group or others where only the owner may be (its mode).
    case readableByOthers(FileRole, path: String, mode: UInt32)
    case cannotUse(FileRole, path: String, reason: String)
    case cannotRead(FileRole, path: String, InputError)
    /// Not a directory, or a link to one.
    case notADirectory(FileRole, path: String)
    case foreignOwner(FileRole, path: String, uid: UInt32)
    /// Writable by group or others (its mode); `sharedSticky`: a sticky
    /// directory meant for all, such as /tmp.
    case writableByOthers(FileRole, path: String, mode: UInt32, sharedSticky: Bool)
    case cannotRemove(path: String, reason: String)
    /// `temporary`: the temporary file beside it could not be made.
    case cannotWrite(FileRole, path: String, reason: String, temporary: Bool)
    /// A new file could not be made (never replacing one); `temporary` as above.
    case cannotMake(FileRole, path: String, reason: String, temporary: Bool)
    case cannotOpenLock(FileRole, path: String)
    case cannotLock(path: String, reason: String)
    /// Another run held the lock longer than the timeout (seconds).
    case lockTimeout(FileRole, seconds: Double, path: String)
}

/// Which of authcode's files, for the error line.
package enum FileRole: Equatable, Sendable {
    case cacheDirectory, cacheSalt, cacheLock, cacheEntry, keptKeySet
    /// A file the user named, read to key the cache.
    case clientFile(ClientFile)
    /// `--passkey FILE`, and the lock beside it.
    case passkeyFile, passkeyLock
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
