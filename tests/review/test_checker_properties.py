"""Property-based tests: any Unicode gets claims, quantities and a verdict, never an exception.

Superscript and full-width digits, fractions, Arabic-Indic digits, NUL, RTL marks and emoji once made the
number parser raise (``str.isdigit`` accepts "²", ``float`` does not); offsets must stay exact throughout.
"""

import re
import zlib

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from review.checking.base import EvidenceCandidate
from review.checking.builtin import check_claim
from review.checking.claims import split_claims
from review.checking.quantities import find_quantities
from review.checking.text import tokenize

ODD = ["²", "³", "¹", "½", "¼", "１２３", "٣٤", "\x00", "\u200f", "\u202e", "\ufeff", "😀", "👩‍👧", "\u0301", "ß", "İ",
       "ﬁ", "\u2028", "\xa0", "…", "’", "−", "—", "$", "€", "%", "°C", "km²", "10²", "1,000", "3.5", "12 p.m.", "|",
       "# ", "- ", "1. ", "**", ".", "?", ",", ";", "U.S.", "e.g.", "日本語。", "𝟙𝟚"]
WORDS = ["The", "rate", "rose", "fell", "to", "by", "percent", "per", "month", "Pro", "plan", "costs", "$12",
         "users", "14", "days", "at", "least", "not", "never", "Refunds", "are", "available", "within", "of",
         "March", "2023", "employees", "must", "report", "lost", "laptops", "in", "2", "hours", "and", ",",
         "."]

texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from([*ODD, *"abcXYZ 0123456789.,:-$%()\n"]), max_size=120).map("".join),
    st.lists(st.sampled_from(WORDS + ODD), max_size=40).map(" ".join),
)
LONG = ("Pro costs $12 per month; the area is 5 km² and ½ of ٣٤ users\u200f agree 😀. " * 700)[:50_000]


def bag_of_words_embed(texts: list[str]) -> np.ndarray:
    """A deterministic stand-in for a sentence model: hashed word counts, L2-normalised."""
    rows = np.zeros((len(texts), 512))
    for i, text in enumerate(texts):
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            rows[i, zlib.crc32(word.encode()) % 512] += 1.0
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms == 0, 1.0, norms)


@settings(max_examples=300, deadline=None)
@given(texts)
@example("The area is 5 km² (10² m).")
@example(LONG)
def test_claim_spans_slice_the_answer(text: str) -> None:
    for claim in split_claims(text):
        assert text[claim.start : claim.end] == claim.text
        assert claim.text and claim.text == claim.text.strip()


@settings(max_examples=300, deadline=None)
@given(texts)
@example("km² ²³¹ ½ １２３ ٣٤ 10² 2² %")
@example(LONG)
def test_quantities_parse_any_text(text: str) -> None:
    tokens = tokenize(text, 0, len(text), table=False)
    for tok in tokens:
        assert text[tok.start : tok.end] == tok.text
    for quantity in find_quantities(text, tokens):
        assert 0 <= quantity.start < quantity.end <= len(text)


def test_superscripts_are_marks_beside_the_number() -> None:
    [area] = find_quantities(text := "an area of 5 km² in all", tokenize(text, 0, len(text), table=False))
    assert (area.kind, area.value, area.surface) == ("length:m", 5000.0, "5 km")


@settings(max_examples=150, deadline=None)
@given(claim=texts, evidence=st.lists(texts, max_size=3), embedded=st.booleans())
@example(claim="The area is 5 km².", evidence=["The area is 5 km² (½ of it water, ٣٤ lakes)."], embedded=True)
@example(claim=LONG[:5000], evidence=[LONG], embedded=True)
def test_any_text_gets_a_score_and_a_quote_inside_the_evidence(claim: str, evidence: list[str], embedded: bool) -> None:
    outcome = check_claim(claim=claim, candidates=[EvidenceCandidate(text) for text in evidence],
                          embed=bag_of_words_embed if embedded else None)
    assert 0.0 <= outcome.score <= 1.0
    assert outcome.reasons
    if outcome.candidate_index is None:
        assert not evidence
        return
    source = evidence[outcome.candidate_index]
    assert 0 <= outcome.quote_start <= outcome.quote_end <= len(source)
    for finding in outcome.findings:
        if finding.claim_span:
            assert 0 <= finding.claim_span[0] < finding.claim_span[1] <= len(claim)
        if finding.evidence_span:
            assert 0 <= finding.evidence_span[0] < finding.evidence_span[1] <= len(source)
