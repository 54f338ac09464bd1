#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `ByteSource` over an open file descriptor (a file, a pipe, stdin),
/// read with read(2). The descriptor stays open: its owner closes it.
package struct FileDescriptorSource: ByteSource {
    package let descriptor: Int32

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    package mutating func read(into buffer: inout [UInt8], max: Int) throws(RecordInputError) -> Int {
        guard max > 0 else { return 0 }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: max))
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { pointer in
                // The C function, not this method.
                systemRead(descriptor, pointer.baseAddress! + start, max)
            }
            if count >= 0 {
                buffer.removeLast(max - count)
                return count
            }
            let code = errno
            guard code == EINTR else {
                buffer.removeLast(max)
                throw .readFailed(.system(String(cString: strerror(code))))
            }
        }
    }
}

private func systemRead(_ descriptor: Int32, _ address: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    read(descriptor, address, count)
}
