"""The review page: claims highlighted, evidence with the quote, constant queries, edit & send re-check."""

import pytest

from kb.models import Chunk

pytestmark = pytest.mark.django_db

POLICY = """# Expense policy

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""


@pytest.fixture
def chunk(publish):
    version = publish(POLICY, key="expense-policy")
    return Chunk.objects.get(version=version, heading_path="Expense policy > Submission")


def test_review_page_shows_each_claim_beside_its_highlighted_source(client, reviewer, make_answer, chunk):
    answer = make_answer(risk="high", chunk=chunk,
                         claims=[("Expense reports are due within 45 days.", "contradicted", 0.2)])
    client.force_login(reviewer)

    page = client.get(answer.get_absolute_url()).content.decode()

    assert '<span class="claim-span contradicted review-open"' in page
    assert '<mark class="quote">Expense reports must be submitted within 30 days after the trip ends.</mark>' in page
    assert "Expense Policy" in page and "expense-policy" in page and "v1" in page
    assert f'href="/kb/expense-policy/v1/#L{chunk.line_start}"' in page


def test_review_page_query_count_does_not_grow_with_claims(client, reviewer, make_answer, chunk,
                                                           django_assert_max_num_queries):
    small = make_answer(chunk=chunk, claims=[("A.", "uncertain", 0.5)])
    large = make_answer(chunk=chunk, claims=[(f"Claim {i}.", "uncertain", 0.5) for i in range(10)])
    client.force_login(reviewer)
    with django_assert_max_num_queries(40) as baseline:
        client.get(small.get_absolute_url())

    with django_assert_max_num_queries(len(baseline.captured_queries)):
        response = client.get(large.get_absolute_url())
    assert response.content.decode().count('class="card claim-card') == 10


def test_trace_goes_from_claim_to_the_approving_person(client, reviewer, approver, make_answer, chunk):
    answer = make_answer(chunk=chunk, claims=[("Reports are due in 30 days.", "supported", 0.9)])
    claim = answer.claims.get()
    client.force_login(reviewer)

    page = client.get(f"/review/claims/{claim.pk}/trace/").content.decode()

    assert "Expense reports must be submitted within 30 days after the trip ends." in page
    assert f"Chunk</strong> #{chunk.ordinal}" in page
    assert f"approved by {approver.username}" in page
    assert f"#L{chunk.line_start}" in page


def test_answers_citing_a_version_are_exactly_those_that_used_it(client, reviewer, make_answer, chunk, publish):
    other_version = publish("# Other\n\n## Topic\n\nSomething else entirely.\n", key="other")
    other_chunk = Chunk.objects.filter(version=other_version).first()
    citing = make_answer(question="Cites the policy?", chunk=chunk)
    also_citing = make_answer(question="Also cites the policy?", chunk=chunk)
    make_answer(question="Cites the other doc?", chunk=other_chunk)
    make_answer(question="Cites nothing?")
    make_answer(question="Only contradicted by it?", chunk=chunk, claims=[("Reports are due in 90 days.", "contradicted", 0.2)])
    client.force_login(reviewer)

    page = client.get("/review/sources/expense-policy/v1/").content.decode()

    listed = {int(part.split('"')[0]) for part in page.split('id="answer-')[1:]}
    assert listed == {citing.pk, also_citing.pk}


def test_answers_citing_a_version_leave_out_questions_above_the_viewers_clearance(
    client, reviewer, admin_user, make_answer, chunk,
):
    """An answer that also rests on a restricted source carries that level: its question stays hidden."""
    make_answer(question="Which internal rule applies?", chunk=chunk, evidence_level="internal")
    make_answer(question="What does the merger plan say?", chunk=chunk, evidence_level="restricted")

    client.force_login(reviewer)
    page = client.get("/review/sources/expense-policy/v1/").content.decode()
    client.force_login(admin_user)
    admin_page = client.get("/review/sources/expense-policy/v1/").content.decode()

    assert "Which internal rule applies?" in page
    assert "merger plan" not in page
    assert "merger plan" in admin_page


@pytest.mark.django_db(transaction=True)
def test_edit_and_send_rechecks_the_edited_text_and_keeps_its_claims(client, reviewer, make_answer, chunk,
                                                                     celery_worker, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    answer = make_answer(risk="medium", chunk=chunk,
                         claims=[("Expense reports are due within 45 days.", "uncertain", 0.5)])
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    fixed_text = "Expense reports must be submitted within 30 days after the trip ends."

    unmarked = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "edit", "edited_text": fixed_text},
                           follow=True)
    client.post(f"/review/claims/{answer.claims.get().pk}/review/", {"state": "rejected", "note": "it is 30"})
    preview = client.post(f"/review/answers/{answer.pk}/recheck/",
                          {"edited_text": "Expense reports must be submitted within 60 days after the trip ends."})
    still_wrong = client.post(f"/review/answers/{answer.pk}/decide/", {
        "action": "edit", "edited_text": "Expense reports must be submitted within 60 days after the trip ends."},
        follow=True)
    fixed = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "edit", "edited_text": fixed_text})

    assert unmarked.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "Mark each flagged claim correct or wrong before editing" in unmarked.content.decode()
    assert preview.status_code == 200
    assert "Contradicted" in preview.content.decode()
    source = "Expense Policy (expense-policy v1) · Expense policy &gt; Submission"
    assert f'Source: <a href="/kb/expense-policy/v1/">{source}</a>' in preview.content.decode()
    assert still_wrong.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "still high risk" in still_wrong.content.decode()
    assert "60 days" in still_wrong.content.decode()
    assert "Expense Policy (expense-policy v1)" in still_wrong.content.decode()  # the source is named
    assert fixed.status_code == 302
    answer.refresh_from_db()
    assert answer.status == "approved"
    assert answer.released_text == fixed_text
    assert answer.text == "Expense reports are due within 45 days."  # the original is kept
    sent = answer.claims.get(from_edit=True)
    assert (sent.text, sent.verdict) == (fixed_text, "supported")
    assert sent.evidence.first().chunk == chunk
    # The reverse trace of the paragraph the sent text rests on lists the answer.
    citing = client.get(f"/review/sources/expense-policy/v1/?line={chunk.line_start}").content.decode()
    assert f'id="answer-{answer.pk}"' in citing
    assert f"/review/claims/{sent.pk}/trace/" in client.get(answer.get_absolute_url()).content.decode()


def test_a_claim_no_source_supports_shows_the_nearest_passages_unhighlighted(client, reviewer, make_answer, chunk):
    answer = make_answer(risk="high", chunk=chunk, claims=[("Pets under 10 kilograms may travel.", "not_found", 0.0)])
    claim = answer.claims.get()
    client.force_login(reviewer)

    page = client.get(answer.get_absolute_url()).content.decode()
    trace = client.get(f"/review/claims/{claim.pk}/trace/").content.decode()

    assert "No supporting source found" in page
    assert "Nearest, does not support" in page
    assert '<mark class="quote">' not in page
    assert "Nearest passage 1 — does not support the claim" in trace
    assert '<mark class="quote">' not in trace
