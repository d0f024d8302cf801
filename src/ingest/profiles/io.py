"""Profile files: one `<id>.json` per person in INGEST_PROFILES_DIR, read and written atomically.

A file is read within bounds (`ProfileLimits`, from INGEST_MAX_PROFILE_BYTES, _STRING and
_CLAIMS): its size before it is read, then its nesting, strings and claims before the model
sees it, so a 200 MB name or 300,000 claims is a ProfileError naming the file in a moment.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ingest.errors import ProfileError
from ingest.files import write_atomic
from ingest.models import Profile
from ingest.nesting import NestingError, check_json_nesting
from ingest.settings import Settings

_DEFAULTS = Settings.model_fields  # the bounds' defaults live with the settings


@dataclass(frozen=True)
class ProfileLimits:
    """What a profile file may hold; the defaults are the settings' defaults."""

    max_bytes: int = _DEFAULTS["max_profile_bytes"].default
    max_string: int = _DEFAULTS["max_profile_string"].default
    max_claims: int = _DEFAULTS["max_profile_claims"].default

    @classmethod
    def of(cls, settings: Settings) -> ProfileLimits:
        return cls(
            settings.max_profile_bytes, settings.max_profile_string, settings.max_profile_claims
        )


# A profile id, the file's name without `.json`: a letter or digit, then letters, digits, '.', '_'
# or '-' (any script), at most 200: never a path, a hidden file, a space or a control character.
PROFILE_ID = re.compile(r"[^\W_][\w.-]{0,199}")


def valid_profile_id(profile_id: str) -> bool:
    return PROFILE_ID.fullmatch(profile_id) is not None


def profile_path(folder: Path, profile_id: str) -> Path:
    if not valid_profile_id(profile_id):
        shown = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in profile_id[:200])
        raise ProfileError(str(folder / f"{shown}.json"), "not a valid profile id")
    return folder / f"{profile_id}.json"


def load_profile(path: Path, limits: ProfileLimits | None = None) -> Profile:
    """The profile in `path`, read within `limits` (ProfileError naming the file otherwise)."""
    limits = limits or ProfileLimits()
    data = _read_bounded(path, limits)
    try:
        profile = Profile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ProfileError(str(path), f"not a valid profile ({where}: {first['msg']})") from exc
    if profile.id != path.stem:
        raise ProfileError(str(path), f"file name does not match its id '{profile.id}'")
    return profile


def load_profiles(folder: Path, limits: ProfileLimits | None = None) -> dict[str, Profile]:
    """Every `<id>.json` in the folder, by id."""
    if not folder.is_dir():
        raise ProfileError(str(folder), "profiles folder does not exist")
    return {p.stem: load_profile(p, limits) for p in sorted(folder.glob("*.json"))}


def _read_bounded(path: Path, limits: ProfileLimits) -> Any:
    """The file's JSON, refused past any bound before the model (or json) would be slow."""
    try:
        with path.open("rb") as stream:
            raw = stream.read(limits.max_bytes + 1)
    except OSError as exc:
        raise ProfileError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    if len(raw) > limits.max_bytes:
        raise ProfileError(
            str(path), f"larger than {limits.max_bytes} bytes (INGEST_MAX_PROFILE_BYTES)"
        )
    try:
        text = raw.decode("utf-8")
        check_json_nesting(text)
        data = json.loads(text)
    except NestingError as exc:
        raise ProfileError(str(path), str(exc)) from exc
    except ValueError as exc:  # not UTF-8, not JSON
        raise ProfileError(str(path), f"not a valid profile ({exc})") from exc
    if isinstance(data, dict):
        for key in ("claims", "references"):
            items = data.get(key)
            if isinstance(items, list) and len(items) > limits.max_claims:
                raise ProfileError(
                    str(path),
                    f"{len(items)} {key}, more than {limits.max_claims} "
                    "(INGEST_MAX_PROFILE_CLAIMS)",
                )
    where = _long_string(data, limits.max_string)
    if where is not None:
        raise ProfileError(
            str(path),
            f"a string at {where or 'the top'} is longer than {limits.max_string} characters "
            "(INGEST_MAX_PROFILE_STRING)",
        )
    return data


def _long_string(value: Any, limit: int, where: str = "") -> str | None:
    """Where in `value` (a dotted path) a string, or a key, is longer than `limit`."""
    if isinstance(value, str):
        return where if len(value) > limit else None
    if isinstance(value, dict):
        items: list[tuple[Any, Any]] = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return None
    for key, item in items:
        here = f"{where}.{key}" if where else str(key)
        if isinstance(key, str) and len(key) > limit:
            return here[:80]
        found = _long_string(item, limit, here)
        if found is not None:
            return found
    return None


def profile_names(folder: Path) -> dict[str, str]:
    """Each profile's display name by id (`soumith-chintala` -> `Soumith Chintala`); a file that
    cannot be read is left out (its id is shown instead)."""
    names: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        name = data.get("name") if isinstance(data, dict) else None
        if isinstance(name, str) and name.strip():
            names[path.stem] = name.strip()
    return names


def render(profile: Profile) -> str:
    return json.dumps(profile.to_json(), ensure_ascii=False, indent=2) + "\n"


def write_profile_text(path: Path, text: str) -> None:
    """Write a profile file's text atomically, keeping the file's permissions; an OS error is a
    ProfileError naming the file and the cause (e.g. a read-only folder)."""
    try:
        write_atomic(path, text.encode("utf-8"))
    except OSError as exc:
        raise ProfileError(str(path), f"cannot write: {exc.strerror or exc}") from exc


def write_profile(folder: Path, profile: Profile) -> str:
    """Write a profile atomically; returns the text written."""
    text = render(profile)
    write_profile_text(profile_path(folder, profile.id), text)
    return text
