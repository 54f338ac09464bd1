import Core
import Flow

/// The words of a cache error (Flow/Errors/CacheError.swift); the exit code
/// and hint are ErrorReport.swift's.
extension CacheError {
    var text: ErrorText {
        switch self {
        case .file(let error):
            error.text
        case .emptyDirectoryPath:
            ErrorText("the cache directory path is empty")
        case .cannotCreateDirectory(let path, let reason):
            ErrorText("cannot create the cache directory '\(path)': \(reason)")
        case .saltVanished(let path):
            ErrorText("the cache key salt '\(path)' vanished as it was made")
        case .saltWrongSize(let path, let size):
            ErrorText("the cache key salt '\(path)' is not \(size) bytes")
        case .clientFileNotRegular(let file, let error):
            ErrorText("with \(OptionTable.flag(\.flow.cache.enabled)), '\(FileError.flag(file))' must name a regular file: "
                      + "its content keys the cache (\(error.text.message))")
        case .clientFileMissing(let file, let path):
            ErrorText("cannot read '\(path)' for '\(FileError.flag(file))': no such file")
        case .clientFileTooLarge(let file, let path, let limit):
            ErrorText("'\(path)' for '\(FileError.flag(file))' is larger than \(limit) MiB")
        }
    }
}
