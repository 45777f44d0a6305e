"""Property-based tests: any Unicode gets claims, quantities and a verdict, never an exception.

Superscript and full-width digits, fractions, Arabic-Indic digits, NUL, RTL marks and emoji once made the
number parser raise (``str.isdigit`` accepts "²", ``float`` does not); offsets must stay exact throughout.
"""


from hypothesis import example, given, settings
from hypothesis import strategies as st

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.claims import split_claims
from checking.quantities import find_quantities
from checking.text import tokenize
from tests.checking.checker_inputs import ODD, WORDS, bag_of_words_embed

texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from([*ODD, *"abcXYZ 0123456789.,:-$%()\n"]), max_size=120).map("".join),
    st.lists(st.sampled_from(WORDS + ODD), max_size=40).map(" ".join),
)
LONG = ("Pro costs $12 per month; the area is 5 km² and ½ of ٣٤ users\u200f agree 😀. " * 700)[:50_000]


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
