import Core

/// The `--users` input: a file, or standard input for `-`.
struct BatchInput {
    let descriptor: Int32
    let name: String
    let path: String

    init(path: String) throws(BatchError) {
        self.path = path
        if path == "-" {
            descriptor = 0
            name = "standard input"
            return
        }
        // A FIFO is opened without waiting for a writer; reads then wait
        // in PatientSource, bounded.
        do throws(InputError) {
            descriptor = try InputFile.open(path)
        } catch {
            throw .unreadableInput(path: path, error)
        }
        name = path
    }

    func close() {
        if descriptor != 0 { InputFile.close(descriptor) }
    }

    /// The number of records this shard will run, for the progress line:
    /// known only for a regular file, which is read once more to count.
    func countRecords(shard: Shard?) -> Int? {
        guard descriptor != 0, InputFile.isRegularFile(descriptor), let again = try? InputFile.open(path) else { return nil }
        defer { InputFile.close(again) }
        var reader = RecordReader(source: FileDescriptorSource(descriptor: again))
        var count = 0
        while let record = try? reader.next() {
            if shard?.takes(record.number) ?? true { count += 1 }
        }
        return count
    }
}
