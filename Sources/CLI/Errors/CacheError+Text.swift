import Core
import Flow

/// The words of a cache error (Flow/Errors/CacheError.swift); the exit code
/// and hint are ErrorReport.swift's.
extension CacheError {
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
        case .emptyDirectoryPath:
            ErrorText("the cache directory path is empty")
        case .cannotCreateDirectory(let path, let reason):
            ErrorText("cannot create the cache directory '\(path)': \(reason)")
        case .notADirectory(let file, let path):
            ErrorText("the \(Self.describe(file)) '\(path)' is not a directory (a link is refused too)")
        case .foreignOwner(let file, let path, let uid):
            ErrorText("the \(Self.describe(file)) '\(path)' belongs to another user (uid \(uid)); refusing to keep tokens there")
        case .writableByOthers(let file, let path, let mode, _):
            ErrorText("the \(Self.describe(file)) '\(path)' can be written by group or others (mode \(String(mode, radix: 8))); refusing to keep tokens there")
        case .saltVanished(let path):
            ErrorText("the cache key salt '\(path)' vanished as it was made")
        case .saltWrongSize(let path, let size):
            ErrorText("the cache key salt '\(path)' is not \(size) bytes")
        case .cannotMakeSalt(let path, let reason, let temporary):
            ErrorText("cannot make the cache key salt \(temporary ? "in " : "")'\(path)': \(reason)")
        case .cannotRemove(let path, let reason):
            ErrorText("cannot remove the cache entry '\(path)': \(reason)")
        case .cannotWrite(let file, let path, let reason, let temporary):
            ErrorText("cannot write the \(Self.describe(file)) \(temporary ? "in " : "")'\(path)': \(reason)")
        case .cannotOpenLock(let path):
            ErrorText("cannot open the cache lock '\(path)'")
        case .cannotLock(let path, let reason):
            ErrorText("cannot lock '\(path)': \(reason)")
        case .lockTimeout(let seconds, let path):
            ErrorText("another authcode run has held the cache lock for more than \(SystemClock.describe(seconds: seconds))", at: path)
        case .clientFileNotRegular(let file, let error):
            ErrorText("with \(OptionTable.flag(\.cache)), '\(Self.flag(file))' must name a regular file: its content keys the cache (\(error.text.message))")
        case .clientFileMissing(let file, let path):
            ErrorText("cannot read '\(path)' for '\(Self.flag(file))': no such file")
        case .clientFileTooLarge(let file, let path, let limit):
            ErrorText("'\(path)' for '\(Self.flag(file))' is larger than \(limit) MiB")
        }
    }

    static func describe(_ file: CacheFile) -> String {
        switch file {
        case .directory: "cache directory"
        case .salt: "cache key salt"
        case .lock: "cache lock"
        case .entry: "cache entry"
        case .keptKeySet: "kept key set"
        case .clientFile(let file): "\(flag(file)) file"
        }
    }

    static func flag(_ file: ClientFile) -> String {
        switch file {
        case .certificate: OptionTable.flag(\.cert)
        case .certificateKey: OptionTable.flag(\.key)
        case .clientKey: OptionTable.flag(\.clientKeyFile)
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
