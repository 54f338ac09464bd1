import Core
import HTTP
import JOSE
import OAuth

/// The keys of one run, shared by every flow of a batch (ServerEndpoints
/// carries it): read at most once — the given set, a set kept in the cache
/// directory less than an hour ago (with `--cache`), else fetched — and
/// fetched once more at most, when a token names a `kid` the set lacks
/// (key rotation, OIDC Core §10.1.1). Fetched under the lock, so flows
/// that need the keys at the same moment fetch them once.
package final class KeyStore: Sendable {
    package let source: KeySetSource?
    let kept: KeptKeySet?
    /// The CLI's words, for the trace line of a set it could not keep.
    let wording: (any FlowWording)?
    private let state = Lock(State())

    struct State: Sendable {
        var keys: JWKSet?
        var refetched = false
    }

    init(source: KeySetSource?, kept: KeptKeySet? = nil, wording: (any FlowWording)? = nil) {
        self.source = source
        self.kept = kept
        self.wording = wording
    }

    /// The store for a run: `--jwks` wins over the metadata's `jwks_uri`;
    /// with `--cache` a fetched set is kept in the cache directory, keyed
    /// by its URL.
    static func make(_ given: KeySetSource?, metadata: ServerMetadata?, cache: CacheSettings, wording: any FlowWording) throws(FlowError) -> KeyStore {
        let source = given ?? metadata?.jwksURI.map(KeySetSource.url)
        guard cache.enabled, case .url(let url)? = source, let path = cache.directory else { return KeyStore(source: source) }
        do {
            let directory = try CacheDirectory(path: path)
            return KeyStore(source: source, kept: KeptKeySet(directory: directory, url: url, salt: try CacheSalt.load(in: directory)), wording: wording)
        } catch {
            throw .cache(error)
        }
    }

    /// The keys; an empty set when none can be known.
    func keys(_ fetch: KeySetFetch, now: Double) throws(FlowError) -> JWKSet {
        try state.withLock { (state: inout State) throws(FlowError) -> JWKSet in
            if let keys = state.keys { return keys }
            let keys: JWKSet
            switch source {
            case nil: keys = JWKSet(keys: [])
            case .given(let set, _): keys = set
            case .url(let url):
                if let kept, let entry = try Self.load(kept), entry.isFresh(now: now) {
                    fetch.client.trace.info("key set from the cache (fetched \(Int(max(0, now - entry.fetchedAt))) s ago)")
                    keys = entry.keys
                } else {
                    keys = try fetched(url, fetch, now: now)
                }
            }
            state.keys = keys
            return keys
        }
    }

    /// After a `kid` the set lacks: the set fetched anew, once per run;
    /// later calls get the set as it now is. Nil when there is nothing to
    /// fetch (no URL).
    func refetch(_ fetch: KeySetFetch, now: Double) throws(FlowError) -> JWKSet? {
        guard case .url(let url)? = source else { return nil }
        return try state.withLock { (state: inout State) throws(FlowError) -> JWKSet? in
            guard !state.refetched else { return state.keys }
            state.refetched = true
            fetch.client.trace.info("a token names a kid the key set lacks: fetching the key set again (key rotation)")
            let keys = try fetched(url, fetch, now: now)
            state.keys = keys
            return keys
        }
    }

    private func fetched(_ url: String, _ fetch: KeySetFetch, now: Double) throws(FlowError) -> JWKSet {
        let keys = try fetch.fetch(url)
        if let kept {
            do throws(FileError) {
                try kept.store(keys, fetchedAt: now)
            } catch {
                let why = wording?.message(.cache(.file(error))) ?? ""
                fetch.client.trace.info("key set not kept in the cache: \(why)")
            }
        }
        return keys
    }

    private static func load(_ kept: KeptKeySet) throws(FlowError) -> KeptKeySet.Entry? {
        do {
            return try kept.load()
        } catch {
            throw .cache(.file(error))
        }
    }
}
