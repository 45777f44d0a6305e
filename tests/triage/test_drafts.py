"""Drafts: a reviewer's unsent text on an answer's page, kept per reviewer per answer on the server, settled by the
decision or the claim's mark it was typed for."""

import pytest
from django.utils import timezone

from review.models import Claim
from triage.drafts import DraftInvalid, draft_save, drafts_for
from triage.models import Draft

pytestmark = pytest.mark.django_db


def _save(client, answer, field, text):
    return client.post(f"/triage/answers/{answer.pk}/drafts/", {"field": field, "text": text})


def test_drafts_are_kept_per_reviewer_and_shown_on_the_answer_page(client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    claim = answer.claims.get()
    client.force_login(reviewer)

    assert _save(client, answer, "reason", "Wrong window").status_code == 204
    assert _save(client, answer, f"note-{claim.pk}", "Policy says 30").status_code == 204

    assert drafts_for(answer=answer, author=reviewer) == {"reason": "Wrong window",
                                                          f"note-{claim.pk}": "Policy says 30"}
    assert drafts_for(answer=answer, author=second_reviewer) == {}


def test_an_emptied_box_keeps_no_draft(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)
    _save(client, answer, "edit", "A better answer.")

    _save(client, answer, "edit", "  ")

    assert not Draft.objects.exists()


def test_unknown_box_and_oversized_text_are_400(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)

    assert _save(client, answer, "password", "x").status_code == 400
    assert _save(client, answer, "reason", "x" * 20_001).status_code == 400
    assert not Draft.objects.exists()


def test_another_clients_answer_is_not_found_for_an_uncleared_reviewer(client, outsider, make_answer):
    answer = make_answer(evidence_level="restricted")
    client.force_login(outsider)

    assert _save(client, answer, "reason", "x").status_code in {403, 404}
    assert not Draft.objects.exists()


def test_a_claims_mark_settles_its_note_and_a_decision_settles_the_reason(reviewer, make_answer):
    answer = make_answer()
    claim = answer.claims.get()
    draft_save(answer=answer, author=reviewer, field=f"note-{claim.pk}", text="typed before the mark")
    draft_save(answer=answer, author=reviewer, field="reason", text="typed before the decision")

    Claim.objects.filter(pk=claim.pk).update(reviewed_at=timezone.now(), reviewed_by=reviewer)
    assert drafts_for(answer=answer, author=reviewer) == {"reason": "typed before the decision"}
    answer.status = "rejected"
    answer.save(update_fields=["status"])

    assert drafts_for(answer=answer, author=reviewer) == {}


def test_a_field_name_outside_the_boxes_is_refused(reviewer, make_answer):
    with pytest.raises(DraftInvalid):
        draft_save(answer=make_answer(), author=reviewer, field="note-x", text="x")
