"""How well the governance reader's `confidence` says how often a claim is right.

The unit is what the editor sees: an emitted `maintainer` claim, right when it names a gold
person of its page. `cross_validate` (`governance_model`) collects, for each project, the claims
the model fitted without that project emits on its pages (`OutOfFold`: the logit and whether it
was right). The shipped map (`extractors.people.model.isotonic`) is fitted on all of them; the
figures here are cross-validated once more: each project's claims get the confidence of a map
fitted on the other projects' claims only, so no claim is scored by a map that saw it.

- reliability table: claims binned by confidence (`BINS` equal-width bins over 0..1): count,
  mean confidence, observed precision;
- ECE (expected calibration error): the count-weighted mean |precision - mean confidence| of the
  bins; Brier score: the mean squared difference between confidence and outcome (1 right, 0 not);
- mean confidence of the right claims and of the wrong ones (wrong claims should get less).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from extractors.people.model import isotonic, step

BINS = 10


@dataclass(frozen=True)
class OutOfFold:
    group: str  # the project left out when the claim's model was fitted
    logit: float
    right: bool


@dataclass
class Bin:
    low: float
    high: float
    count: int = 0
    confidence: float = 0.0  # sum, then mean
    right: int = 0

    @property
    def precision(self) -> float | None:
        return self.right / self.count if self.count else None


@dataclass
class Calibration:
    claims: int
    wrong: int
    bins: list[Bin] = field(default_factory=list)
    ece: float = 0.0
    brier: float = 0.0
    mean_right: float | None = None
    mean_wrong: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": "emitted person claims, right when they name a gold person of the page",
            "claims": self.claims,
            "wrong": self.wrong,
            "ece": round(self.ece, 4),
            "brier": round(self.brier, 4),
            "mean_confidence_right": _round(self.mean_right),
            "mean_confidence_wrong": _round(self.mean_wrong),
            "bins": [
                {
                    "low": b.low,
                    "high": b.high,
                    "count": b.count,
                    "mean_confidence": _round(b.confidence if b.count else None),
                    "precision": _round(b.precision),
                }
                for b in self.bins
            ],  # fmt: skip
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def cross_validated(claims: Sequence[OutOfFold]) -> list[tuple[float, bool]]:
    """Each claim's confidence from the map fitted without its project, with its outcome."""
    out = []
    for group in sorted({c.group for c in claims}):
        curve = isotonic((c.logit, c.right) for c in claims if c.group != group)
        for c in claims:
            if c.group == group:
                out.append((step(curve, c.logit) if curve else 0.5, c.right))
    return out


def calibrate(claims: Sequence[OutOfFold]) -> Calibration:
    return reliability(cross_validated(claims))


def reliability(scored: Sequence[tuple[float, bool]]) -> Calibration:
    """The reliability table, ECE, Brier score and mean confidences of (confidence, right)."""
    bins = [Bin(i / BINS, (i + 1) / BINS) for i in range(BINS)]
    for p, y in scored:
        b = bins[min(int(p * BINS), BINS - 1)]
        b.count += 1
        b.confidence += p
        b.right += y
    for b in bins:
        if b.count:
            b.confidence /= b.count
    n = len(scored)
    right = [p for p, y in scored if y]
    wrong = [p for p, y in scored if not y]
    return Calibration(
        claims=n,
        wrong=len(wrong),
        bins=bins,
        ece=sum(b.count * abs(b.right / b.count - b.confidence) for b in bins if b.count) / n
        if n
        else 0.0,
        brier=sum((p - y) ** 2 for p, y in scored) / n if n else 0.0,
        mean_right=sum(right) / len(right) if right else None,
        mean_wrong=sum(wrong) / len(wrong) if wrong else None,
    )


def format_calibration(c: Calibration) -> str:
    """The reliability table and its figures, as text."""
    out = [
        "confidence of person claims, cross-validated (each project's claims calibrated by a "
        "map fitted without it):",
        f"{'confidence':<12} {'claims':>6} {'mean conf':>9} {'precision':>9}",
    ]
    for b in c.bins:
        if b.count:
            out.append(
                f"{b.low:.1f}-{b.high:.1f}     {b.count:6d} {b.confidence:9.3f} "
                f"{b.precision or 0.0:9.3f}"
            )
    mean_right = "-" if c.mean_right is None else f"{c.mean_right:.3f}"
    mean_wrong = "-" if c.mean_wrong is None else f"{c.mean_wrong:.3f}"
    out.append(
        f"claims {c.claims} (wrong {c.wrong})  ECE {c.ece:.4f}  Brier {c.brier:.4f}  "
        f"mean confidence: right {mean_right}, wrong {mean_wrong}"
    )
    return "\n".join(out)
