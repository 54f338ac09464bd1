import Core

import CCurl

/// What the flows of one batch share through libcurl's share interface
/// (curl_share_init): the TLS session cache and the DNS cache. Nothing a
/// user owns is in either. Each flow still has its own easy handle, so
/// its own connections and its own cookie jar (`CookieJar`, never
/// libcurl's): connections (CURL_LOCK_DATA_CONNECT) and cookies are never
/// shared, and a flow never sends on another flow's connection.
///
/// A shared TLS session lets the next flow's connection resume (RFC 8446
/// §2.2: a PSK from the server's ticket) instead of a full handshake with
/// certificate checks and a key exchange per user. libcurl keys its session
/// cache by host, port and TLS settings (CA, client certificate, verify
/// flags), which every flow of a batch has the same.
///
/// Thread-safe: libcurl takes one mutex per kind of data around every use
/// (CCurl/shim.c, ac_share_lock). Each `CurlTransport` holds its share, so
/// the share is cleaned up only after the last easy handle using it.
package final class CurlShare: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    private let locks: OpaquePointer

    package init() throws(Failure) {
        CurlTransport.setUpGlobally()
        guard let locks = ac_share_locks_new() else {
            throw Failure(.network, "libcurl's share locks could not be made")
        }
        guard let handle = curl_share_init() else {
            ac_share_locks_free(locks)
            throw Failure(.network, "libcurl's share handle could not be made")
        }
        let steps: [(String, () -> CURLSHcode)] = [
            ("locking", { ac_share_setopt_locking(handle, locks) }),
            ("the TLS session cache", { ac_share_setopt_data(handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) }),
            ("the DNS cache", { ac_share_setopt_data(handle, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) }),
        ]
        for (what, step) in steps {
            let code = step()
            guard code == CURLSHE_OK else {
                _ = curl_share_cleanup(handle)
                ac_share_locks_free(locks)
                throw Failure(.network, "libcurl could not share \(what): \(String(cString: curl_share_strerror(code)))")
            }
        }
        self.handle = handle
        self.locks = locks
    }

    deinit {
        // CURLSHE_IN_USE would mean an easy handle still points here and may
        // still lock: then the locks must stay (a leak, not a crash). Every
        // transport keeps its share alive past its curl_easy_cleanup, so
        // this does not happen.
        if curl_share_cleanup(handle) == CURLSHE_OK {
            ac_share_locks_free(locks)
        }
    }
}
