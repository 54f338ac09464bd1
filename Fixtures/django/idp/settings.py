"""Settings of the throw-away django-oauth-toolkit server used by authcode's
interop tests. Everything run-specific comes from the environment, set by
run_server.py:

  IDP_STATE_DIR   temp dir holding db.sqlite3 and oidc.key (RSA PEM)
  IDP_PORT        port the server listens on (for the issuer URL)
  IDP_SECRET_KEY  random per run
"""
import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
STATE_DIR = Path(os.environ["IDP_STATE_DIR"])
PORT = int(os.environ["IDP_PORT"])
ISSUER = f"http://127.0.0.1:{PORT}/o"

SECRET_KEY = os.environ["IDP_SECRET_KEY"]
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "oauth2_provider",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]

ROOT_URLCONF = "idp.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": STATE_DIR / "db.sqlite3",
        # Batch tests log in 8 users at once: wait for SQLite's write lock
        # instead of failing a token request with "database is locked" (500);
        # IMMEDIATE takes it when a transaction starts, so no transaction has
        # to upgrade a read lock (which SQLite refuses at once, timeout or not).
        "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE"},
    }
}

# Test fixture only: Django's default PBKDF2 (1,000,000 rounds) costs ~0.5 s per
# login and per client-secret check (DOT hashes client secrets with the same
# hashers). A salted MD5 keeps every test fast; the wire flow is unchanged.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/o/applications/"
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en-us"
USE_I18N = True
STATIC_URL = "static/"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": (STATE_DIR / "oidc.key").read_text(),
    "OIDC_ISS_ENDPOINT": ISSUER,
    "SCOPES": {
        "openid": "OpenID Connect",
        "profile": "Your profile",
        "email": "Your email address",
        "read": "Read access",
    },
    "DEFAULT_SCOPES": ["read"],
    "PKCE_REQUIRED": True,
    # RFC 9207: iss in the authorization response (and advertised in discovery).
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    # Show the consent page of a skip_authorization=False client every time,
    # even if an earlier token of the same user/client covers the scopes.
    # (A client can still override it per request with ?approval_prompt=auto.)
    "REQUEST_APPROVAL_PROMPT": "force",
}

# run_server.py --log sets IDP_LOG=1: request lines and errors to stderr.
# Otherwise all logging is discarded.
_LOG_HANDLER = (
    {"class": "logging.StreamHandler"} if os.environ.get("IDP_LOG") else {"class": "logging.NullHandler"}
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"out": _LOG_HANDLER},
    "root": {"handlers": ["out"], "level": "WARNING"},
    "loggers": {
        "django": {"handlers": ["out"], "level": "INFO", "propagate": False},
    },
}
