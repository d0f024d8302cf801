"""Values of the author block reader: authors, affiliations and the pieces lines split into."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Affiliation:
    text: str
    quote: str
    page: int
    index: int = 0  # 1-based, in order of first appearance in the block


@dataclass
class Author:
    name: str
    quote: str = ""  # the name as pypdf extracted it (before accents and spacing are cleaned)
    markers: list[str] = field(default_factory=list)
    affiliations: list[Affiliation] = field(default_factory=list)
    emails: list[str] = field(default_factory=list)
    x0: float = 0.0
    x1: float = 0.0
    page: int = 1


@dataclass
class Piece:
    """A run of an affiliation line between markers: its marker keys and text."""

    keys: list[str]
    text: str
    quote: str
    x: float = 0.0  # where it starts on the line
