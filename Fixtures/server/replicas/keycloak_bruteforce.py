"""Brute-force detection as Keycloak's realm setting does it (off by default).

On (scenario keycloak-bruteforce, or config "brute_force": true): every
wrong password or OTP code counts a failure; after `failure_factor` of them
the user is temporarily disabled for `wait_increment_seconds` (Keycloak's
BruteForceProtector, permanent lockout off). While disabled, even the
right password is refused, before it is checked. The text shown is
"Invalid username or password." unless the realm's "transparent user
message" is on, then "Account is temporarily disabled; contact your
administrator or retry later." (AbstractUsernameFormAuthenticator.
disabledByBruteForceError). A successful login resets the count.
"""
import secrets


def enabled(ctx) -> bool:
    return ctx.scenario.brute_force


def disabled(ctx, user) -> bool:
    return enabled(ctx) and user.disabled_until > ctx.now()


def message(ctx) -> str:
    return "accountTemporarilyDisabledMessage" if ctx.settings.transparent_user_message else "invalidUserMessage"


def failure(ctx, user):
    if not enabled(ctx):
        return
    user.failures += 1
    if user.failures % ctx.settings.failure_factor == 0:
        waves = user.failures // ctx.settings.failure_factor
        user.disabled_until = ctx.now() + ctx.settings.wait_increment_seconds * waves


def success(ctx, user):
    user.failures, user.disabled_until = 0, 0.0


def check_password(ctx, user, password) -> bool:
    """The password check; a wrong one counts as a failure."""
    good = secrets.compare_digest(user.password.encode(), password.encode())
    if not good:
        failure(ctx, user)
    return good
