"""Editor passwords: scrypt with a random salt, compared in constant time. No web imports here,
so the command line can manage accounts without loading the web stack."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import unicodedata

from ingest.errors import ConfigError
from ingest.storage import Store

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SALT_BYTES, KEY_BYTES = 16, 32
MIN_PASSWORD = 10
INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf"})  # not counted in a password
EDITOR_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=KEY_BYTES, maxmem=64 * 2**20
    )


def hash_password(password: str) -> str:
    """`scrypt$n$r$p$salt$key`, salt and key in base64."""
    salt = secrets.token_bytes(SALT_BYTES)
    key = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(key)}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, key = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(key)
        got = _scrypt(password, base64.b64decode(salt), int(n), int(r), int(p))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)


# Checked when the name is unknown, so a wrong name costs as much time as a wrong password.
_DUMMY = hash_password(secrets.token_urlsafe(16))


def authenticate(store: Store, name: str, password: str) -> bool:
    stored = store.editor_hash(name) if EDITOR_NAME.match(name) else None
    ok = verify_password(password, stored or _DUMMY)
    return ok and stored is not None


def add_editor(store: Store, name: str, password: str) -> bool:
    """Create the account (or set a new password); True when it is new. Either way the account
    gets a new session epoch: sessions from before (a removed account's, or signed in with the
    old password) stop working."""
    if not EDITOR_NAME.match(name):
        raise ConfigError(
            f"editor name '{name}' is not allowed: letters, digits, '.', '_' or '-', "
            "at most 64, starting with a letter or digit"
        )
    check_password(name, password)
    return store.add_editor(name, hash_password(password))


def visible_length(password: str) -> int:
    """The characters of `password` that are neither whitespace (any kind, anywhere) nor
    invisible: separators (Unicode categories Zs, Zl, Zp), controls (Cc) and format characters
    (Cf: zero-width spaces and joiners, the BOM, soft hyphens)."""
    return sum(
        1
        for c in password
        if not c.isspace() and unicodedata.category(c) not in INVISIBLE_CATEGORIES
    )


def check_password(name: str, password: str) -> None:
    """At least MIN_PASSWORD characters besides whitespace and invisible characters (ten spaces,
    or ten zero-width spaces, is not a password); else ConfigError. The password itself is kept
    as typed."""
    if visible_length(password) < MIN_PASSWORD:
        raise ConfigError(
            f"the password for '{name}' is too short: at least {MIN_PASSWORD} characters, "
            "not counting spaces or invisible characters"
        )
