"""Build the compact organisation index from ROR records.

    uv run ingest orgs build                       # ../shared/orgs/ror-orgs.jsonl.gz -> bundled
    uv run ingest orgs build --from v2.9-ror-data.json --out my-index.json.gz

Reads either the shared one-object-a-line file (`ror-orgs.jsonl[.gz]`, fields in
../shared/orgs/README.md) or a full ROR data dump in schema v2 (the JSON list ROR publishes with
each release, as `.json` or inside its `.zip`), and writes one gzipped JSON object:
`format`, `source` (provenance), `countries` (folded country name -> ISO code), `orgs` (one
column per field: `id`, `name`, `country`, `city` (folded), `types`, `status`, `parents`,
`derived`: its names made by dropping a tail, `|`-separated),
`names` (folded names, labels and aliases, and each name without a trailing "(Country)" or
", City"; names in non-Latin scripts are left out) and `name_orgs` (the org indexes of each),
`acronyms` (folded acronym -> org indexes) and `postings` (token -> indexes into `names`).
Lists of indexes and of types and parents are space-separated strings, read on demand: loading
the index is one `json.loads` of 0.2 s. Deterministic: the same records
give the same bytes.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ingest.orgs.text import STOP, fold

FORMAT = "ingest-ror-index/1"
DEFAULT_SOURCE = Path(__file__).resolve().parents[4] / "shared" / "orgs" / "ror-orgs.jsonl.gz"
SHARED_PROVENANCE = {
    "file": "ror-orgs.jsonl.gz (../shared/orgs/, 51,370 organisations)",
    "origin": "ror-community/ror-records at d93fc667872f8ef9386896bd6c68bd3c6103603e "
    "(2026-06-23): the union of releases v1.1 to v2.9, each id from its latest release",
    "licence": "CC0 1.0 (ROR data)",
}
_PLACE_WORDS = frozenset({"in", "at"})  # "... in St. Louis", "... at Chapel Hill"
# words a name left without its city must hold more than ("Technical University" of Munich)
# fmt: off
_GENERIC = frozenset((
    "university", "universidad", "universidade", "universite", "universitat", "universita",
    "college", "institute", "institut", "school", "hospital", "center", "centre", "technical",
    "technology", "national", "state", "medical", "research", "academy", "polytechnic", "federal",
))
# fmt: on
_PAREN_TAIL = re.compile(r"\s*\([^()]*\)\s*$")
_NON_LATIN = re.compile(r"[^\x00-\u024f\u1e00-\u1eff\u2000-\u206f]")
# country names as affiliations print them, beyond ISO's own (folded)
COUNTRY_ALIASES = {
    "usa": "US",
    "us": "US",
    "u s a": "US",
    "u s": "US",
    "united states": "US",
    "united states of america": "US",
    "america": "US",
    "uk": "GB",
    "u k": "GB",
    "united kingdom": "GB",
    "great britain": "GB",
    "england": "GB",
    "scotland": "GB",
    "wales": "GB",
    "northern ireland": "GB",
    "china": "CN",
    "p r china": "CN",
    "pr china": "CN",
    "prc": "CN",
    "peoples republic of china": "CN",
    "korea": "KR",
    "south korea": "KR",
    "republic of korea": "KR",
    "korea republic of": "KR",
    "russia": "RU",
    "russian federation": "RU",
    "iran": "IR",
    "taiwan": "TW",
    "vietnam": "VN",
    "viet nam": "VN",
    "czech republic": "CZ",
    "czechia": "CZ",
    "netherlands": "NL",
    "the netherlands": "NL",
    "holland": "NL",
    "turkey": "TR",
    "turkiye": "TR",
    "deutschland": "DE",
    "espana": "ES",
    "italia": "IT",
    "brasil": "BR",
    "mexico": "MX",
    "suisse": "CH",
    "schweiz": "CH",
    "osterreich": "AT",
    "hong kong": "HK",
    "macau": "MO",
    "syria": "SY",
    "tanzania": "TZ",
    "bolivia": "BO",
    "venezuela": "VE",
    "moldova": "MD",
    "laos": "LA",
    "uae": "AE",
    "united arab emirates": "AE",
    "saudi arabia": "SA",
    "ivory coast": "CI",
    "cote d ivoire": "CI",
    "palestine": "PS",
    "kosovo": "XK",
}


def _iso_countries() -> dict[str, str]:
    import importlib.util  # tzdata (pydantic-settings' and Prefect's) ships IANA's iso3166.tab

    spec = importlib.util.find_spec("tzdata")
    if spec is None or spec.origin is None:
        return {}
    table = Path(spec.origin).parent / "zoneinfo" / "iso3166.tab"
    out: dict[str, str] = {}
    for line in table.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        code, name = line.split("\t", 1)
        out[fold(name)] = code.strip().upper()
        out[fold(name.split(" (")[0].split(",")[0])] = code.strip().upper()
    return out


def countries() -> dict[str, str]:
    found = _iso_countries()
    found.update(COUNTRY_ALIASES)
    found.pop("", None)
    return dict(sorted(found.items()))


def _shared_records(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    for line in lines:
        if line.strip():
            yield json.loads(line)


def _from_v2(record: dict[str, Any]) -> dict[str, Any]:
    """A schema v2 record in the shared file's fields."""
    names = record.get("names") or []

    def of(kind: str) -> list[str]:
        return [str(n["value"]) for n in names if kind in (n.get("types") or [])]

    display = of("ror_display") or of("label") or [""]
    loc = ((record.get("locations") or [{}])[0] or {}).get("geonames_details") or {}
    rels = record.get("relationships") or []
    return {
        "id": str(record["id"]).rsplit("/", 1)[-1],
        "name": display[0],
        "labels": [n for n in of("label") if n != display[0]],
        "aliases": of("alias"),
        "acronyms": of("acronym"),
        "types": [str(t).lower() for t in record.get("types") or []],
        "country": loc.get("country_code") or "",
        "city": loc.get("name") or "",
        "status": record.get("status") or "active",
        "parents": [str(r["id"]).rsplit("/", 1)[-1] for r in rels if r.get("type") == "parent"],
    }


def read_records(path: Path) -> list[dict[str, Any]]:
    """ROR records from the shared jsonl(.gz) file or a schema v2 dump (.json, .zip)."""
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            member = next(n for n in sorted(archive.namelist()) if n.endswith(".json"))
            data = json.loads(archive.read(member))
        return [_from_v2(r) for r in data]
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        head = handle.read(1)
        rest = handle.read()
    text = head + rest
    if head == "[":
        return [_from_v2(r) for r in json.loads(text)]
    return list(_shared_records(io.StringIO(text)))


def _variants(name: str, city: str = "") -> list[str]:
    """A name folded, then without its "(Country)" tail, its ", City" tail, and a tail naming
    the organisation's own city ("Washington University in St. Louis", "University of North
    Carolina at Chapel Hill", "Indiana University Bloomington": printed as "Washington
    University", ...), where at least two words are left."""
    if _NON_LATIN.search(name):
        return []  # transliterated CJK or Cyrillic labels only add noise to the token index
    out = [fold(name)]
    bare = _PAREN_TAIL.sub("", name)
    if bare != name:
        out.append(fold(bare))
    if ", " in bare:
        out.append(fold(bare.rsplit(", ", 1)[0]))
    folded = fold(bare)
    if city and folded.endswith(" " + city):
        words = folded[: -len(city) - 1].split()
        while words and words[-1] in _PLACE_WORDS:
            words.pop()
        if len(words) >= 2 and words[-1] not in STOP and set(words) - _GENERIC - STOP:
            out.append(" ".join(words))
    return out


def row(record: dict[str, Any]) -> list[Any]:
    city = fold(record.get("city") or "")
    names: list[str] = []
    printed: set[str] = set()
    for value in [record.get("name") or "", *record.get("labels", []), *record.get("aliases", [])]:
        variants = _variants(str(value), city)
        printed.update(variants[:1])
        for variant in variants:
            if variant and variant not in names:
                names.append(variant)
    derived = "|".join(n for n in names if n not in printed)
    acronyms = sorted({fold(a) for a in record.get("acronyms", []) if fold(a)})
    return [
        record["id"],
        record.get("name") or "",
        (record.get("country") or "").upper(),
        city,
        sorted(record.get("types") or []),
        record.get("status") or "active",
        sorted(record.get("parents") or []),
        names,
        acronyms,
        derived,
    ]


def build_index(records: list[dict[str, Any]], source: dict[str, Any]) -> dict[str, Any]:
    """The index, laid out so that loading it is one `json.loads`: columns per organisation,
    `names` as [folded name, [org indexes]] rows, `postings` token -> name rows holding it."""
    rows = sorted((row(r) for r in records), key=lambda r: str(r[0]))
    names: dict[str, list[int]] = {}
    acronyms: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        for key in r[7]:
            names.setdefault(key, []).append(i)
        for key in r[8]:
            acronyms.setdefault(key, []).append(i)
    name_rows = sorted(names.items())
    postings: dict[str, list[int]] = {}
    for n, (key, _orgs) in enumerate(name_rows):
        for token in sorted(set(key.split())):
            postings.setdefault(token, []).append(n)
    columns = ["id", "name", "country", "city", "types", "status", "parents"]
    orgs = {c: [r[j] for r in rows] for j, c in enumerate(columns)}
    orgs["derived"] = [r[9] for r in rows]
    orgs["types"] = [" ".join(t) for t in orgs["types"]]
    orgs["parents"] = [" ".join(p) for p in orgs["parents"]]
    return {
        "format": FORMAT,
        "source": source,
        "countries": countries(),
        "orgs": orgs,
        "names": [k for k, _ in name_rows],
        "name_orgs": [_ints(v) for _, v in name_rows],
        "acronyms": {k: _ints(v) for k, v in sorted(acronyms.items())},
        "postings": {k: _ints(v) for k, v in sorted(postings.items())},
    }


def _ints(values: list[int]) -> str:
    return " ".join(map(str, values))


def write_index(index: dict[str, Any], out: Path) -> None:
    data = json.dumps(index, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with tmp.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as handle:
        handle.write(data)
    tmp.replace(out)
