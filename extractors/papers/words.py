"""Word lists and word helpers shared by the author-block parser and the email assignment."""

from __future__ import annotations

from ingest.names import fold

# Words that mark a text as an institution (lower-case, folded). Weighted for `organisation`.
INSTITUTION_WORDS = {
    "university": 5, "universitat": 5, "universite": 5, "universidad": 5, "universita": 5,
    "universiteit": 5, "college": 4, "institute": 4, "institut": 4, "instituto": 4,
    "istituto": 4, "laboratory": 4, "laboratories": 4, "lab": 3, "labs": 3, "inc": 4,
    "corp": 4, "corporation": 4, "ltd": 4, "llc": 4, "gmbh": 4, "company": 3, "group": 3,
    "research": 3, "ai": 3, "academy": 4, "hospital": 4, "foundation": 3, "centre": 2,
    "center": 2, "school": 2, "department": 1, "dept": 1, "faculty": 1, "division": 1,
    "google": 5, "deepmind": 5, "meta": 5, "facebook": 5, "nvidia": 5, "microsoft": 5,
    "amazon": 5, "apple": 5, "openai": 5, "anthropic": 5, "ibm": 5, "intel": 5,
    "huawei": 5, "alibaba": 5, "tencent": 5, "baidu": 5, "bytedance": 5, "salesforce": 5,
    "adobe": 5, "samsung": 5, "sony": 5, "netflix": 5, "uber": 5, "polytechnic": 5,
    "politecnico": 5, "eth": 4, "epfl": 5, "mit": 5, "cnrs": 5, "inria": 5, "csail": 4,
    "technologies": 3, "technology": 2, "sciences": 1, "systems": 1, "national": 1,
    "observatory": 4, "observatoire": 4, "laboratoire": 4, "laboratorio": 4, "universitet": 5,
    "hochschule": 4, "centro": 2, "clinic": 3, "museum": 3, "departamento": 1,
    "departement": 1, "dipartimento": 1,
}  # fmt: skip
ACRONYM_SKIP = {"of", "for", "and", "the", "de", "da", "di", "at", "in", "&"}


def words_of(text: str) -> list[str]:
    return fold(text).split()


def acronym(text: str) -> str:
    return "".join(w[0] for w in words_of(text) if w not in ACRONYM_SKIP)
