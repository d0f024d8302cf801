"""Rules propose: the organisations an affiliation string may name, each with what it matched.

Three doors, every candidate keeping which one let it in: a name (name, label or alias) printed
word for word (`exact`), an acronym printed as a word (`acronym`), and names sharing rare words
with a segment (`overlap`: an inverted index on name tokens, the highest IDF-weighted overlap
first). A word no registry name holds is read first as one that does, where it is a slip or a
spelling (spelling.py: "Genenetech", "UniversityShenzhen"). Nothing here decides; `features.py`
describes each candidate and the model scores it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from unidecode import unidecode

from ingest.orgs.registry import Registry
from ingest.orgs.spelling import respell, unglue
from ingest.orgs.text import STOP, fold, segments

MAX_WORDS = 12  # longest name looked up word for word
RARE_DF = 2000  # a token in more names than this proposes nothing by itself ("university")
OVERLAP_KEEP = 12  # names kept per segment by IDF-weighted overlap
_WORD = re.compile(r"[A-Za-z0-9]+")


@dataclass
class Context:
    """What the string says, folded once for every candidate."""

    text: str
    folded: str
    tokens: list[str]
    token_set: frozenset[str]
    segments: list[list[str]]
    upper: frozenset[str]  # words printed in capitals (folded): "UCLA", "MIT"
    countries: frozenset[str]  # ISO codes of the countries named
    places: frozenset[str]  # folded n-grams of the string, for city lookups
    cities: frozenset[str] = frozenset()  # registry cities printed as a segment's place
    address: frozenset[str] = frozenset()  # words of the country names printed
    respelled: frozenset[str] = frozenset()  # registry words read for words it lacks (spelling.py)


@dataclass
class Candidate:
    org: int
    name: str  # the folded name, label, alias or acronym it matched
    door: str  # exact, acronym, overlap
    segment: int  # index of the segment it matched best
    extra: dict[str, float] = field(default_factory=dict)


def _trim(words: list[str]) -> list[str]:
    """A segment without footnote numbers and postcodes at its ends ("University of Tokyo 3")."""
    while words and words[-1].isdigit():
        words = words[:-1]
    while words and words[0].isdigit():
        words = words[1:]
    return words


def _ngrams(words: list[str], longest: int) -> list[str]:
    out = []
    for i in range(len(words)):
        for n in range(1, min(longest, len(words) - i) + 1):
            out.append(" ".join(words[i : i + n]))
    return out


def context(text: str, registry: Registry) -> Context:
    read = unglue(text, registry)
    respelled: dict[str, str] = {}
    for word in fold(read).split():
        if word not in respelled and (known := respell(word, registry)) is not None:
            respelled[word] = known

    def words(folded: str) -> list[str]:
        return [respelled.get(w, w) for w in folded.split()]

    tokens = words(fold(read))
    folded = " ".join(tokens)
    segs = [_trim(words(s)) for s in segments(read)]
    segs = [s for s in segs if s] or [tokens]
    grams = frozenset(g for s in segs for g in _ngrams(s, 4))
    upper = frozenset(
        w.lower() for w in _WORD.findall(unidecode(read)) if len(w) >= 2 and w.isupper()
    )
    named = frozenset(registry.countries[g] for g in grams if g in registry.countries)
    address = frozenset(w for g in grams if g in registry.countries for w in g.split())
    cities = frozenset(p for s in segs for p in _places(s) if p in registry.cities)
    return Context(
        text,
        folded,
        tokens,
        frozenset(tokens),
        segs,
        upper,
        named,
        grams,
        cities,
        address,
        frozenset(respelled.values()),
    )


def _places(words: list[str]) -> list[str]:
    """What a segment may print as a place: the whole of it, or its head before a state code or
    postcode ("los angeles ca 90095" -> "los angeles"); a city inside a name does not count."""
    out = [" ".join(words)]
    while len(words) > 1 and (len(words[-1]) <= 3 or words[-1].isdigit()):
        words = words[:-1]
        out.append(" ".join(words))
    return out


def candidates(ctx: Context, registry: Registry) -> list[Candidate]:
    found: dict[tuple[int, str], Candidate] = {}

    def add(org: int, name: str, door: str, segment: int) -> None:
        key = (org, name)
        if key not in found:
            found[key] = Candidate(org, name, door, segment)

    for s, words in enumerate(ctx.segments):
        for gram in _ngrams(words, MAX_WORDS):
            for org in registry.named(gram):
                add(org, gram, "exact", s)
        for word in words:
            # "USA", "UK" are countries, and "MN", "PA" states: not an organisation's acronym
            if len(word) >= 2 and not word.isdigit() and word not in registry.countries:
                for org in registry.with_acronym(word):
                    add(org, word, "acronym", s)
    # a name printed across a comma: "University of California, Los Angeles"
    for gram in _ngrams(ctx.tokens, MAX_WORDS):
        if " " in gram:
            for org in registry.named(gram):
                add(org, gram, "exact", len(ctx.segments) - 1)
    for s, words in enumerate(ctx.segments):
        for row in _overlap(words, registry):
            name = registry.name_list[row]
            for org in registry.named(name):
                add(org, name, "overlap", s)
    return list(found.values())


def _overlap(words: list[str], registry: Registry) -> list[int]:
    """Name rows sharing the segment's rarest words, best IDF-weighted overlap first."""
    score: dict[int, float] = {}
    for word in sorted(set(words)):  # sorted: float sums independent of the hash seed
        if word in STOP or registry.df(word) > RARE_DF:
            continue
        weight = registry.token_idf(word)
        for row in registry.postings(word):
            score[row] = score.get(row, 0.0) + weight
    if not score:
        return []
    best = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))[: OVERLAP_KEEP * 4]
    # prefer names whose words the segment covers: overlap / the name's own weight
    ranked = sorted(
        best,
        key=lambda kv: (-kv[1] / max(_weight(registry.name_list[kv[0]], registry), 1e-9), kv[0]),
    )
    return [row for row, _ in ranked[:OVERLAP_KEEP]]


def _weight(name: str, registry: Registry) -> float:
    return sum(registry.token_idf(w) for w in name.split() if w not in STOP)  # in word order
