"""Per-run state of the replicas: named tables of one provider, kept in
RunState.ext[<provider>] and touched only under the run's lock (batch runs
of many flows stay flat: each table keeps its newest MAX_ENTRIES).
"""
import threading

MAX_ENTRIES = 20000
_create = threading.Lock()


def _tables(state, provider) -> dict:
    with _create:
        return state.ext.setdefault("replica:" + provider, {})


def put(state, provider: str, table: str, key, value):
    tables = _tables(state, provider)
    with state.lock:
        tab = tables.setdefault(table, {})
        tab[key] = value
        while len(tab) > MAX_ENTRIES:
            del tab[next(iter(tab))]


def get(state, provider: str, table: str, key, pop=False):
    """The entry, or None; a key that is not a string (a JSON body may put
    anything there) finds nothing."""
    if not isinstance(key, str):
        return None
    tables = _tables(state, provider)
    with state.lock:
        tab = tables.setdefault(table, {})
        return tab.pop(key, None) if pop else tab.get(key)


def count(state, provider: str, key, add=0) -> int:
    """A counter of the `counts` table (failed passwords), `add` added."""
    tables = _tables(state, provider)
    with state.lock:
        tab = tables.setdefault("counts", {})
        tab[key] = tab.get(key, 0) + add
        return tab[key]


def reset(state, provider: str, key):
    tables = _tables(state, provider)
    with state.lock:
        tables.setdefault("counts", {}).pop(key, None)
