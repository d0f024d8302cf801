"""Seats a role list prints with nobody in them ("1) Open!", "- Vacant", "TBD"): they are places
waiting for a person, so they neither name somebody nor say the list names no one (pure; used
by the governance reader's lists)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from extractors.document.model import Item

OPEN_SEAT = re.compile(
    r"^\W*(?:open|vacant|vacancy|empty|unfilled|tbd|tba|to be (?:announced|determined|named))"
    r"(?:\s+(?:seat|position|slot))?\W*$",
    re.IGNORECASE,
)


def open_seat(text: str) -> bool:
    """The item is an empty seat: "Open!", "Vacant", "(TBD)", "Open seat"."""
    return OPEN_SEAT.match(text.strip()) is not None


def people_share(named: Sequence[bool], items: Sequence[Item]) -> float:
    """The share of a list's items naming somebody, its empty seats not counted (a team of one
    with two open seats is a list of people); 0.0 when it has no other item."""
    filled = [n for n, item in zip(named, items, strict=True) if n or not open_seat(item.text)]
    return sum(filled) / len(filled) if filled else 0.0
