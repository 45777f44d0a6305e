"""Reviewers' decisions become labels: one per claim, with the row the checker computed, who, and why."""

import json

import pytest
from django.core.management import call_command

from review.models import Answer
from review.learning.models import ReviewLabel

pytestmark = pytest.mark.django_db

FEATURES = {"rule_score": 0.7, "coverage": 0.8}


def _lease(client, user, answer):
    client.force_login(user)
    client.post(f"/review/answers/{answer.pk}/start/")


def _mark(client, answer, ordinal: int, state: str, note: str = ""):
    claim = answer.claims.get(ordinal=ordinal)
    response = client.post(f"/review/claims/{claim.pk}/review/", {"state": state, "note": note})
    assert response.status_code in (200, 302), response.content


def _labels(answer) -> list[tuple]:
    return list(ReviewLabel.objects.filter(answer=answer).order_by("claim__ordinal")
                .values_list("claim_text", "supported", "basis", "source"))


def test_an_approved_answer_labels_every_claim_supported_and_says_which_were_overrides(
        client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=[("Refunds take 30 days.", "not_found", 0.1),
                                              ("Annual plans renew yearly.", "supported", 0.9)])
    answer.claims.update(features=FEATURES)
    _lease(client, reviewer, answer)
    _mark(client, answer, 0, "confirmed", note="the refund policy says so on page 2")
    _mark(client, answer, 1, "confirmed")

    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    assert _labels(answer) == [("Refunds take 30 days.", True, "confirmed", "override"),
                               ("Annual plans renew yearly.", True, "confirmed", "review")]
    label = ReviewLabel.objects.filter(answer=answer).first()
    assert (label.labelled_by, label.features, label.weight, label.question) == (
        reviewer, FEATURES, 1.0, answer.question)


def test_a_claim_left_unmarked_in_a_sent_answer_is_labelled_supported(client, reviewer, make_answer):
    answer = make_answer(risk="medium", claims=[("Refunds take 30 days.", "uncertain", 0.5),
                                                ("Annual plans renew yearly.", "supported", 0.9)])
    _lease(client, reviewer, answer)
    _mark(client, answer, 0, "confirmed")

    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    assert [row[1:3] for row in _labels(answer)] == [(True, "confirmed"), (True, "kept in the sent answer")]


def test_a_rejected_answer_labels_its_wrong_claim_and_those_rejected_with_it_unsupported(
        client, reviewer, make_answer):
    answer = make_answer(risk="medium", claims=[("Refunds take 30 days.", "uncertain", 0.5),
                                                ("Annual plans renew yearly.", "supported", 0.9)])
    _lease(client, reviewer, answer)
    _mark(client, answer, 0, "rejected")

    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "reject", "reason": "wrong window"})

    assert [row[1:3] for row in _labels(answer)] == [(False, "marked wrong"), (False, "rejected with the answer")]


def test_an_escalation_is_no_decision_and_labels_nothing(client, reviewer, make_answer):
    answer = make_answer(risk="medium", claims=[("Refunds take 30 days.", "uncertain", 0.5)])
    _lease(client, reviewer, answer)

    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "escalate", "reason": "ask legal"})

    assert not ReviewLabel.objects.filter(answer=answer).exists()


def test_an_audit_sample_stands_for_the_released_answers_it_was_drawn_from(client, reviewer, make_answer):
    answer = make_answer(risk="low", claims=[("Annual plans renew yearly.", "supported", 0.97)])
    Answer.objects.filter(pk=answer.pk).update(sampled_for_audit=True, audit_sample_rate=0.05)
    _lease(client, reviewer, answer)

    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    label = ReviewLabel.objects.get(answer=answer)
    assert (label.source, label.weight, label.supported) == ("audit_sample", pytest.approx(20.0), True)


@pytest.mark.django_db(transaction=True)
def test_an_edit_labels_what_it_kept_supported_and_what_it_cut_unsupported(
        client, reviewer, make_answer, celery_worker):
    answer = make_answer(risk="medium", claims=[("Refunds take 30 days.", "uncertain", 0.5),
                                                ("Annual plans renew yearly.", "uncertain", 0.5)])
    _lease(client, reviewer, answer)
    _mark(client, answer, 0, "rejected")
    _mark(client, answer, 1, "confirmed")

    response = client.post(f"/review/answers/{answer.pk}/decide/", {
        "action": "edit", "edited_text": "Annual plans renew yearly.", "reason": "dropped the refund claim"})

    assert response.status_code == 302, response.content.decode()[:2000]
    assert [row[1:3] for row in _labels(answer)] == [(False, "marked wrong"), (True, "confirmed")]


@pytest.mark.django_db(transaction=True)
def test_unmarked_claims_of_an_edit_are_labelled_by_what_the_sent_text_kept(client, reviewer, make_answer,
                                                                            celery_worker):
    answer = make_answer(risk="medium", claims=[("Refunds take 30 days.", "supported", 0.9),
                                                ("Annual plans renew yearly.", "supported", 0.9)])
    _lease(client, reviewer, answer)

    client.post(f"/review/answers/{answer.pk}/decide/", {
        "action": "edit", "edited_text": "Good news: annual plans renew yearly!", "reason": "shorter"})

    assert [row[1:3] for row in _labels(answer)] == [(False, "edited out"), (True, "kept in the sent answer")]


def test_export_writes_the_shared_external_format(client, reviewer, make_answer, tmp_path, publish):
    version = publish("# Plans\n\n## Renewal\n\nAnnual plans renew yearly.\n", key="plans")
    chunk = version.chunks.get()
    answer = make_answer(risk="medium", chunk=chunk, evidence_level="internal",
                         claims=[("Annual plans renew yearly.", "uncertain", 0.5)])
    _lease(client, reviewer, answer)
    _mark(client, answer, 0, "rejected")
    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "reject", "reason": "no"})
    output = tmp_path / "labels.jsonl"

    call_command("export_review_labels", "--output", str(output))
    call_command("export_review_labels", "--output", str(tmp_path / "public.jsonl"), "--clearance", "public")

    [row] = [json.loads(line) for line in output.read_text().splitlines()]
    assert {k: row[k] for k in ("source", "question", "answer", "label", "kind")} == {
        "source": "console:review", "question": answer.question, "answer": "Annual plans renew yearly.",
        "label": "unsupported", "kind": "marked wrong"}
    assert row["evidence"] == chunk.text and row["id"].startswith("review-label-")
    assert (tmp_path / "public.jsonl").read_text() == ""  # an internal answer's label is not for public eyes
