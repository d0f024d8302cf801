"""Profile files: one `<id>.json` per person in INGEST_PROFILES_DIR, read and written atomically.

A file is read within bounds (`ProfileLimits`, from INGEST_MAX_PROFILE_BYTES, _STRING and
_CLAIMS): its size before it is read, then its nesting, strings and claims before the model
sees it, so a 200 MB name or 300,000 claims is a ProfileError naming the file in a moment.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import OrderedDict
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
    return read_profile(path, limits)[0]


def read_profile(path: Path, limits: ProfileLimits | None = None) -> tuple[Profile, str]:
    """`load_profile`, with the file's exact text (read once: the profile is what it states)."""
    limits = limits or ProfileLimits()
    data, text = _read_bounded(path, limits)
    try:
        profile = Profile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ProfileError(str(path), f"not a valid profile ({where}: {first['msg']})") from exc
    if profile.id != path.stem:
        raise ProfileError(str(path), f"file name does not match its id '{profile.id}'")
    return profile, text


def load_profiles(folder: Path, limits: ProfileLimits | None = None) -> dict[str, Profile]:
    """Every `<id>.json` in the folder, by id."""
    if not folder.is_dir():
        raise ProfileError(str(folder), "profiles folder does not exist")
    return {p.stem: load_profile(p, limits) for p in sorted(folder.glob("*.json"))}


class _Checked:
    """The bytes of the profile files read lately that passed the bounds, by path: the same
    bytes under the same bounds pass again, so a file read again unchanged (by each request of
    the review page, each decision) is parsed without walking its nesting and strings. Keyed by
    the file's whole content, never by its time or size: a rewritten file is checked again."""

    def __init__(self, max_bytes: int = 32 << 20) -> None:
        self.max_bytes = max_bytes
        self._files: OrderedDict[Path, tuple[ProfileLimits, bytes]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def passed(self, path: Path, limits: ProfileLimits, raw: bytes) -> bool:
        with self._lock:
            return self._files.get(path) == (limits, raw)

    def add(self, path: Path, limits: ProfileLimits, raw: bytes) -> None:
        with self._lock:
            old = self._files.pop(path, None)
            self._size -= len(old[1]) if old else 0
            if len(raw) > self.max_bytes:
                return
            self._files[path] = (limits, raw)
            self._size += len(raw)
            while self._size > self.max_bytes:
                _path, (_limits, dropped) = self._files.popitem(last=False)
                self._size -= len(dropped)


_CHECKED = _Checked()


def _read_bounded(path: Path, limits: ProfileLimits) -> tuple[Any, str]:
    """The file's JSON and text, refused past any bound before the model (or json) would be
    slow (bytes that passed the bounds before are not walked again: _Checked)."""
    try:
        with path.open("rb") as stream:
            raw = stream.read(limits.max_bytes + 1)
    except OSError as exc:
        raise ProfileError(str(path), f"cannot read: {exc.strerror or exc}") from exc
    if _CHECKED.passed(path, limits, raw):
        text = raw.decode("utf-8")
        return json.loads(text), text
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
    _CHECKED.add(path, limits, raw)
    return data, text


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
    """A profile file's text: `json.dumps(profile.to_json(), ensure_ascii=False, indent=2)`
    and a newline, with each claim and reference rendered once and kept (_Items): rendering a
    profile again after one decision (each of a bulk accept's) renders only what it changed."""
    return _ITEMS.indented(profile.to_json()) + "\n"


class _Items:
    """The indented text of the items (claims, references: any dict in a list at the top) seen
    lately, by their compact JSON (C-encoded, some times faster than the indented encoder)."""

    _MAX = 8_000  # items kept (a few MB); past it the cache starts over
    _MARK = "\ue000item-list-" + secrets.token_hex(8)  # stands for a list while the rest is dumped

    def __init__(self) -> None:
        self._text: dict[str, str] = {}

    def indented(self, data: Any) -> str:
        if not isinstance(data, dict):
            return json.dumps(data, ensure_ascii=False, indent=2)
        lists = {
            key: value
            for key, value in data.items()
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value)
        }
        marks = {key: f"{self._MARK}-{n}" for n, key in enumerate(lists)}
        text = json.dumps(
            {key: marks.get(key, value) for key, value in data.items()},
            ensure_ascii=False,
            indent=2,
        )
        for key, items in lists.items():
            mark = json.dumps(marks[key], ensure_ascii=False)
            if text.count(mark) != 1:  # never: the mark is no one's text
                return json.dumps(data, ensure_ascii=False, indent=2)
            body = ",\n".join(f"    {self._item(item)}" for item in items)
            text = text.replace(mark, f"[\n{body}\n  ]")
        return text

    def _item(self, item: dict[str, Any]) -> str:
        """The item as json.dumps indents it two levels down (a list's item in the top dict)."""
        key = _COMPACT.encode(item)
        found = self._text.get(key)
        if found is None:
            found = json.dumps(item, ensure_ascii=False, indent=2).replace("\n", "\n    ")
            if len(self._text) >= self._MAX:
                self._text.clear()
            self._text[key] = found
        return found


_COMPACT = json.JSONEncoder(ensure_ascii=False)  # json.dumps(..., ensure_ascii=False), made once
_ITEMS = _Items()


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
