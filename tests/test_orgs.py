"""Organisations (issue 27): the resolver, `ingest orgs match`, and affiliations compared by ROR
id in the diff, on real pages and profiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import extractors
from ingest.diff.changes import DiffInput, diff
from ingest.facts import same_fact
from ingest.models import Profile, ProfileClaim, Reference, Snapshot, Source
from ingest.orgs.claims import profiles_with_orgs, with_orgs
from ingest.orgs.model import BUNDLED_MODEL, Resolver, shared_resolver
from ingest.profiles.io import load_profile
from ingest_cli.cli import main

ROOT = Path(__file__).resolve().parent.parent
OXFORD = "052gg0110"
OPENSSF = "https://github.com/ossf/tac/blob/main/README.md"


@pytest.fixture(scope="module")
def resolver() -> Resolver:
    return shared_resolver(None)


@pytest.mark.parametrize(
    "text",
    ["Oxford University", "University of Oxford",
     "Department of Computer Science, University of Oxford, Oxford, UK"],
)  # fmt: skip
def test_respellings_resolve_to_one_organisation(resolver: Resolver, text: str) -> None:
    found = resolver.match(text)
    assert found.org is not None and found.org.id == OXFORD and found.org.country == "GB"
    assert 0.5 < found.confidence <= 1.0


@pytest.mark.parametrize(
    "text",
    ["Department of Computer Science", "Paris", "Bloomberg L.P.", "", "Defense Unicorns"],
)
def test_no_answer_for_a_unit_a_city_or_an_organisation_the_registry_lacks(
    resolver: Resolver, text: str
) -> None:
    found = resolver.match(text)
    assert found.org is None and found.to_json()["ror"] is None


# ROR: Meta (United States) 01zbnvs85 and its units Meta (United Kingdom), Meta (Israel); Nvidia
# (United States) 03jdj4y14 and Nvidia (United Kingdom), NVIDIA (Italy); Red Hat (United States)
# 03ncs3316 and Red Hat (Canada); "Facebook" is an alias of Meta (United States)
@pytest.mark.parametrize(
    ("text", "ror"),
    [("Meta", "01zbnvs85"), ("NVIDIA", "03jdj4y14"), ("Red Hat", "03ncs3316"),
     ("Facebook AI Research", "01zbnvs85"), ("OpenAI", "05wx9n238")],
)  # fmt: skip
def test_a_company_printed_alone_is_the_company_not_a_national_unit(
    resolver: Resolver, text: str, ror: str
) -> None:
    found = resolver.match(text)
    assert found.org is not None and found.org.id == ror, found
    assert found.confidence >= resolver.model.threshold


def test_the_wikis_profiles_affiliations_resolve(resolver: Resolver) -> None:
    """The bundled profiles print "Meta", "NVIDIA", "OpenAI" and "Oxford University" alone."""
    folder = ROOT / "fixtures" / "profiles"
    profiles = {p.id: p for p in (load_profile(f) for f in sorted(folder.glob("*.json")))}
    resolved = profiles_with_orgs(profiles, resolver)
    found = {
        c.object: c.qualifiers["org"]["ror"]
        for p in resolved.values()
        for c in p.claims
        if c.predicate == "affiliation" and isinstance(c.qualifiers.get("org"), dict)
    }
    want = {"Meta": "01zbnvs85", "NVIDIA": "03jdj4y14", "OpenAI": "05wx9n238"}
    assert {k: found.get(k) for k in want} == want and found.get("Oxford University") == OXFORD


def test_a_thousand_strings_resolve_in_under_ten_seconds(resolver: Resolver) -> None:
    """Bulk speed on real registry names (one organisation in 50 of the bundled index), half of
    them behind a department, as `orgs match` reads them: the resolver loaded once. CPU time,
    not wall time: the machine running the tests may be shared."""
    import time

    names = resolver.registry.columns["name"][::50][:1000]
    lines = [f"Department of Physics, {n}" if i % 2 else n for i, n in enumerate(names)]
    assert len(lines) == 1000
    started = time.process_time()
    found = [resolver.match(line) for line in lines]
    assert time.process_time() - started < 10.0
    # most display names resolve to their own organisation (a measure, not a speed check)
    ids = resolver.registry.columns["id"][::50][:1000]
    right = sum(f.org is not None and f.org.id == i for f, i in zip(found, ids, strict=True))
    assert right >= 700, right


def test_the_model_loads_in_well_under_a_second() -> None:
    import time

    from ingest.orgs.model import load_model

    started = time.perf_counter()
    model = load_model()
    assert time.perf_counter() - started < 1.0
    assert len(model.forest.trees) > 10 and model.prior


def test_the_exported_forest_is_the_fitted_one() -> None:
    """The second stage's trees leave scikit-learn as plain arrays; on constructed data the
    exported forest must give scikit-learn's own decision function."""
    import random

    from sklearn.ensemble import HistGradientBoostingClassifier

    from ingest.orgs.boost import export as _export

    rng = random.Random(0)
    xs = [[rng.random(), rng.random(), float(rng.randint(0, 3))] for _ in range(400)]
    ys = [int(x[0] + 0.3 * x[2] > 1.0) for x in xs]
    clf = HistGradientBoostingClassifier(max_iter=20, max_depth=3, random_state=0).fit(xs, ys)
    forest = _export(clf)
    for x, want in zip(xs, clf.decision_function(xs), strict=True):
        assert forest.logit(x) == pytest.approx(float(want), abs=1e-9)
    assert {round(forest.logit(x)) > 0 for x in xs} == {True, False}


def test_match_reads_stdin_in_order_as_json_lines() -> None:
    lines = "University of Oxford\nDepartment of Computer Science\nOxford University\n"
    result = CliRunner().invoke(main, ["orgs", "match", "--json"], input=lines)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["input"] for r in rows] == lines.splitlines()
    assert [r["ror"] for r in rows] == [OXFORD, None, OXFORD]
    assert set(rows[0]) == {"input", "ror", "name", "country", "confidence"}


def test_the_confidence_weighs_the_linear_part_by_its_share() -> None:
    import math

    from ingest.orgs.model import LINEAR_FEATURES, Abstainer, Scored
    from ingest.orgs.rerank import Forest

    scored = Scored(org=0, logit=1.0, margin=0.0, apart=0.0)
    linear = [0.0, 1.0] + [0.0] * (3 + len(LINEAR_FEATURES))  # sigmoid(the winner's logit)
    trees = Forest(0.0, ())  # no trees: 0.5
    assert Abstainer(linear, trees, 0.0).confidence(scored) == 0.5
    both = Abstainer(linear, trees, 0.5).confidence(scored)
    assert both == pytest.approx((1 / (1 + math.exp(-1.0)) + 0.5) / 2)
    assert Abstainer(linear, trees, 0.5).confidence(Scored(None, 0.0, 0.0)) == 0.0


def test_the_shipped_model_keeps_its_held_out_figures() -> None:
    model = json.loads(BUNDLED_MODEL.read_text())
    held = model["held_out"]
    assert held["strings"] > 1000 and held["precision"] >= 0.95 and held["recall"] >= 0.75


def _oxford_claim(text: str):
    from ingest.models import Claim, Evidence, Subject

    return Claim(
        subject=Subject(name="Alban Desmaison"), predicate="affiliation", object=text,
        qualifiers={"work": "arXiv:1912.01703", "date": "2019-12-03", "affiliation_text": text},
        evidence=Evidence(url="https://arxiv.org/abs/1912.01703", sha256="0" * 64,
                          locator="affiliations", quote=text),
        extractor="arxiv_pdf/1",
    )  # fmt: skip


def test_a_respelled_affiliation_flags_nothing(resolver: Resolver) -> None:
    """Alban Desmaison's profile cites the 2019 paper's "Oxford University"; a reading that
    prints "University of Oxford, UK" is the same organisation (by ROR id), not a new fact."""
    alban = load_profile(ROOT / "fixtures" / "profiles" / "alban-desmaison.json")
    claim = with_orgs([_oxford_claim("University of Oxford, UK")], resolver)[0]
    assert claim.qualifiers["org"]["ror"] == OXFORD
    profiles = profiles_with_orgs({alban.id: alban}, resolver)
    prev = next(c for c in profiles[alban.id].claims if c.object == "Oxford University")
    assert prev.qualifiers["org"]["ror"] == OXFORD
    assert same_fact(prev.predicate, prev.object, prev.qualifiers, claim.predicate,
                     claim.object, claim.qualifiers)  # fmt: skip
    source = Source(url="https://arxiv.org/abs/1912.01703")
    changes = diff(DiffInput(source=source, snapshot_sha256="0" * 64,
                             resolved=[(alban.id, claim)], profiles=profiles,
                             allow_removals=False, renames={}))  # fmt: skip
    assert changes == []


def _openssf(name: str, resolver: Resolver) -> list:
    body = (ROOT / "fixtures" / "governance-train" / name).read_bytes()
    snapshot = Snapshot(url=OPENSSF, body=body)
    found = list(extractors.choose(OPENSSF, snapshot).extract(snapshot))
    return with_orgs([c for c in found if c.subject.name == "Stephen Augustus"], resolver)


def test_a_real_move_is_one_changed_flag(resolver: Resolver) -> None:
    """OpenSSF TAC README: Stephen Augustus, Independent (2025) -> Bloomberg L.P. (2026)."""
    before = _openssf("openssf-tac-readme.2025-01-17.30ce1546.md", resolver)
    after = _openssf("openssf-tac-readme.2026-04-14.599a748d.md", resolver)
    profile = Profile(
        id="stephen-augustus", name="Stephen Augustus",
        claims=[ProfileClaim(id=f"c{i}", predicate=c.predicate, object=c.object,
                             qualifiers=c.qualifiers, refs=["r1"]) for i, c in enumerate(before)],
        references=[Reference(id="r1", url=OPENSSF)],
    )  # fmt: skip
    source = Source(url=OPENSSF)
    changes = diff(DiffInput(source=source, snapshot_sha256="1" * 64,
                             resolved=[(profile.id, c) for c in after],
                             profiles={profile.id: profile}, allow_removals=True,
                             renames={}))  # fmt: skip
    affiliation = [c for c in changes if (c.claim or c.previous or {}).get("predicate")
                   == "affiliation"]  # fmt: skip
    assert [(c.kind, c.claim["object"], c.previous["object"]) for c in affiliation] == [
        ("changed", "Bloomberg L.P.", "Independent")
    ]


def test_a_finer_unit_of_the_same_organisation_is_the_same_fact() -> None:
    unit = {"work": "arXiv:1", "org": {"ror": "unit0001", "name": "Lab", "parents": [OXFORD]}}
    whole = {"work": "arXiv:1", "org": {"ror": OXFORD, "name": "University of Oxford"}}
    other = {"work": "arXiv:1", "org": {"ror": "05ct4s596", "name": "Elsewhere"}}
    assert same_fact("affiliation", "Some Lab", unit, "affiliation", "Oxford", whole)
    assert not same_fact("affiliation", "Oxford", whole, "affiliation", "Oxford", other)


def test_people_per_organisation_from_the_profiles(tmp_path: Path) -> None:
    env = {"INGEST_HOME": str(tmp_path), "INGEST_PROFILES_DIR": str(ROOT / "fixtures" / "profiles")}
    result = CliRunner().invoke(main, ["orgs", "people", OXFORD, "--json"], env=env)
    assert result.exit_code == 0, result.output
    (entry,) = [json.loads(line) for line in result.output.splitlines()]
    assert entry["org"] == OXFORD
    assert [(p["profile"], p["when"]) for p in entry["people"]] == [("alban-desmaison", "past")]


def test_review_page_and_report_show_the_resolved_organisation() -> None:
    from ingest.report.run import describe
    from ingest.review.web.views import statement

    claim = {"predicate": "affiliation", "object": "Oxford University",
             "qualifiers": {"work": "arXiv:1912.01703",
                            "org": {"ror": OXFORD, "name": "University of Oxford"}}}  # fmt: skip
    shown = statement(claim)
    assert shown is not None and (shown.org, shown.org_id) == ("University of Oxford", OXFORD)
    assert all(name != "org" for name, _v, _d in shown.qualifiers)
    line = describe({"kind": "added", "claim": claim})
    assert "Oxford University [= University of Oxford" in line
    assert f"ingest orgs people {OXFORD}" in line


def test_the_race_knows_who_is_whose_unit(resolver: Resolver) -> None:
    """Meta (United States) is the parent of Meta (United Kingdom) in ROR; the second stage's
    features say so for both, and carry the prior of each (leave-one-out in training)."""
    from ingest.orgs.rerank import REL_NAMES, Runner, race_features

    reg = resolver.registry
    us, uk = reg.by_id["01zbnvs85"], reg.by_id["020ye1821"]
    x = tuple(0.0 for _ in range(len(resolver.model.weights)))
    race = [Runner(us, 2.0, x, 1, 1), Runner(uk, 1.5, x, 2, 1)]
    rows = race_features(race, reg, {"020ye1821": (3, 10)})
    rel = [dict(zip(REL_NAMES, row[len(x) :], strict=True)) for row in rows]
    assert (rel[0]["ancestor_of"], rel[0]["descendant_of"], rel[0]["units_in_race"]) == (1, 0, 1)
    assert (rel[1]["ancestor_of"], rel[1]["descendant_of"], rel[1]["s1_gap"]) == (0, 1, -0.5)
    assert rel[1]["prior_share"] == pytest.approx(3.5 / 12) and rel[0]["prior_share"] == 0.25
    assert rel[1]["doors"] == 2 and rel[1]["depth"] == 1


def test_a_name_is_also_indexed_without_its_own_city() -> None:
    """ROR names some universities with their city ("Washington University in St. Louis");
    papers print "Washington University School of Medicine". The index also holds the name
    without that city, unless only generic words would be left."""
    from ingest.orgs.build import _variants

    assert (
        _variants("Washington University in St. Louis", "st louis")[-1] == "washington university"
    )
    assert "university of north carolina" in _variants(
        "University of North Carolina at Chapel Hill", "chapel hill"
    )
    assert "indiana university" in _variants("Indiana University Bloomington", "bloomington")
    assert _variants("Technical University of Munich", "munich") == [
        "technical university of munich"
    ]
    assert _variants("University of Oxford", "oxford") == ["university of oxford"]
    assert _variants("Washington University in St. Louis", "") == [
        "washington university in st louis"
    ]


def test_the_bundled_index_proposes_a_university_printed_without_its_city() -> None:
    from ingest.orgs.candidates import candidates, context
    from ingest.orgs.registry import load_registry

    registry = load_registry()
    text = "Department of Medicine, Washington University School of Medicine"
    found = candidates(context(text, registry), registry)
    names = {registry.columns["name"][c.org] for c in found if c.door == "exact"}
    assert "Washington University in St. Louis" in names


def test_the_race_knows_which_organisation_is_printed_after_which(resolver: Resolver) -> None:
    """ "Institute X, University Y": the label convention is one of position, so the second stage
    sees, for each runner, the organisations outside its family printed as a whole segment after
    and before its own; a unit and its parent are one family and do not count."""
    from ingest.orgs.features import NAMES
    from ingest.orgs.rerank import REL_NAMES, Runner, race_features

    reg = resolver.registry
    us, uk, oxford = reg.by_id["01zbnvs85"], reg.by_id["020ye1821"], reg.by_id[OXFORD]

    def x(last: float) -> tuple[float, ...]:
        f = dict.fromkeys(NAMES, 0.0) | {"exact_segment": 1.0, "last_segment": last}
        return tuple(f[n] for n in NAMES)

    race = [Runner(us, 2.0, x(0.5), 1, 1), Runner(uk, 1.5, x(0.5), 1, 1)]
    race.append(Runner(oxford, 1.0, x(1.0), 1, 1))  # the last segment
    rows = race_features(race, reg, {})
    rel = [dict(zip(REL_NAMES, row[len(NAMES) :], strict=True)) for row in rows]
    assert [(r["whole_later"], r["whole_earlier"], r["seg_rank"]) for r in rel] == [
        (1, 0, 1), (1, 0, 1), (0, 2, 0)
    ]  # fmt: skip


def test_the_abstention_model_sees_how_many_organisations_the_string_prints() -> None:
    from ingest.orgs.features import NAMES
    from ingest.orgs.model import SHAPE_WIDTH, string_shape

    def x(**on: float) -> list[float]:
        return [on.get(n, 0.0) for n in NAMES]

    pairs = [
        (7, x(exact=1.0, exact_segment=1.0), "exact", 0),  # "Institut Curie, ..."
        (9, x(exact=1.0, exact_segment=1.0), "exact", 1),  # "..., Sorbonne Université"
        (9, x(), "overlap", 0),
        (11, x(), "overlap", 2),
    ]
    shape = string_shape(pairs, 7)
    assert len(shape) == SHAPE_WIDTH
    assert shape == (3.0, 2.0, 2.0, 1.0, 1.0, 0.0, 3.0)
    assert string_shape(pairs, 9)[3:6] == (1.0, 0.0, 1.0)
    # not printed as a whole segment itself: every organisation that is counts as after it
    assert string_shape(pairs, 11)[3:6] == (0.0, 2.0, 0.0)
