"""Profile files: one `<id>.json` per person in INGEST_PROFILES_DIR, read and written atomically."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import ValidationError

from ingest.errors import ProfileError
from ingest.files import write_atomic
from ingest.models import Profile

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


def load_profile(path: Path) -> Profile:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    try:
        profile = Profile.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ProfileError(str(path), f"not a valid profile ({where}: {first['msg']})") from exc
    if profile.id != path.stem:
        raise ProfileError(str(path), f"file name does not match its id '{profile.id}'")
    return profile


def load_profiles(folder: Path) -> dict[str, Profile]:
    """Every `<id>.json` in the folder, by id."""
    if not folder.is_dir():
        raise ProfileError(str(folder), "profiles folder does not exist")
    return {p.stem: load_profile(p) for p in sorted(folder.glob("*.json"))}


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
