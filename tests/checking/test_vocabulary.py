"""Accepted synonyms in the checker (checking.vocabulary): an accepted pair counts as the same word in the word
coverage and the Ask gate, a phrase side only where the text has all its words, and a changed vocabulary counts
at the next refresh, cached evidence units included. A source of hand-made pairs here; kb's is tested in
tests/kb/test_vocabulary.py."""

import pytest

from ask.gate import gate_decide
from checking import vocabulary
from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import FindingKind
from checking.vocabulary import VocabularyPair, VocabularySource, phrase_stems, vocabulary_in, vocabulary_refresh
from checking.windows import stem_found
from kb.models import Chunk
from kb.search import SearchHit

TAXI = "Staff on business trips may take a taxi to the airport."
CAB = "Staff on business trips may take a cab to the airport."
ZH_TAXI = "员工出差可以乘坐出租车，费用凭发票报销。"
ZH_CAB = "员工出差可以打车，费用凭发票报销。"


class Pairs:
    """A vocabulary of its own, changed by the test as kb's is by curators."""

    def __init__(self) -> None:
        self.pairs: list[VocabularyPair] = []
        self.version = 0

    def set(self, *pairs: tuple[str, str]) -> None:
        self.pairs = [VocabularyPair(words=a, other_words=b) for a, b in pairs]
        self.version += 1

    def source(self) -> VocabularySource:
        return VocabularySource(version=lambda: self.version, pairs=lambda: list(self.pairs))


@pytest.fixture(autouse=True)
def pairs():
    """Hand-made pairs as the checker's source (no database); kb's source (kb/apps.py) is put back afterwards."""
    from kb.vocabulary import VOCABULARY_SOURCE

    own = Pairs()
    vocabulary.vocabulary_source_register(own.source())
    yield own
    vocabulary.vocabulary_source_register(VOCABULARY_SOURCE)


def check(claim: str, evidence: str):
    vocabulary_refresh()
    return check_claim(claim=claim, candidates=[EvidenceCandidate(evidence)], embed=None)


def kinds(outcome) -> set[FindingKind]:
    return {f.kind for f in outcome.findings}


def test_a_word_in_another_words_place_names_both_words():
    outcome = check(CAB, TAXI)

    swap = next(f for f in outcome.findings if f.kind is FindingKind.SLOT_SWAP)
    substitution = next(f for f in outcome.findings if f.kind is FindingKind.SUBSTITUTION)
    assert (swap.subject, swap.rival) == ("cab", "taxi")
    assert (substitution.subject, substitution.rival) == ("cab", "taxi")
    assert swap.as_dict()["rival"] == "taxi" and type(swap).from_dict(swap.as_dict()) == swap
    zh = check(ZH_CAB, ZH_TAXI)
    assert next((f.subject, f.rival) for f in zh.findings if f.kind is FindingKind.SLOT_SWAP) == ("打车", "乘坐 出租车")


def test_an_accepted_pair_is_the_same_word_to_the_checker_and_removing_it_undoes_that(pairs):
    held = check(CAB, TAXI)
    assert FindingKind.SLOT_SWAP in kinds(held)

    pairs.set(("cab", "taxi"))
    credited = check(CAB, TAXI)
    assert not kinds(credited) & {FindingKind.SLOT_SWAP, FindingKind.SUBSTITUTION, FindingKind.UNSUPPORTED_TERM}
    assert credited.score > held.score + 0.3

    pairs.set()
    again = check(CAB, TAXI)
    assert FindingKind.SLOT_SWAP in kinds(again) and again.score == pytest.approx(held.score)


def test_a_chinese_phrase_side_counts_where_the_text_has_all_its_words(pairs):
    pairs.set(("打车", "乘坐 出租车"))

    assert not kinds(check(ZH_CAB, ZH_TAXI)) & {FindingKind.SLOT_SWAP, FindingKind.UNSUPPORTED_TERM}
    assert vocabulary_in("打车", {"乘坐", "出租车", "费用"})
    assert not vocabulary_in("打车", {"出租车", "费用"})  # half the phrase is not the phrase
    assert vocabulary_in("出租车", {"打车"}) and vocabulary_in("乘坐", {"打车"})  # either way round


def test_a_phrase_pair_credits_the_words_it_does_not_share(pairs):
    pairs.set(("jobless rate", "unemployment rate"))
    vocabulary_refresh()
    stems = set(phrase_stems("The unemployment rate was 3.5 percent."))

    assert stem_found(phrase_stems("jobless")[0], stems) == 1.0
    assert not vocabulary_in(phrase_stems("jobless")[0], set(phrase_stems("unemployment claims")))
    outcome = check("The jobless rate was 3.5 percent in March.", "The unemployment rate was 3.5 percent in March.")
    assert FindingKind.SUBSTITUTION not in kinds(outcome) and FindingKind.UNSUPPORTED_TERM not in kinds(outcome)


def test_sides_are_read_as_the_checker_reads_claims():
    assert phrase_stems("Cabs") == phrase_stems("cab")
    assert phrase_stems("the") == () and phrase_stems("") == ()
    assert phrase_stems("乘坐 出租车") == ("乘坐", "出租车")


def test_the_source_is_asked_once_per_refresh_and_read_only_when_it_changed(pairs):
    pairs.set(("cab", "taxi"))
    read = []
    vocabulary.vocabulary_source_register(VocabularySource(version=lambda: pairs.version,
                                                           pairs=lambda: read.append(1) or pairs.pairs))
    vocabulary_refresh()
    vocabulary_refresh()
    assert len(read) == 1  # the second refresh found the same version

    pairs.set(("cab", "taxi"), ("jobless", "unemployed"))
    vocabulary_refresh()
    assert len(read) == 2 and vocabulary_in("jobless", {"unemploy"} | set(phrase_stems("unemployed")))


def hit(text: str) -> SearchHit:
    return SearchHit(chunk=Chunk(text=text, heading_path="Travel"), score=0.03, fulltext_rank=1, similarity=0.6,
                     vector_rank=1)


def test_the_ask_gate_answers_a_question_worded_with_an_accepted_synonym(pairs, settings):
    settings.ASK_GATE_TERM_SIMILARITY = 0  # word families and accepted pairs only: no model

    def decide(question: str, passage: str) -> tuple[str, list[str]]:
        vocabulary_refresh()  # as ask_draft does before the gate
        decision = gate_decide(question=question, hits=[hit(passage)], min_similarity=0.3, min_coverage=1.0)
        return decision.status, decision.missing_terms

    assert decide("出差可以打车吗？", ZH_TAXI) == ("insufficient_evidence", ["打车"])
    assert decide("Can staff take a cab to the airport?", TAXI) == ("insufficient_evidence", ["cab"])

    pairs.set(("打车", "出租车"), ("cab", "taxi"))

    assert decide("出差可以打车吗？", ZH_TAXI) == ("answered", [])
    assert decide("Can staff take a cab to the airport?", TAXI) == ("answered", [])
