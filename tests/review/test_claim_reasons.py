"""What a claim's reasons say must agree with its verdict (checking.scoring.beside_verdict)."""

from checking.claims import ClaimSpan
from checking.findings import Effect, Finding, FindingKind
from checking.scoring import beside_verdict, shown_beside_verdict
from review.labels import FINDING_KIND_LABELS
from review.pipeline import Candidate, claim_check

CHAIR = "Employees may expense up to $750 for a home office chair."


def claim_result(claim: str, evidence: str):
    return claim_check(span=ClaimSpan(claim, 0, len(claim)), candidates=[Candidate(text=evidence)], embed=None,
                       warnings=[])


def test_a_reason_agrees_with_the_verdict_beside_it():
    """The nearest passage has the claim's $750 but nothing else of it: the claim is not found, and no reason or
    finding beside that verdict says the amount "matches evidence" as if something supported the claim."""
    result = claim_result("Employees get a $750 wellness bonus every year.", CHAIR)
    assert result.verdict == "not_found", result.reasons
    assert "$750 matches evidence" not in result.reasons
    assert "$750 is in the nearest passage, which does not support the claim" in result.reasons
    assert not any(f.effect is Effect.SUPPORTS for f in result.findings)


def test_a_supported_claim_keeps_its_matching_values():
    result = claim_result(CHAIR, CHAIR)
    assert result.verdict == "supported"
    assert "$750 matches evidence" in result.reasons
    assert [f.kind for f in result.findings] == [FindingKind.QUANTITY_MATCH]


def test_only_a_not_found_verdict_rewords_what_matched():
    match = Finding(FindingKind.QUANTITY_MATCH, "$750 matches evidence", subject="$750")
    missing = Finding(FindingKind.UNSUPPORTED_TERM, "not found in evidence: wellness", subject="wellness")
    reasons = ["$750 matches evidence", "not found in evidence: wellness"]
    for verdict in ("supported", "uncertain", "contradicted"):
        assert beside_verdict(verdict=verdict, findings=[match, missing], reasons=reasons) == ([match, missing], reasons)
    assert beside_verdict(verdict="not_found", findings=[match, missing], reasons=reasons) == (
        [missing], ["$750 is in the nearest passage, which does not support the claim", "not found in evidence: wellness"])


def test_a_claim_stored_before_the_rewording_reads_as_one_scored_now():
    """The card reads the stored findings through the same rule: an older not-found claim's "$750 matches evidence"
    never stands beside "No supporting source found"."""
    from review.models import Claim

    match = Finding(FindingKind.QUANTITY_MATCH, "$750 matches evidence", subject="$750").as_dict()
    missing = Finding(FindingKind.MISSING_ENTITY, "not in evidence: wellness bonus", subject="wellness bonus").as_dict()
    stored = Claim(text="Employees get a $750 wellness bonus.", verdict="not_found", findings=[match, missing],
                   reasons=["$750 matches evidence", "not in evidence: wellness bonus"])
    supported = Claim(text="Employees may expense up to $750.", verdict="supported", findings=[match],
                      reasons=["$750 matches evidence"])

    assert [row["effect"] for row in stored.finding_rows] == ["missing"]
    assert stored.other_reasons == ["$750 is in the nearest passage, which does not support the claim"]
    assert [(row["effect"], row["message"]) for row in supported.finding_rows] == [("supports", "$750 matches evidence")]
    assert supported.other_reasons == []


def test_a_finding_kind_is_shown_in_the_readers_language():
    """The badge beside a reason names its kind as a person reads it, not as the checker stores it."""
    from django.utils import translation

    from review.models import Claim

    match = Finding(FindingKind.QUANTITY_MATCH, "600元与证据一致", subject="600元").as_dict()
    claim = Claim(text="普通员工住宿标准为每晚600元。", verdict="supported", findings=[match], reasons=["600元与证据一致"])

    with translation.override("zh-hans"):
        assert [str(row["kind"]) for row in claim.finding_rows] == ["数值一致"]
    with translation.override("en"):
        assert [str(row["kind"]) for row in Claim(text="x", verdict="supported", findings=[match]).finding_rows] \
            == ["quantity match"]


def test_every_finding_kind_has_a_badge():
    assert {str(kind) for kind in FindingKind} == set(FINDING_KIND_LABELS)


def test_a_not_found_card_shows_no_substitution_from_the_nearest_passage():
    swap = Finding(FindingKind.SUBSTITUTION, "claim says 'gym fees'; evidence says 'selection fees'", subject="gym")
    missing = Finding(FindingKind.UNSUPPORTED_TERM, "not found in evidence: gym", subject="gym")
    reasons = [swap.message, missing.message]
    assert shown_beside_verdict(verdict="not_found", findings=[swap, missing], reasons=reasons) == (
        [missing], [missing.message])
    assert shown_beside_verdict(verdict="uncertain", findings=[swap, missing], reasons=reasons) == (
        [swap, missing], reasons)
    # stored as found: the vocabulary reads the pair when a reviewer says the claim is right
    assert beside_verdict(verdict="not_found", findings=[swap, missing], reasons=reasons) == ([swap, missing], reasons)
