#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread running one closure. Flows are blocking (one libcurl easy
/// handle each), so a batch runs them on plain threads; see
/// ARCHITECTURE.md "Batch" for why threads and not libcurl's multi API.
/// The closure is `@Sendable`: the compiler checks that whatever it shares
/// with the thread that made it may be shared.
final class Worker {
    private var thread = pthread_t()

    /// What crosses to the new thread through pthread_create's one pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Nil if the system refused another thread.
    init?(_ run: @escaping @Sendable () -> Void) {
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // A flow needs little stack; 512 KiB keeps 256 workers cheap.
        pthread_attr_setstacksize(&attributes, 512 << 10)
        let started = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, body)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            return nil
        }
    }

    func join() {
        pthread_join(thread, nil)
    }
}
