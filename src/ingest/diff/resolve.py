"""Resolve a claim's subject to a profile id: by account handle, then by name and aliases."""

from __future__ import annotations

from ingest.models import Profile, Subject
from ingest.names import fold, same_person_name

HANDLE_FIELDS = ("github", "orcid", "email")


class Resolver:
    """Index of the profiles' handles and names. Build once per run."""

    def __init__(self, profiles: dict[str, Profile]) -> None:
        self._handles: dict[tuple[str, str], str] = {}
        self._names: dict[str, str] = {}
        self._all_names: list[tuple[str, str]] = []
        for pid, profile in profiles.items():
            for kind, handle in profile.accounts.items():
                self._handles[(kind, handle.strip().lower())] = pid
            names = [profile.name, *profile.aliases]
            for name in names:
                self._names.setdefault(fold(name), pid)
                self._all_names.append((name, pid))
            for alias in profile.aliases:  # an alias may be a handle ("albanD")
                self._handles.setdefault(("github", alias.strip().lower()), pid)

    def resolve(self, subject: Subject) -> str | None:
        for kind in HANDLE_FIELDS:
            handle = getattr(subject, kind, None)
            if handle:
                pid = self._handles.get((kind, handle.strip().lower()))
                if pid:
                    return pid
        exact = self._names.get(fold(subject.name))
        if exact:
            return exact
        matches = {pid for name, pid in self._all_names if same_person_name(name, subject.name)}
        if len(matches) == 1:
            return matches.pop()
        return None
