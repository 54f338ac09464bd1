import Core

/// The cookies of one run (RFC 6265 §5), in memory only: sessions and CSRF
/// cookies of the login pages must come back on the next hop, and nothing
/// may outlive the process (ARCHITECTURE.md "Security rules"). Works on URL parts, so it needs
/// no URL type. Not thread-safe: one walk owns one jar.
package final class CookieJar {
    /// At most this many cookies; the oldest go first (§5.3 step 12).
    static let maxCookies = 300

    private var cookies: [Cookie] = []
    private var nextSequence = 0

    package init() {}

    /// Stores every Set-Cookie value of one response. Each header is one
    /// cookie: a value is never split on commas, since Expires holds one.
    func store(_ setCookieHeaders: [String], scheme: String, host: String, path: String, now: Double) {
        for header in setCookieHeaders {
            guard let cookie = Cookie(setCookie: header, scheme: scheme, host: host, path: path, now: now) else { continue }
            store(cookie, secureScheme: scheme.lowercased() == "https", now: now)
        }
    }

    /// The Cookie header for a request, or nil when no cookie applies:
    /// longer paths first, then earlier creation (§5.4 step 2).
    func header(scheme: String, host: String, path: String, now: Double) -> String? {
        removeExpired(now: now)
        let host = host.lowercased()
        let secureScheme = scheme.lowercased() == "https"
        var requestPath = String(path.prefix { $0 != "?" && $0 != "#" })
        if requestPath.isEmpty { requestPath = "/" }
        let matching = cookies.filter { cookie in
            (cookie.hostOnly ? cookie.domain == host : Cookie.domainMatches(host, cookie.domain))
                && Cookie.pathMatches(requestPath, cookie.path)
                && (!cookie.secure || secureScheme)
        }
        guard !matching.isEmpty else { return nil }
        return matching
            .sorted { ($1.path.utf8.count, $0.creation, $0.sequence) < ($0.path.utf8.count, $1.creation, $1.sequence) }
            .map { "\($0.name)=\($0.value)" }
            .joined(separator: "; ")
    }

    /// Names in creation order, for the trace (values are secrets).
    var names: [String] {
        cookies.sorted { ($0.creation, $0.sequence) < ($1.creation, $1.sequence) }.map(\.name)
    }

    var count: Int { cookies.count }

    /// The jar as it is now, to go back to: a walk abandoned for a fresh
    /// start forgets what it collected (Flow/MethodFallback.swift).
    package struct Snapshot: Sendable {
        fileprivate let cookies: [Cookie]
        fileprivate let nextSequence: Int
    }

    var snapshot: Snapshot { Snapshot(cookies: cookies, nextSequence: nextSequence) }

    func restore(_ snapshot: Snapshot) {
        cookies = snapshot.cookies
        nextSequence = snapshot.nextSequence
    }

    // MARK: - Storage (§5.3 steps 11-12)

    private func store(_ new: Cookie, secureScheme: Bool, now: Double) {
        var cookie = new
        // 6265bis §5.7 step 16: plain http may not shadow a Secure cookie.
        if !cookie.secure, !secureScheme, cookies.contains(where: { old in
            old.secure && old.name == cookie.name
                && (Cookie.domainMatches(old.domain, cookie.domain) || Cookie.domainMatches(cookie.domain, old.domain))
                && Cookie.pathMatches(cookie.path, old.path)
        }) {
            return
        }
        if let index = cookies.firstIndex(where: { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }) {
            cookie.creation = cookies[index].creation  // a replacement keeps its place in line
            cookie.sequence = cookies[index].sequence
            cookies.remove(at: index)
        } else {
            cookie.sequence = nextSequence
            nextSequence += 1
        }
        if let expiry = cookie.expiry, expiry <= now { return }  // it only deleted the old one
        cookies.append(cookie)
        if cookies.count > Self.maxCookies { removeExpired(now: now) }
        while cookies.count > Self.maxCookies, let oldest = cookies.indices.min(by: {
            (cookies[$0].creation, cookies[$0].sequence) < (cookies[$1].creation, cookies[$1].sequence)
        }) {
            cookies.remove(at: oldest)
        }
    }

    private func removeExpired(now: Double) {
        cookies.removeAll { $0.expiry.map { $0 <= now } ?? false }
    }
}
