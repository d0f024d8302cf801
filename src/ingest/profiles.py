"""Profile files: one `<id>.json` per person in INGEST_PROFILES_DIR, read and written atomically."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from ingest.errors import ProfileError
from ingest.files import write_atomic
from ingest.models import Profile


def profile_path(folder: Path, profile_id: str) -> Path:
    if not profile_id or "/" in profile_id or "\\" in profile_id or profile_id.startswith("."):
        raise ProfileError(str(folder / f"{profile_id}.json"), "not a valid profile id")
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


def render(profile: Profile) -> str:
    return json.dumps(profile.to_json(), ensure_ascii=False, indent=2) + "\n"


def write_profile(folder: Path, profile: Profile) -> str:
    """Write a profile atomically; returns the text written."""
    text = render(profile)
    write_atomic(profile_path(folder, profile.id), text.encode("utf-8"))
    return text
