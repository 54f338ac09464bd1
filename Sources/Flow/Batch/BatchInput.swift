#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core

/// The `--users` input: a file, or standard input for `-`.
struct BatchInput {
    let descriptor: Int32
    let name: String
    let path: String

    init(path: String) throws(Failure) {
        self.path = path
        if path == "-" {
            descriptor = 0
            name = "standard input"
            return
        }
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer with
        // no time limit; reads then wait in PatientSource, bounded.
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard opened >= 0 else {
            throw Failure(.usage, "cannot read '\(path)' for '--users': \(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(opened, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
            Glibc.close(opened)
            throw Failure(.usage, "cannot read '\(path)' for '--users': it is a directory")
        }
        descriptor = opened
        name = path
    }

    func close() {
        if descriptor != 0 { _ = Glibc.close(descriptor) }
    }

    /// The number of records this shard will run, for the progress line:
    /// known only for a regular file, which is read once more to count.
    func countRecords(shard: Shard?) -> Int? {
        guard descriptor != 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let again = open(path, O_RDONLY | O_CLOEXEC)
        guard again >= 0 else { return nil }
        defer { Glibc.close(again) }
        var reader = RecordReader(source: FileDescriptorSource(descriptor: again))
        var count = 0
        while let record = try? reader.next() {
            if shard?.takes(record.number) ?? true { count += 1 }
        }
        return count
    }
}
