import Core

/// The words of a file error (Core/IO/FileError.swift); the exit code and
/// hint are ErrorReport.swift's.
extension FileError {
    var text: ErrorText {
        switch self {
        case .symbolicLink(let file, let path):
            ErrorText("the \(Self.describe(file)) '\(path)' is a symbolic link; refusing to follow it")
        case .notRegularFile(let file, let path, let kind):
            ErrorText("the \(Self.describe(file)) '\(path)' is \(Self.describe(kind)), not a regular file; refusing to use it")
        case .cannotOpen(let file, let path, let reason):
            ErrorText("cannot open the \(Self.describe(file)) '\(path)': \(reason)")
        case .cannotInspect(let file, let path, let reason):
            ErrorText("cannot inspect the \(Self.describe(file)) '\(path)': \(reason)")
        case .readableByOthers(let file, let path, let mode):
            ErrorText("the \(Self.describe(file)) '\(path)' can be read or written by group or others (mode \(String(mode, radix: 8)))")
        case .cannotUse(let file, let path, let reason):
            ErrorText("cannot use the \(Self.describe(file)) '\(path)': \(reason)")
        case .cannotRead(let file, let path, let error):
            ErrorText("cannot read the \(Self.describe(file)) '\(path)': \(error.text)")
        case .notADirectory(let file, let path):
            ErrorText("the \(Self.describe(file)) '\(path)' is not a directory (a link is refused too)")
        case .foreignOwner(let file, let path, let uid):
            ErrorText("the \(Self.describe(file)) '\(path)' belongs to another user (uid \(uid)); refusing to keep tokens there")
        case .writableByOthers(let file, let path, let mode, _):
            ErrorText("the \(Self.describe(file)) '\(path)' can be written by group or others (mode \(String(mode, radix: 8))); refusing to keep tokens there")
        case .cannotRemove(let path, let reason):
            ErrorText("cannot remove the cache entry '\(path)': \(reason)")
        case .cannotWrite(let file, let path, let reason, let temporary):
            ErrorText("cannot write the \(Self.describe(file)) \(temporary ? "in " : "")'\(path)': \(reason)")
        case .cannotMake(let file, let path, let reason, let temporary):
            ErrorText("cannot make the \(Self.describe(file)) \(temporary ? "in " : "")'\(path)': \(reason)")
        case .cannotOpenLock(let file, let path):
            ErrorText("cannot open the \(Self.describe(file)) '\(path)'")
        case .cannotLock(let path, let reason):
            ErrorText("cannot lock '\(path)': \(reason)")
        case .lockTimeout(let file, let seconds, let path):
            ErrorText("another authcode run has held the \(Self.describe(file)) for more than \(SystemClock.describe(seconds: seconds))", at: path)
        }
    }

    static func describe(_ file: FileRole) -> String {
        switch file {
        case .cacheDirectory: "cache directory"
        case .cacheSalt: "cache key salt"
        case .cacheLock: "cache lock"
        case .cacheEntry: "cache entry"
        case .keptKeySet: "kept key set"
        case .clientFile(let file): "\(flag(file)) file"
        case .passkeyFile: "passkey file"
        case .passkeyLock: "passkey file's lock"
        }
    }

    static func flag(_ file: ClientFile) -> String {
        switch file {
        case .certificate: OptionTable.flag(\.flow.connection.transport.cert)
        case .certificateKey: OptionTable.flag(\.flow.connection.transport.key)
        case .clientKey: OptionTable.flag(\.commandLine.clientKeyFile)
        }
    }

    static func describe(_ kind: FileKind) -> String {
        switch kind {
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .directory: "a directory"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .symbolicLink: "a symbolic link"
        case .notAFile: "not a file"
        case .socketOrFIFO: "a socket or a FIFO"
        }
    }
}
