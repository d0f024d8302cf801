"""`page.person_of` reads a name the same on its fast path (single-spaced printable item text)
and on the general one (text the removal of the "(handle)" group leaves to collapse)."""

from __future__ import annotations

import pytest

from extractors.document.model import Item
from extractors.governance.page import person_of

GH = "https://github.com/albanD"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Alban Desmaison (albanD)", ("Alban Desmaison", "alband", False)),
        ("(emeritus) Natalia Gimelshein (albanD)", ("Natalia Gimelshein", "alband", True)),
        ("Alban (albanD) Desmaison", ("Alban Desmaison", "alband", False)),
        ("Alban Desmaison(albanD), PyTorch", ("Alban Desmaison , PyTorch", "alband", False)),
        ("- Alban Desmaison ( albanD ) -", ("Alban Desmaison", "alband", False)),
        ("Alban\x01Desmaison (albanD)", ("Alban Desmaison", "alband", False)),  # general path
        ("Alban\tDesmaison  (albanD)", ("Alban Desmaison", "alband", False)),  # general path
        ("(albanD)", None),
    ],
)
def test_name_without_the_handle_group(
    text: str, expected: tuple[str, str | None, bool] | None
) -> None:
    assert person_of(Item(text, text, (("albanD", GH),), 1)) == expected
