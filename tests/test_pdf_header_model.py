"""The learned header reader of arxiv_pdf: line features, the logistic regression and its
shipped weights, the fallback reader's linking, confidences on every affiliation claim."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from extractors.papers import linemodel
from extractors.papers.learned import read_header
from extractors.papers.linefeatures import line_features
from extractors.papers.linemodel import LABELS, LineModel, transitions
from extractors.papers.pdf import extract, parse_paper
from extractors.papers.text import Cell, Line, Segment
from ingest.models import Snapshot
from ingest_cli.train.fit import fit, platt
from ingest_cli.train.labels import label_lines, page_lines

ROOT = Path(__file__).resolve().parent.parent
TRAIN = ROOT / "fixtures" / "arxiv" / "pdf-train"
GOLD_TRAIN = ROOT / "fixtures" / "arxiv" / "gold-train"


def _line(y: float, *parts: str, size: float = 10.0, font: str = "Times") -> Line:
    """A line of runs; a run written "^1" is a superscript marker."""
    segs, x = [], 100.0
    for part in parts:
        sup, text = part.startswith("^"), part.removeprefix("^")
        segs.append(Segment(text, sup, x, size * (0.7 if sup else 1.0), font))
        x += len(text) * size * 0.5 + 1
    return Line(y=y, page=1, segments=segs, cells=[Cell(segs, 1, y)])


def test_features_name_what_the_line_shows() -> None:
    lines = [
        _line(700, "A Title of Some Length", size=17, font="Times-Bold"),
        _line(670, "Ann Lee", "^1", " and Bo Chen", "^2"),
        _line(655, "^1", "University of Nowhere, Springfield, USA"),
        _line(640, "{ann, bo}@nowhere.edu"),
        _line(600, "Abstract"),
    ]
    feats = line_features(lines)
    assert feats == line_features(lines)  # deterministic
    assert feats[0]["bold"] and any(k.startswith("size") and k != "size2" for k in feats[0])
    assert feats[1]["sup"] and feats[1]["and"]
    assert feats[2]["sup_first"] and feats[2]["country"] and "inst0" not in feats[2]
    assert feats[3]["email"] and feats[3]["brace"]
    assert feats[1]["before_abstract"] and feats[4]["abstract"]


def test_fit_separates_labels_and_is_deterministic() -> None:
    samples = [{"bias": 1.0, "email": 1.0}, {"bias": 1.0, "namey4": 1.0}] * 20
    targets = ["email", "author"] * 20
    first = fit(samples, targets, LABELS, epochs=4)
    assert first == fit(samples, targets, LABELS, epochs=4)
    model = LineModel(weights=first)
    assert max(LABELS, key=lambda k: model.probabilities(samples[0])[k]) == "email"
    assert max(LABELS, key=lambda k: model.probabilities(samples[1])[k]) == "author"


def test_platt_calibration_follows_the_outcomes() -> None:
    raw = [0.9] * 10 + [0.2] * 10
    right = [True] * 9 + [False] + [False] * 8 + [True] * 2
    model = LineModel(calibration=platt(raw, right))
    assert model.confidence(0.9) > 0.8 > 0.3 > model.confidence(0.2)
    assert 0.0 <= model.confidence(0.0) <= model.confidence(1.0) <= 1.0


def test_the_shipped_model_is_readable_json_and_loads_fast() -> None:
    data = json.loads(linemodel.MODEL_FILE.read_text("utf-8"))
    assert data["labels"] == list(LABELS)
    assert set(data["weights"]) == set(LABELS) and data["trained_on"]
    assert {"names_found", "metadata"} <= set(data["cross_validation"])
    linemodel._shipped.cache_clear()
    start = time.perf_counter()
    model = LineModel.shipped()
    assert time.perf_counter() - start < 1.0
    assert model.weights["email"]["email"] > 0


def test_fallback_links_authors_by_markers() -> None:
    lines = [
        _line(670, "Ann Lee", "^1", ", Bo Chen", "^2"),
        _line(655, "^1", "University of Nowhere"),
        _line(643, "^2", "Acme Research Labs"),
    ]
    labelled = [(k, {k: 1.0}) for k in ("author", "affiliation", "affiliation")]
    authors = read_header(lines, labelled)
    assert [(a.name, [x.text for x in a.affiliations]) for a in authors] == [
        ("Ann Lee", ["University of Nowhere"]),
        ("Bo Chen", ["Acme Research Labs"]),
    ]


def test_fallback_shares_one_unmarked_affiliation_and_anchors_known_names() -> None:
    lines = [
        _line(670, "Ann Lee, Bo Chen"),
        _line(655, "University of Nowhere, Springfield"),
    ]
    labelled = [("author", {}), ("affiliation", {})]
    authors = read_header(lines, labelled, known=["Bo Chen"])
    assert [(a.name, [x.text for x in a.affiliations]) for a in authors] == [
        ("Bo Chen", ["University of Nowhere, Springfield"])
    ]


def test_gold_labels_of_a_training_page() -> None:
    gold = json.loads((GOLD_TRAIN / "1512.03385v1.json").read_text("utf-8"))
    lines = page_lines((TRAIN / gold["file"]).read_bytes(), gold["file"])
    labels = label_lines(lines, gold)
    assert labels[:4].count("title") >= 1 and "author" in labels[:6]
    assert "affiliation" in labels[:8] and "email" in labels[:10]
    assert labels.count("other") > len(labels) // 2


def test_names_without_a_template_block_come_from_the_model() -> None:
    """2402.17764: names under the title, no affiliation in the block: the rules read nothing,
    the model reads the names (their affiliations come from the footnote)."""
    parsed = parse_paper((TRAIN / "2402.17764v1.pdf").read_bytes())
    assert parsed.reader == "model"
    assert [a.name for a in parsed.authors][:3] == ["Shuming Ma", "Hongyu Wang", "Lingxiao Ma"]


def test_every_affiliation_claim_carries_a_confidence() -> None:
    body = (TRAIN / "1906.01787v1.pdf").read_bytes()
    claims = extract(Snapshot(url="https://arxiv.org/pdf/1906.01787v1", body=body))
    affs = [c for c in claims if c.predicate == "affiliation"]
    assert affs and all(0.0 <= c.qualifiers["confidence"] <= 1.0 for c in affs)  # type: ignore[operator]
    assert len({c.qualifiers["confidence"] for c in affs}) >= 1


def test_viterbi_reads_a_wrapped_byline_as_one() -> None:
    """The sequence layer: a line the model alone calls "other" by a little reads as author
    between author lines, because author follows author far more often on the training pages."""
    seqs = [["title", "author", "author", "affiliation", "other"]] * 10 + [["title", "other"]]
    model = LineModel(transitions=transitions(seqs))
    rows = [
        {
            "title": 0.9,
            "author": 0.02,
            "affiliation": 0.02,
            "email": 0.02,
            "note": 0.02,
            "other": 0.02,
        },
        {
            "title": 0.02,
            "author": 0.9,
            "affiliation": 0.02,
            "email": 0.02,
            "note": 0.02,
            "other": 0.02,
        },
        {
            "title": 0.02,
            "author": 0.4,
            "affiliation": 0.05,
            "email": 0.02,
            "note": 0.01,
            "other": 0.5,
        },
        {
            "title": 0.02,
            "author": 0.02,
            "affiliation": 0.9,
            "email": 0.02,
            "note": 0.02,
            "other": 0.02,
        },
    ]
    assert LineModel().decode(rows) == ["title", "author", "other", "affiliation"]  # no sequence
    assert model.decode(rows) == ["title", "author", "author", "affiliation"]
    for row in model.transitions.values():  # log-probabilities of a distribution
        assert abs(sum(math.exp(v) for v in row.values()) - 1.0) < 1e-9
    assert model.transitions["author"]["author"] > model.transitions["author"]["title"]


def test_the_shipped_model_carries_its_transitions() -> None:
    model = LineModel.shipped()
    assert set(model.transitions) == {"start", *LABELS}
    assert model.transitions["author"]["author"] > model.transitions["other"]["author"]


def test_a_byline_the_path_misses_is_still_read() -> None:
    """Never nothing: every line labelled other, the header's line of names becomes the byline."""
    lines = [
        _line(700, "A Title of Some Length", size=17),
        _line(670, "Ann Lee, Bo Chen, Cy Diaz"),
        _line(655, "Some words of the abstract run on here."),
    ]
    labelled = [("other", {"author": 0.01, "other": 0.99})] * 3
    assert [a.name for a in read_header(lines, labelled)] == ["Ann Lee", "Bo Chen", "Cy Diaz"]


def test_names_printed_without_spaces_are_read() -> None:
    """JAMA's byline ("VarunGulshan,PhD;LilyPeng,MD,PhD;..."): the rules read two wrong names
    from the margin; the model backs them weakly, its reading (split at capitals, degrees
    dropped) finds all 15."""
    gold = json.loads((GOLD_TRAIN / "jama16-gulshan-diabetic-retinopathy.json").read_text("utf-8"))
    parsed = parse_paper((TRAIN / gold["file"]).read_bytes())
    assert parsed.reader == "model"
    assert [a.name for a in parsed.authors] == [a["name"] for a in gold["authors"]]
    # their affiliations from the margin's "Unit (Surname, Surname); ...", spaces put back
    pairs = {(a.name, x.text) for a in parsed.authors for x in a.affiliations}
    wanted = {(a["name"], x) for a in gold["authors"] for x in a["affiliations"]}
    assert len(pairs & wanted) >= 16 and len(pairs - wanted) <= 2


def test_footnote_are_with_sentences_give_the_model_reading_affiliations() -> None:
    """2402.17764: "S. Ma, L. Ma, L. Wang, ... are with Microsoft Research. H. Wang and R. Wang
    are with University of Chinese Academy of Sciences." Initials tell the Wangs apart."""
    parsed = parse_paper((TRAIN / "2402.17764v1.pdf").read_bytes())
    affs = {a.name: [x.text for x in a.affiliations] for a in parsed.authors}
    assert affs["Shuming Ma"] == affs["Lei Wang"] == ["Microsoft Research"]
    assert (
        affs["Hongyu Wang"] == affs["Ruiping Wang"] == ["University of Chinese Academy of Sciences"]
    )


def test_affiliations_keyed_by_trailing_markers() -> None:
    """PLDI'09: "Mozilla Corporation∗", "University of California, Irvine+": each author gets
    the affiliations of their own markers, not all four."""
    parsed = parse_paper((TRAIN / "pldi09-tracemonkey.pdf").read_bytes())
    affs = {a.name: [x.text for x in a.affiliations] for a in parsed.authors}
    assert affs["Andreas Gal"] == ["Mozilla Corporation", "University of California, Irvine"]
    assert affs["Brendan Eich"] == ["Mozilla Corporation"]
    assert affs["Mohammad R. Haghighat"] == ["Intel Corporation"]


def test_raised_markers_separate_names_without_commas() -> None:
    """ICML's byline "Neil Houlsby ¹ Andrei Giurgiu ¹* Quentin de Laroussilhe ¹": no separator
    but the raised markers, an odd count of capitalised words; the markers link the footnote."""
    lines = [
        _line(670, "Ann Lee", "^1", " Bo de Chen", "^2 *", " Cy Diaz", "^1"),
        _line(655, "^1", "University of Nowhere"),
        _line(643, "^2", "Acme Research Labs"),
    ]
    labelled = [(k, {k: 1.0}) for k in ("author", "affiliation", "affiliation")]
    authors = read_header(lines, labelled)
    assert [(a.name, [x.text for x in a.affiliations]) for a in authors] == [
        ("Ann Lee", ["University of Nowhere"]),
        ("Bo de Chen", ["Acme Research Labs"]),
        ("Cy Diaz", ["University of Nowhere"]),
    ]
