import Core
import HTTP
import OAuth

/// `--cache`: reuse a token between runs, refresh it when stale, mint it
/// when there is nothing to reuse — before any network on a hit. Runs with
/// the same key take an exclusive lock across check, mint and store and
/// read the entry again once they hold it, so N runs that start together
/// mint (or refresh) once.
struct TokenCache {
    let directory: CacheDirectory
    let key: String
    let minTTL: Double
    /// Whether the printed token is the id_token (`--print exec-credential`):
    /// then its expiry, not the access token's, decides freshness.
    let carriesIDToken: Bool
    let lockTimeout: Double
    let trace: Trace
    /// Seconds since 1970: the system's clock, or a test's.
    let now: () -> Double
    /// The CLI's words for a warning that quotes an error.
    let wording: any FlowWording
    let warn: (String) -> Void

    var entryPath: String { directory.file(key + ".token") }
    var lockPath: String { directory.file(key + ".lock") }

    /// What a run does when it holds the lock and the entry is not usable.
    struct Minting {
        /// A full flow (or the given `--refresh-token` redeemed), given the
        /// entry's answer if there is one: a refreshed id_token must name
        /// the same user as the entry's (OIDC Core §12.2).
        var mint: (TokenResponse?) throws(FlowError) -> MintedToken
        /// The entry's refresh token redeemed, given the entry's answer.
        var refresh: (String, TokenResponse) throws(FlowError) -> TokenResponse
    }

    func obtain(_ minting: Minting) throws(FlowError) -> MintedToken {
        let before = try load(warning: false)
        if let before, let token = usable(before, now: now(), margin: minTTL) {
            trace.info("token from the cache (valid for \(remaining(before) ?? 0) s more)")
            return token
        }
        let lock = try cached { () throws(FileError) in try FileLock(path: lockPath, timeout: lockTimeout) }
        defer { withExtendedLifetime(lock) {} }
        let now = self.now()
        var current = try load()
        // Another run wrote it while we waited: use it if still valid at
        // all, so tokens shorter-lived than --min-ttl cause no stampede.
        if let current, current.receivedAt != before?.receivedAt, let token = usable(current, now: now, margin: 0) {
            trace.info("token from the cache, written by another run while this one waited")
            return token
        }
        if let current, let token = usable(current, now: now, margin: minTTL) {
            return token
        }
        var refreshRefused = false
        if let entry = current, let stale = entry.token, let refreshToken = stale.refreshToken {
            let (refreshed, refused) = try refresh(entry, stale: stale, with: refreshToken, minting)
            if let refreshed { return refreshed }
            refreshRefused = refused
            current = nil
        }
        var minted: MintedToken
        do throws(FlowError) {
            minted = try minting.mint(current?.token)
        } catch {
            if current != nil { try dropAfterRefusedAnswer(error) }
            // A CI step that expected a cache hit: both failures are news (issue 31 item 2).
            if refreshRefused { throw .afterRefreshRefused(error) }
            throw error
        }
        // A resource server's nonce belongs to the server, not the token.
        minted.dpopNonces = (current ?? before)?.nonces ?? [:]
        store(minted)
        return minted
    }

    /// After `--call`: the token refreshed on the resource server's
    /// `invalid_token` (nil: the same token) and the DPoP nonces the
    /// resource servers gave, written to the entry under the lock — unless
    /// another run replaced the entry meanwhile and nothing was refreshed.
    func keep(_ refreshed: MintedToken?, nonces: [String: String]) {
        do throws(FlowError) {
            let lock = try cached { () throws(FileError) in try FileLock(path: lockPath, timeout: lockTimeout) }
            defer { withExtendedLifetime(lock) {} }
            if var token = refreshed {
                token.dpopNonces = nonces
                store(token)
                return
            }
            guard var entry = try load(), entry.nonces != nonces else { return }
            entry.nonces = nonces
            try cached { () throws(FileError) in try entry.store(at: entryPath) }
            trace.info("the resource servers' DPoP nonces kept in the cache entry")
        } catch {
            warn("authcode: warning: \(wording.message(error))")
        }
    }

    /// After `--call`'s refresh was refused (invalid_grant): the entry's
    /// tokens are both of no use.
    func drop() {
        do throws(FlowError) {
            let lock = try cached { () throws(FileError) in try FileLock(path: lockPath, timeout: lockTimeout) }
            defer { withExtendedLifetime(lock) {} }
            _ = try cached { () throws(FileError) in try CacheFiles.remove(entryPath) }
            trace.info("the refresh token was refused (invalid_grant); the cache entry is dropped")
        } catch {
            warn("authcode: warning: \(wording.message(error))")
        }
    }

    /// `--forget`: this key's entry gone (none is fine); no request.
    func forget() throws(FlowError) {
        let lock = try cached { () throws(FileError) in try FileLock(path: lockPath, timeout: lockTimeout) }
        defer { withExtendedLifetime(lock) {} }
        let removed = try cached { () throws(FileError) in try CacheFiles.remove(entryPath) }
        // Run twice, --forget says what it found each time (issue 31 item 12).
        trace.info(removed ? "cache entry for these settings removed" : "no cache entry for these settings: nothing to remove")
    }

    // MARK: - Steps

    /// The stale entry refreshed and stored, nil when the server answered
    /// invalid_grant (`refused`: the entry is dropped; the full flow runs
    /// next) or the refreshed token is not usable either.
    private func refresh(_ entry: CacheEntry, stale: TokenResponse, with refreshToken: String,
                         _ minting: Minting) throws(FlowError) -> (MintedToken?, refused: Bool) {
        trace.info("cached token is stale; refreshing it")
        let answer: TokenResponse
        do throws(FlowError) {
            answer = try minting.refresh(refreshToken, stale)
        } catch {
            try dropAfterRefusedAnswer(error)
            guard case .oauth(.tokenRefused(_, let object, _)) = error, object.code == .invalidGrant else { throw error }
            trace.info("the refresh token was refused (invalid_grant); dropping the entry and logging in again")
            _ = try cached { () throws(FileError) in try CacheFiles.remove(entryPath) }
            return (nil, true)
        }
        // The answer's fields replace the entry's; the others (a refresh
        // token that was not rotated, the id_token) are kept.
        let merged = TokenMerge.merge(answer: answer, into: stale)
        var token = MintedToken(response: merged, receivedAt: now(), source: .refresh)
        token.dpopNonces = entry.nonces
        store(token)
        guard usable(CacheEntry(body: token.response.body, receivedAt: token.receivedAt), now: token.receivedAt, margin: 0) != nil else {
            trace.info("the refreshed token is not usable either; logging in again")
            return (nil, false)
        }
        return (token, false)
    }

    /// A refresh answer whose id_token failed its checks — another user,
    /// another issuer, a bad signature — drops the entry (OIDC Core §12.2):
    /// its refresh token leads to answers that cannot be used.
    private func dropAfterRefusedAnswer(_ error: FlowError) throws(FlowError) {
        guard case .answerRefused(_, _, let inner) = error, inner.isSecurityRefusal else { return }
        _ = try cached { () throws(FileError) in try CacheFiles.remove(entryPath) }
        trace.info("the refreshed token was refused; its cache entry is dropped")
    }

    /// A cache file operation, its error as the flow's.
    private func cached<T>(_ body: () throws(FileError) -> T) throws(FlowError) -> T {
        do {
            return try body()
        } catch {
            throw .cache(.file(error))
        }
    }

    private func load(warning: Bool = true) throws(FlowError) -> CacheEntry? {
        guard let bytes = try cached({ () throws(FileError) in try CacheEntry.load(from: entryPath) }) else { return nil }
        guard let entry = CacheEntry.decode(bytes) else {
            if warning { warn("authcode: warning: the cache entry \(entryPath) is corrupt or truncated; ignoring it and replacing it") }
            return nil
        }
        return entry
    }

    private func store(_ token: MintedToken) {
        guard expiry(of: token) != nil else {
            trace.info("token not cached: its lifetime is unknown (no expires_in, no JWT exp)")
            return
        }
        do throws(FileError) {
            try CacheEntry(body: token.response.body, receivedAt: token.receivedAt, nonces: token.dpopNonces).store(at: entryPath)
            trace.info("token stored in the cache")
        } catch {
            warn("authcode: warning: \(wording.message(.cache(.file(error))))")
        }
    }

    /// The entry as a token if it stays valid `margin` seconds from `now`.
    private func usable(_ entry: CacheEntry, now: Double, margin: Double) -> MintedToken? {
        guard let response = entry.token else { return nil }
        var token = MintedToken(response: response, receivedAt: entry.receivedAt, source: .cache)
        token.dpopNonces = entry.nonces
        guard let expiry = expiry(of: token), expiry - now >= max(margin, 0.001) else { return nil }
        return token
    }

    private func expiry(of token: MintedToken) -> Double? {
        guard let access = token.accessTokenExpiry else { return nil }
        guard carriesIDToken, token.response.idToken != nil else { return access }
        guard let id = token.idTokenExpiry else { return nil }
        return min(access, id)
    }

    private func remaining(_ entry: CacheEntry) -> Int? {
        guard let response = entry.token,
              let expiry = expiry(of: MintedToken(response: response, receivedAt: entry.receivedAt, source: .cache)) else { return nil }
        let seconds = expiry - now()
        return seconds.isFinite && abs(seconds) < 1e12 ? Int(seconds) : nil
    }
}
