"""Organisations: affiliation strings resolved to the Research Organization Registry (ROR).

registry.py   the compact index (bundled, or built from a full ROR dump) and its lookups
build.py      builds the compact index from ROR records (shared jsonl or a v2 JSON dump)
text.py       folding, segments, countries named in a string
spelling.py   words the registry never prints read as words it does ("Wuerzburg", "Genenetech")
candidates.py rules propose: exact names, acronyms and IDF-weighted token overlap
features.py   pure: candidate -> feature dict
model.py      the fitted weights (model.json) and the resolver that applies them
train.py      fits the model and measures it on a held-out split
people.py     the wiki's people per organisation, from the profiles
"""
