"""The reverse trace per paragraph (#24 item 4): every rendered paragraph of a version says "cited by N", linking to
the sent answers whose text cites it — released as they were, on a reviewer's override, or after an edit — and the
trace and GET /api/v1/answers/{id} show the reviewer's override and note."""

import pytest
from django.utils import timezone

from review.models import RISK_ORDER, Answer, Claim, Decision, Evidence

pytestmark = pytest.mark.django_db

POLICY = """# Expense policy

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""
MEALS = "The domestic per diem is $65 per day."
SUBMISSION = "Expense reports must be submitted within 30 days after the trip ends."


def _line(text: str) -> int:
    return POLICY[: POLICY.index(text)].count("\n") + 1


@pytest.fixture
def version(publish):
    return publish(POLICY, key="expense-policy", title="Expense policy")


@pytest.fixture
def cite(version, api_token, reviewer):
    """An answer whose claim rests on one sentence of the policy, stored as scoring and review leave it."""
    client, _ = api_token

    def make(sentence: str, *, status: str, verdict: str = "supported", score: float = 0.9,
             from_edit_sentence: str = "", override_note: str = "") -> Answer:
        answer = Answer.objects.create(
            client=client, question=f"About {sentence[:20]}?", text=sentence, status=status, risk="medium",
            risk_order=RISK_ORDER["medium"], score=score, evidence_level="internal",
            released_text=from_edit_sentence or sentence, edited_text=from_edit_sentence,
            released_at=timezone.now() if status in ("released", "approved") else None,
            decided_by=reviewer if status == "approved" else None,
        )
        claims = [(sentence, False, verdict, score)]
        if from_edit_sentence:
            claims.append((from_edit_sentence, True, "supported", 0.9))
        for text, from_edit, claim_verdict, claim_score in claims:
            overridden = bool(override_note) and not from_edit
            claim = Claim.objects.create(
                answer=answer, ordinal=0, text=text, start=0, end=len(text), score=claim_score, verdict=claim_verdict,
                reasons=["(test)"], from_edit=from_edit, review_state="confirmed" if overridden else "open",
                review_note=override_note if overridden else "", overrides_checker=overridden,
                reviewed_by=reviewer if overridden else None, reviewed_at=timezone.now() if overridden else None,
            )
            start = version.text.index(text)
            chunk = version.chunks.get(char_start__lte=start, char_end__gte=start + len(text))
            Evidence.objects.create(claim=claim, chunk=chunk, quote_start=start, quote_end=start + len(text),
                                    score=claim_score, rank=1)
        if override_note:
            Decision.objects.create(answer=answer, reviewer=reviewer, action="approve", overrides_checker=True,
                                    reason=f"claim 1 is correct: {override_note}")
        return answer

    return make


@pytest.fixture
def citing(cite):
    """Three sent answers citing the submission paragraph (as released, on an override, after an edit that moved
    the answer off the meals paragraph) and two that cite it without having been sent."""
    return {
        "released": cite(SUBMISSION, status="released"),
        "override": cite(SUBMISSION, status="approved", verdict="not_found", score=0.2,
                         override_note="HR confirmed the 30 days"),
        "edited": cite(MEALS, status="approved", from_edit_sentence=SUBMISSION),
        "waiting": cite(SUBMISSION, status="pending_review"),
        "rejected": cite(SUBMISSION, status="rejected"),
    }


def _listed(page: str) -> set[int]:
    return {int(part.split('"')[0]) for part in page.split('id="answer-')[1:]}


def test_each_paragraph_says_how_many_sent_answers_cite_it(client, curator, version, citing):
    client.force_login(curator)

    page = client.get(version.get_absolute_url()).content.decode()

    submission = _line(SUBMISSION)
    assert (f'<a class="cited-by small" href="/review/sources/expense-policy/v1/?line={submission}" '
            f'data-cited-by="3">cited by 3 answers</a><p id="L{submission}">') in page
    assert page.count('class="cited-by') == 1  # the meals paragraph: its only citing claim was edited out


def test_a_paragraphs_cited_by_lists_the_override_and_edit_released_answers(client, curator, version, citing):
    client.force_login(curator)

    page = client.get(f"/review/sources/expense-policy/v1/?line={_line(SUBMISSION)}").content.decode()

    assert _listed(page) == {citing["released"].pk, citing["override"].pk, citing["edited"].pk}
    trace = citing["override"].claims.get().pk
    assert f'href="/review/claims/{trace}/trace/"' in page
    assert f'href="/review/answers/{citing["override"].pk}/"' not in page  # the answer page is the reviewers'


def test_the_whole_versions_list_keeps_every_answer_resting_on_it(client, reviewer, version, citing):
    client.force_login(reviewer)

    page = client.get("/review/sources/expense-policy/v1/").content.decode()

    assert _listed(page) == {answer.pk for answer in citing.values()}
    assert f'href="/review/answers/{citing["override"].pk}/"' in page


def test_the_trace_shows_the_reviewers_override_and_note(client, curator, citing):
    claim = citing["override"].claims.get()
    client.force_login(curator)

    page = client.get(f"/review/claims/{claim.pk}/trace/").content.decode()

    assert "override: marked correct against the checker" in page
    assert "Note: “HR confirmed the 30 days”" in page
    assert "Approve &amp; send <span class=\"badge warn\">override</span> — “claim 1 is correct: HR confirmed" in page


def test_the_api_shows_the_override_and_note(api, reviewer, citing):
    body = api.get(f"/api/v1/answers/{citing['override'].pk}").json()
    edited = api.get(f"/api/v1/answers/{citing['edited'].pk}").json()

    assert body["overrides_checker"] is True
    assert body["decision"]["action"] == "approve"
    assert body["decision"]["reason"] == "claim 1 is correct: HR confirmed the 30 days"
    assert body["claims"][0]["review"] == {"state": "confirmed", "note": "HR confirmed the 30 days",
                                           "overrides_checker": True, "reviewed_by": reviewer.username,
                                           "reviewed_at": body["claims"][0]["review"]["reviewed_at"],
                                           "kind": None}  # a confirmed claim has no kind of error
    assert [claim["text"] for claim in edited["sent_claims"]] == [SUBMISSION]
    assert [claim["text"] for claim in edited["claims"]] == [MEALS]


def test_a_viewer_sees_no_citation_links(client, make_user, version, citing):
    client.force_login(make_user("vera", "viewer", clearance="internal"))

    response = client.get(version.get_absolute_url())

    assert response.status_code == 200 and SUBMISSION in response.content.decode()
    assert "cited-by" not in response.content.decode() and "/review/sources/" not in response.content.decode()
