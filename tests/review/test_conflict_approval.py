"""Approving an answer whose claim two approved sources disagree about needs the reviewer's word on which source
is right first (issue #24: a conflict could be approved without a choice)."""

import pytest

from review.models import Answer

pytestmark = pytest.mark.django_db

BLOCKER = "Approved sources disagree about claim 1: say which source is right before approving."


def _start_and_confirm(client, reviewer, answer) -> None:
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    client.post(f"/review/claims/{answer.claims.get().pk}/review/", {"state": "confirmed"})


def test_a_conflict_cannot_be_approved_before_the_source_choice(client, reviewer, conflicting_answer):
    _start_and_confirm(client, reviewer, conflicting_answer)

    page = client.get(conflicting_answer.get_absolute_url()).content.decode()
    refused = client.post(f"/review/answers/{conflicting_answer.pk}/decide/", {"action": "approve"}, follow=True)

    assert BLOCKER in page
    assert 'id="approve-button" data-shortcut="approve" disabled' in page
    assert refused.redirect_chain == [(conflicting_answer.get_absolute_url(), 303)]
    assert f'id="decision-error">{BLOCKER}' in refused.content.decode()
    assert Answer.objects.get(pk=conflicting_answer.pk).status == "pending_review"


def test_after_the_source_choice_the_answer_can_be_approved(client, reviewer, conflicting_answer):
    _start_and_confirm(client, reviewer, conflicting_answer)
    conflicting = conflicting_answer.claims.get().evidence.get(rank=2)

    card = client.post(f"/review/claims/{conflicting_answer.claims.get().pk}/conflict/",
                       {"conflicting": conflicting.pk, "right": "supporting"}, headers={"HX-Request": "true"})
    approved = client.post(f"/review/answers/{conflicting_answer.pk}/decide/", {"action": "approve"})

    assert BLOCKER not in card.content.decode()  # the decision panel swapped with the card lets approving go
    assert approved.status_code == 302
    assert Answer.objects.get(pk=conflicting_answer.pk).status == "approved"


def test_neither_is_a_choice_too(client, reviewer, conflicting_answer):
    _start_and_confirm(client, reviewer, conflicting_answer)
    conflicting = conflicting_answer.claims.get().evidence.get(rank=2)
    client.post(f"/review/claims/{conflicting_answer.claims.get().pk}/conflict/",
                {"conflicting": conflicting.pk, "right": "neither"})

    approved = client.post(f"/review/answers/{conflicting_answer.pk}/decide/", {"action": "approve"})

    assert approved.status_code == 302


def test_rejecting_a_conflicting_answer_needs_no_choice(client, reviewer, conflicting_answer):
    _start_and_confirm(client, reviewer, conflicting_answer)

    rejected = client.post(f"/review/answers/{conflicting_answer.pk}/decide/", {"action": "reject", "reason": "unsure which window applies"})

    assert rejected.status_code == 302
    assert Answer.objects.get(pk=conflicting_answer.pk).status == "rejected"


def test_two_sources_quoting_the_same_words_are_no_conflict_on_the_card(client, reviewer, conflicting_answer):
    """A conflict stored for two quotes that say the same (case aside) is not shown, nor does it hold approving."""
    from review.models import Evidence

    claim = conflicting_answer.claims.get()
    supporting = claim.evidence.get(rank=1)
    Evidence.objects.filter(claim=claim, rank=2).update(quote_start=supporting.quote_start,
                                                       quote_end=supporting.quote_end, chunk=supporting.chunk)
    _start_and_confirm(client, reviewer, conflicting_answer)

    page = client.get(conflicting_answer.get_absolute_url()).content.decode()
    approved = client.post(f"/review/answers/{conflicting_answer.pk}/decide/", {"action": "approve"})

    assert "data-conflict" not in page and "disagree" not in page
    assert approved.status_code == 302
