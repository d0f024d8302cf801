"""Pure: a candidate in its string -> a feature dict (names below, all floats).

exact          the name is printed word for word            (door `exact`)
exact_segment  ... and is a whole segment ("..., University of Antwerp")
exact_full     ... and is the whole string
acronym        matched by an acronym alone                  (door `acronym`)
acronym_upper  ... printed in capitals ("UCLA", not "ucla")
acronym_alone  ... and the acronym is the whole string
name_cov       IDF-weighted share of the name's words the string prints
all_words      every word of the name is printed
derived        the name matched is one without its "(Country)" or ", City" tail
segment_cov    IDF-weighted share of the matched segment's words the name explains
string_cov     IDF-weighted share of the whole string's words the name explains
missing        IDF weight of the name's words the string lacks (/10)
country_same   the string names the organisation's country
country_other  the string names a country, not the organisation's
city_same      the string names the organisation's city
last_segment   1 / (1 + segments after the matched one)
unit_start     the matched segment starts with a unit word (department, school, ...)
               the name does not start with
homonyms       log(1 + organisations sharing the name)
words          log(1 + words of the name)
child_named    a child of this organisation is printed too (prefer the finer unit)
parent_named   this organisation's parent is printed too
inactive       status inactive or withdrawn
type_<t>       one per ROR type (education, company, facility, ...)
best_margin    name_cov * segment_cov minus the best other organisation's
explained      IDF-weighted share of the string's words the name and the organisation's address
               explain (its city, the countries printed, street words; numbers left out)
city_other     the string prints a registry city as a place, and not the organisation's
segment_same   the matched segment's words are the name's, in any order ("Oxford University")
segment_extra  log(1 + words of the matched segment the name lacks)
rare_hit       the highest IDF of the name's words the string prints (/10): a winner matching
               only "institute" or "research" is weak evidence
common_only    every name word the string prints is in more than RARE_DF names
rivals         log(1 + other organisations printed as a whole segment, outside its family
               (parents, units, two steps)): "Institut Curie, PSL Research University"
respelled      a word of the name matched only as read again (spelling.py: "Wuerzburg")
"""

from __future__ import annotations

import math

from ingest.orgs.candidates import RARE_DF, Candidate, Context
from ingest.orgs.registry import Registry
from ingest.orgs.text import STOP, UNIT_WORDS

TYPES = (
    "education",
    "company",
    "facility",
    "healthcare",
    "government",
    "nonprofit",
    "funder",
    "archive",
    "other",
)
NAMES = (
    "bias",
    "exact",
    "exact_segment",
    "exact_full",
    "acronym",
    "acronym_upper",
    "acronym_alone",
    "name_cov",
    "all_words",
    "derived",
    "segment_cov",
    "string_cov",
    "missing",
    "country_same",
    "country_other",
    "city_same",
    "last_segment",
    "unit_start",
    "homonyms",
    "words",
    "child_named",
    "parent_named",
    "inactive",
    *(f"type_{t}" for t in TYPES),
    "best_margin",
    "explained",
    "city_other",
    "segment_same",
    "segment_extra",
    "rare_hit",
    "common_only",
    "rivals",
    "respelled",
)
# words of an address, not of a name: "12 Main Street, PO Box 5"
STREET = frozenset(
    {
        "street",
        "st",
        "road",
        "rd",
        "avenue",
        "ave",
        "av",
        "blvd",
        "boulevard",
        "lane",
        "drive",
        "dr",
        "way",
        "place",
        "square",
        "sq",
        "box",
        "po",
        "bp",
        "floor",
        "building",
        "bldg",
        "no",
        "km",
        "route",
        "rue",
        "via",
        "strasse",
        "str",
        "calle",
    }
)


def _weight(words: set[str] | frozenset[str], registry: Registry) -> float:
    # sorted: a float sum in set order would depend on the hash seed, and so would the answers
    return sum(registry.token_idf(w) for w in sorted(words) if w not in STOP)


def _content(words: set[str] | frozenset[str]) -> set[str]:
    return {w for w in words if w not in STOP and not w.isdigit()}


def describe(cands: list[Candidate], ctx: Context, registry: Registry) -> list[dict[str, float]]:
    """Features of every candidate of one string (the margin compares them with each other)."""
    orgs = {c.org for c in cands}
    total = _weight(set(ctx.tokens), registry) or 1.0
    content = _content(ctx.token_set)
    loose = _weight(content, registry) or 1.0
    rows: list[dict[str, float]] = []
    for c in cands:
        row = _one(c, ctx, registry, orgs, total)
        row.update(_address(c, ctx, registry, content, loose))
        rows.append(row)
    fit = [r["name_cov"] * r["segment_cov"] for r in rows]
    best: dict[int, float] = {}
    for c, f in zip(cands, fit, strict=True):
        best[c.org] = max(best.get(c.org, 0.0), f)
    ranked = sorted(best.values(), reverse=True)
    for c, row, f in zip(cands, rows, fit, strict=True):
        others = [v for o, v in best.items() if o != c.org]
        row["best_margin"] = f - (max(others) if others else 0.0) if ranked else 0.0
    # organisations printed as a whole segment: another one outside the family is a rival
    whole = {
        c.org for c, r in zip(cands, rows, strict=True) if r["segment_same"] or r["exact_segment"]
    }
    for c, row in zip(cands, rows, strict=True):
        rivals = whole - {c.org}
        if rivals:
            rivals -= _family(c.org, registry)
        row["rivals"] = math.log1p(len(rivals))
    return rows


def _family(org: int, registry: Registry) -> set[int]:
    """Parents, grandparents, units and their units."""
    out: set[int] = set()
    frontier = {org}
    for _ in range(2):
        step: set[int] = set()
        for o in sorted(frontier):
            step.update(registry.children.get(o, ()))
            parents = registry.columns["parents"][o].split()
            step.update(j for p in parents if (j := registry.by_id.get(p)) is not None)
        out |= step
        frontier = step
    return out


def _one(
    c: Candidate, ctx: Context, registry: Registry, orgs: set[int], total: float
) -> dict[str, float]:
    org = registry.org(c.org)
    segment = ctx.segments[c.segment] if c.segment < len(ctx.segments) else ctx.tokens
    name_words = set(c.name.split())
    seg_words = set(segment)
    acronym = c.door == "acronym"
    if acronym:
        name_cov, seg_cov, str_cov, missing = 1.0, 1.0 / max(len(seg_words), 1), 0.0, 0.0
    else:
        own = _weight(name_words, registry) or 1.0
        have = _weight(name_words & ctx.token_set, registry)
        name_cov = have / own
        seg_cov = _weight(name_words & seg_words, registry) / (_weight(seg_words, registry) or 1.0)
        str_cov = have / total
        missing = (own - have) / 10.0
    city = org.city
    city_same = bool(city) and (city in ctx.places or city in ctx.folded)
    parents = {registry.by_id.get(p) for p in org.parents}
    children = set(registry.children.get(c.org, ()))
    first = segment[0] if segment else ""
    # organisations sharing the name, its own parent and units left out: "Meta" is Meta
    # (United States) and its units Meta (United Kingdom) and Meta (Israel), one family
    same_name = set(registry.with_acronym(c.name) if acronym else registry.named(c.name))
    family = {p for p in parents if p is not None} | children
    f: dict[str, float] = {
        "bias": 1.0,
        "exact": float(c.door == "exact"),
        "exact_segment": float(c.door == "exact" and c.name == " ".join(segment)),
        "exact_full": float(c.door == "exact" and c.name == ctx.folded),
        "acronym": float(acronym),
        "acronym_upper": float(acronym and c.name in ctx.upper),
        "acronym_alone": float(acronym and c.name == ctx.folded),
        "name_cov": name_cov,
        "all_words": float(name_cov >= 0.999),
        "derived": float(c.name in registry.derived(c.org)),
        "segment_cov": seg_cov,
        "string_cov": str_cov,
        "missing": min(missing, 2.0),
        "country_same": float(bool(org.country) and org.country in ctx.countries),
        "country_other": float(bool(ctx.countries) and org.country not in ctx.countries),
        "city_same": float(city_same),
        "last_segment": 1.0 / (1 + max(len(ctx.segments) - 1 - c.segment, 0)),
        "unit_start": float(first in UNIT_WORDS and not c.name.startswith(first)),
        "homonyms": math.log1p(len(same_name - family - {c.org})),
        "words": math.log1p(len(name_words)),
        "child_named": float(bool(children & orgs)),
        "parent_named": float(bool(parents & orgs)),
        "inactive": float(org.status != "active"),
    }
    for t in TYPES:
        f[f"type_{t}"] = float(t in org.types)
    return f


def _address(
    c: Candidate, ctx: Context, registry: Registry, content: set[str], loose: float
) -> dict[str, float]:
    """How much of the string the organisation explains, with its address; and the generic."""
    org_city = registry.columns["city"][c.org]
    name_words = _content(set(c.name.split()))
    city = set(org_city.split())
    explained = content & (name_words | city | ctx.address | STREET)
    hit = sorted(name_words & ctx.token_set)
    segment = ctx.segments[c.segment] if c.segment < len(ctx.segments) else ctx.tokens
    seg = _content(set(segment))
    acronym = c.door == "acronym"
    return {
        "explained": _weight(explained, registry) / loose,
        "city_other": float(bool(ctx.cities) and org_city not in ctx.cities),
        "segment_same": float(not acronym and bool(seg) and seg == name_words),
        "segment_extra": math.log1p(len(seg - name_words - city - ctx.address)),
        "rare_hit": max((registry.token_idf(w) for w in hit), default=0.0) / 10.0,
        "common_only": float(bool(hit) and all(registry.df(w) > RARE_DF for w in hit)),
        "respelled": float(bool(ctx.respelled) and bool(name_words & ctx.respelled)),
    }


def vector(row: dict[str, float]) -> list[float]:
    return [row.get(n, 0.0) for n in NAMES]
