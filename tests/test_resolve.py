"""Resolving a claim's subject to a profile: handles, names, aliases, accents and initials."""

from __future__ import annotations

from ingest.diff.resolve import Resolver
from ingest.models import Profile, Subject
from ingest.names import fold, same_person_name

PROFILES = {
    "alban-desmaison": Profile(
        id="alban-desmaison",
        name="Alban Desmaison",
        aliases=["albanD"],
        accounts={"github": "albanD"},
    ),
    "leon-bottou": Profile(id="leon-bottou", name="Léon Bottou"),
    "natalia-gimelshein": Profile(
        id="natalia-gimelshein", name="Natalia Gimelshein", accounts={"github": "ngimel"}
    ),
    "jane-xu": Profile(id="jane-xu", name="Jane Xu"),
    "jian-xu": Profile(id="jian-xu", name="Jian Xu"),
}


def resolve(name: str, github: str | None = None) -> str | None:
    return Resolver(PROFILES).resolve(Subject(name=name, github=github))


def test_handles_match_case_insensitively() -> None:
    assert resolve("Someone Else", "alband") == "alban-desmaison"
    assert resolve("Someone Else", "ALBAND") == "alban-desmaison"
    assert resolve("N.", "ngimel") == "natalia-gimelshein"


def test_names_match_across_case_accents_and_initials() -> None:
    assert resolve("leon bottou") == "leon-bottou"
    assert resolve("LÉON BOTTOU") == "leon-bottou"
    assert resolve("L. Bottou") == "leon-bottou"
    assert resolve("N. Gimelshein") == "natalia-gimelshein"
    assert resolve("Alban  Desmaison") == "alban-desmaison"


def test_ambiguous_or_unknown_people_stay_unresolved() -> None:
    assert resolve("J. Xu") is None  # Jane or Jian: not guessed
    assert resolve("Greg Chanan", "gchanan") is None
    assert resolve("Albert Desmaison") is None


def test_name_helpers() -> None:
    assert fold("Łukasz  Kaiser!") == "lukasz kaiser"
    assert same_person_name("Yann A. LeCun", "Yann LeCun")
    assert not same_person_name("Desmaison", "Alban Desmaison")
