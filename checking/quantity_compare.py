"""How two quantities compare: the same kind, and the same value at the precision the claim is written to."""

from __future__ import annotations

import math
import re

from checking.quantities import Quantity


def comparable(claim: Quantity, evidence: Quantity) -> bool:
    if {claim.kind, evidence.kind} == {"fraction", "percent"}:
        return True  # "half" and "50 percent"
    if claim.kind != evidence.kind:
        return False
    if claim.kind == "date":
        return any(c is not None and e is not None for c, e in zip(claim.value, evidence.value))
    return True


def same_value(claim: Quantity, evidence: Quantity) -> bool:
    if claim.kind == "date":
        return all(c is None or e is None or c == e for c, e in zip(claim.value, evidence.value))
    c, e = _as_percent(claim), _as_percent(evidence)
    if claim.bound and not evidence.bound:  # "more than 200,000" against 236,000
        if claim.scale != evidence.scale and math.isclose(c / claim.scale, e / evidence.scale):
            return False  # "no later than 35 weeks" against 35 days: the number kept, its unit swapped
        if abs(claim.bound) == 2:
            return e > c if claim.bound > 0 else e < c
        return e >= c if claim.bound > 0 else e <= c
    if math.isclose(c, e, rel_tol=1e-9, abs_tol=1e-9):
        return True
    if e == 0:
        return False
    if claim.hedged:  # "about 240,000" is 236,000 rounded to its last non-zero digit; "roughly 16" is not 17
        step = _precision(claim)
        return math.isclose(round(e / step) * step, c, rel_tol=1e-9)
    rounded = round(e / claim.scale, claim.decimals) * claim.scale
    return math.isclose(rounded, c, rel_tol=1e-9) and abs(c - e) / abs(e) <= 0.015


def _precision(quantity: Quantity) -> float:
    """The step a written number is given to: 0.1 for "5.9", 10,000 for "240,000", a million for "2 million"."""
    if quantity.decimals:
        return quantity.scale * 10.0 ** -quantity.decimals
    written = round(abs(float(quantity.value)) / quantity.scale)
    zeros = len(str(written)) - len(str(written).rstrip("0")) if written else 0
    return quantity.scale * 10.0 ** min(zeros, len(str(written)) - 1)


def _as_percent(quantity: Quantity) -> float:
    return float(quantity.value) * (100 if quantity.kind == "fraction" else 1)


def describe(quantity: Quantity) -> str:
    if quantity.kind == "percent":
        number = re.search(r"[-+−]?[0-9][0-9,]*(?:\.[0-9]+)?", quantity.surface)
        if number:
            return f"{number.group()} percent"
    return quantity.surface
