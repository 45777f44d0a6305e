"""The reviewer says which of two conflicting approved sources is right: the wrong one becomes an entry for its
owner, audited; a changed mind withdraws the earlier entry; the lease rules of claim marks apply."""

import pytest

from console.models import AuditEvent
from review import corrections, leases, services
from review.models import SourceCorrection

pytestmark = pytest.mark.django_db


def _pair(answer):
    claim = answer.claims.get()
    return claim, claim.evidence.get(rank=2)


def test_the_supporting_source_right_lists_the_other_one_to_fix_and_audits_it(conflicting_answer, reviewer,
                                                                              conflict_versions):
    faq, policy = conflict_versions
    claim, conflicting = _pair(conflicting_answer)

    created = corrections.source_conflict_settle(claim=claim, reviewer=reviewer, conflicting=conflicting,
                                                 right="supporting", note="the FAQ matches the contract")

    [entry] = created
    assert (entry.wrong_version, entry.other_version, entry.right_version) == (policy, faq, faq)
    assert entry.wrong_quote == "Annual subscriptions can be refunded within 45 days of purchase."
    assert entry.other_quote == "Annual subscriptions can be refunded within 30 days of purchase."
    assert (entry.status, entry.reviewer, entry.note) == ("open", reviewer, "the FAQ matches the contract")
    event = AuditEvent.objects.get(verb="source_correction.record")
    assert event.after["wrong"] == "Refund policy v1" and event.after["right"] == "Product FAQ v1"
    assert event.note == "the FAQ matches the contract" and event.actor == reviewer
    assert event.object_repr == f"Refund policy v1 marked wrong on claim {claim.pk}"
    conflicting_answer.refresh_from_db()
    assert conflicting_answer.lease_holder == reviewer  # activity keeps (takes) the lease


def test_neither_lists_both_versions_and_a_changed_mind_withdraws_the_earlier_entry(conflicting_answer, reviewer,
                                                                                   conflict_versions):
    faq, policy = conflict_versions
    claim, conflicting = _pair(conflicting_answer)
    [first] = corrections.source_conflict_settle(claim=claim, reviewer=reviewer, conflicting=conflicting,
                                                 right="conflicting")
    assert first.wrong_version == faq

    both = corrections.source_conflict_settle(claim=claim, reviewer=reviewer, conflicting=conflicting,
                                              right="neither", note="ask legal")

    first.refresh_from_db()
    assert first.status == "withdrawn"
    assert {(e.wrong_version, e.other_version, e.right_version) for e in both} == {(faq, policy, None),
                                                                                 (policy, faq, None)}
    assert SourceCorrection.objects.filter(status="open").count() == 2
    assert AuditEvent.objects.filter(verb="source_correction.withdraw", object_id=str(first.pk)).exists()


def test_saying_the_same_again_writes_nothing(conflicting_answer, reviewer):
    claim, conflicting = _pair(conflicting_answer)
    corrections.source_conflict_settle(claim=claim, reviewer=reviewer, conflicting=conflicting, right="supporting")
    events = AuditEvent.objects.count()

    again = corrections.source_conflict_settle(claim=claim, reviewer=reviewer, conflicting=conflicting,
                                               right="supporting")

    assert len(again) == 1 and SourceCorrection.objects.count() == 1
    assert AuditEvent.objects.count() == events


def test_another_reviewers_lease_or_a_decided_answer_refuses(conflicting_answer, reviewer, second_reviewer):
    claim, conflicting = _pair(conflicting_answer)
    leases.answer_lease_take(answer=conflicting_answer, reviewer=second_reviewer)

    with pytest.raises(leases.DecisionConflict, match="holds the lease"):
        corrections.source_conflict_settle(claim=claim, reviewer=reviewer, conflicting=conflicting, right="neither")

    conflicting_answer.__class__.objects.filter(pk=conflicting_answer.pk).update(status="approved",
                                                                                 lease_holder=None)
    with pytest.raises(leases.DecisionConflict, match="already approved"):
        corrections.source_conflict_settle(claim=claim, reviewer=second_reviewer, conflicting=conflicting,
                                           right="neither")
    assert not SourceCorrection.objects.exists()


def test_only_a_conflicting_source_of_the_claim_and_a_known_choice_are_accepted(conflicting_answer, reviewer):
    claim, conflicting = _pair(conflicting_answer)
    supporting = claim.evidence.get(rank=1)

    with pytest.raises(services.DecisionInvalid, match="does not conflict"):
        corrections.source_conflict_settle(claim=claim, reviewer=reviewer, conflicting=supporting, right="neither")
    with pytest.raises(services.DecisionInvalid, match="Say which source is right"):
        corrections.source_conflict_settle(claim=claim, reviewer=reviewer, conflicting=conflicting, right="both")
    assert not SourceCorrection.objects.exists()
