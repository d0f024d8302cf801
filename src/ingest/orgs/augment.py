"""Strings made from the registry itself, added to the fitting side of `ingest orgs train`
(never measured, never in the prior)."""

from __future__ import annotations

import hashlib

from ingest.orgs.registry import Registry

AUGMENT_EVERY = 40  # registry names added to the fitting side: one organisation in 40


def registry_names(
    registry: Registry, every: int = AUGMENT_EVERY
) -> list[tuple[str, frozenset[str], str]]:
    """Strings made from the registry itself, for fitting only (never measured): one
    organisation in `every` (by a hash of its id) as its display name, and with its city, and by
    its city alone (no organisation: a city is not its university), and a name ROR tails with
    "(Country)" without it. And every organisation whose units abroad share its name ("Meta
    (United States)" and its "Meta (United Kingdom)") by that name alone: a company printed
    alone is the company, not a national unit. The labelled strings are mostly academic and
    departmental; these teach the model what a company or a lab printed alone looks like
    ("Google", "NVIDIA"), homonyms included."""
    out: list[tuple[str, frozenset[str], str]] = []
    cols = registry.columns
    for parent, units in sorted(registry.children.items()):
        name = cols["name"][parent]
        bare = name.rsplit(" (", 1)[0] if name.endswith(")") else ""
        same = bare and any(cols["name"][u].rsplit(" (", 1)[0] == bare for u in units)
        if same and cols["status"][parent] == "active":
            out.append((bare, frozenset({cols["id"][parent]}), "registry"))
    for i, oid in enumerate(cols["id"]):
        if (
            int(hashlib.sha256(oid.encode()).hexdigest()[:6], 16) % every
            or cols["status"][i] != "active"
        ):
            continue
        name, city, gold = cols["name"][i], cols["city"][i].title(), frozenset({oid})
        out.append((name, gold, "registry"))
        bare = name.rsplit(" (", 1)[0] if name.endswith(")") else ""
        if bare:  # companies are printed without ROR's "(United States)": "Meta", "NVIDIA"
            out.append((bare, gold, "registry"))
        if city:
            out.append((f"{name}, {city}", gold, "registry"))
            out.append((city, frozenset(), "registry"))  # a city alone names no organisation
    return out
