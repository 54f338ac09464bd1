"""Replicas of identity providers authcode cannot run here (README "Identity providers").

Each provider is one module in this folder (``keycloak.py``, ``okta.py``…),
written from that provider's own public sources (its templates, API schema,
SDKs), never from authcode's drivers. A module that defines

    SCENARIOS   a set of scenario names it serves (``keycloak``, ``keycloak-otp``…)
    route(ex)   answers every request under /t/<run>/<scenario>/ for them

is found here by itself; the fixture's router (scenarios.route) asks this
package first. ``Exchange`` (exchange.py) and the shared state
(oauth_store.STORE.run(ex.run)) are the same as for every other scenario.
Each replica's facts, sources and state machine are written down in
``<module>.md`` beside it, and checked by ``selftest_<module>.py``.
"""
import importlib
import os
import pkgutil

_HERE = os.path.dirname(os.path.abspath(__file__))
ROUTES = {}

for _info in pkgutil.iter_modules([_HERE]):
    if _info.name.startswith(("selftest", "_")):
        continue
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    for _name in getattr(_module, "SCENARIOS", ()):
        if _name in ROUTES:
            raise RuntimeError(f"replica scenario {_name!r} is served twice")
        ROUTES[_name] = _module.route

SCENARIOS = frozenset(ROUTES)


def route(ex):
    """Answer a request of one replica scenario."""
    ROUTES[ex.scenario](ex)
