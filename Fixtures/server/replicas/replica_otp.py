"""One-time codes of the replicas' TOTP factors, checked by pyotp (RFC 6238),
an independent implementation, never by code of ours. pyotp comes with the
venv (Fixtures/django/requirements.txt); without it the replicas that need
it answer 501 "pyotp not installed", as totp.py's scenarios do.
"""


def available() -> bool:
    try:
        import pyotp  # noqa: F401, PLC0415 (optional dependency)
    except ImportError:
        return False
    return True


def verify(seed: str, code) -> bool:
    """SHA-1, 6 digits, 30 s; one step of drift either way (RFC 6238 §5.2)."""
    import pyotp  # noqa: PLC0415
    return isinstance(code, str) and pyotp.TOTP(seed).verify(code.strip(), valid_window=1)
