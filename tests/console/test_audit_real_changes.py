"""Audit entries record real changes only (#24 item 5): no "note: — → removed" lines, no row for a mark made again,
a decision's row without a status "removed"."""

import pytest

from console.audit import audit_record
from console.models import AuditEvent

pytestmark = pytest.mark.django_db


def _audit_page(client, admin_user) -> str:
    client.force_login(admin_user)
    return client.get("/audit/").content.decode()


def test_marking_a_claim_records_what_changed_and_nothing_else(client, reviewer, admin_user, make_answer):
    answer = make_answer()
    claim = answer.claims.get()
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")

    client.post(f"/review/claims/{claim.pk}/review/", {"state": "rejected"})
    client.post(f"/review/claims/{claim.pk}/review/", {"state": "rejected"})  # the same mark again
    client.post(f"/review/claims/{claim.pk}/review/", {"state": "rejected", "note": "it is 30 days"})

    rows = list(AuditEvent.objects.filter(verb="claim.rejected").order_by("pk"))
    assert [(row.before, row.after) for row in rows] == [
        ({"review": "Not marked yet"}, {"review": "Claim is wrong"}),
        ({"note": ""}, {"note": "it is 30 days"}),
    ]
    page = _audit_page(client, admin_user)
    assert "removed" not in page
    assert "note:</span>\n            <span class=\"old\">—</span> → <span class=\"new\">it is 30 days</span>" in page


def test_a_decision_row_does_not_say_the_status_was_removed(client, reviewer, admin_user, make_answer):
    answer = make_answer(claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    approve = AuditEvent.objects.get(verb="answer.approve")
    release = AuditEvent.objects.get(verb="answer.release")

    assert (approve.before, approve.after) == (None, None)
    assert (release.before, release.after["status"]) == ({"status": "pending_review"}, "approved")
    page = _audit_page(client, admin_user)
    assert "removed" not in page
    assert "pending_review</span> → <span class=\"new\">approved" in page


def test_rows_written_before_show_no_removed_field_either(client, admin_user, make_answer):
    answer = make_answer()
    audit_record(verb="answer.approve", obj=answer, before={"status": "pending_review"},
                 after={"overrides_checker": False, "edited_risk": None})
    audit_record(verb="claim.confirmed", obj=answer.claims.get(), before={"review": "Not marked yet", "note": ""},
                 after={"review": "Claim is correct", "overrides_checker": False})

    page = _audit_page(client, admin_user)

    assert "removed" not in page
    assert "Not marked yet</span> → <span class=\"new\">Claim is correct" in page
