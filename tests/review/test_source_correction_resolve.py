"""POST /review/sources-to-fix/<id>/resolve/: the owner (or a curator) marks an entry fixed or dismissed, audited."""

import pytest
from django.test import Client

from console.models import AuditEvent
from kb.models import Document
from review import corrections
from review.models import SourceCorrection

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(conflicting_answer, reviewer, make_user):
    Document.objects.filter(key="refund-policy").update(owner=make_user("olive"))
    claim = conflicting_answer.claims.get()
    [entry] = corrections.source_conflict_settle(claim=claim, reviewer=reviewer,
                                                 conflicting=claim.evidence.get(rank=2), right="supporting")
    return entry


def _url(entry) -> str:
    return f"/review/sources-to-fix/{entry.pk}/resolve/"


def test_the_owner_marks_it_fixed_and_the_audit_log_says_so(client, entry, admin_user):
    owner = entry.wrong_version.document.owner
    client.force_login(owner)

    response = client.post(_url(entry) + "?mine=1", {"status": "fixed", "note": "v2 uploaded"})

    assert response.status_code == 302 and response["Location"] == "/review/sources-to-fix/?mine=1"
    entry.refresh_from_db()
    assert (entry.status, entry.resolved_by, entry.resolution_note) == ("fixed", owner, "v2 uploaded")
    client.force_login(admin_user)
    audit = client.get("/audit/?verb=source_correction.fixed").content.decode()
    assert "source_correction.fixed" in audit and f"Refund policy v1 marked wrong on claim {entry.claim_id}" in audit
    assert '<span class="old">To fix</span> → <span class="new">Fixed</span>' in audit


def test_dismissing_needs_a_note(client, entry, curator):
    client.force_login(curator)

    refused = client.post(_url(entry), {"status": "dismissed"})
    accepted = client.post(_url(entry), {"status": "dismissed", "note": "the policy is right; FAQ is wrong"})

    assert refused.status_code == 400 and "Say why you dismiss it" in refused.content.decode()
    assert accepted.status_code == 302
    assert SourceCorrection.objects.get(pk=entry.pk).status == "dismissed"
    assert AuditEvent.objects.get(verb="source_correction.dismissed").note == "the policy is right; FAQ is wrong"


def test_a_closed_entry_is_a_409_and_an_unknown_status_a_400(client, entry, curator):
    client.force_login(curator)

    assert client.post(_url(entry), {"status": "open"}).status_code == 400
    client.post(_url(entry), {"status": "fixed"})
    again = client.post(_url(entry), {"status": "dismissed", "note": "late"})

    assert again.status_code == 409 and "fixed already" in again.content.decode()


def test_an_approver_who_neither_owns_it_nor_curates_may_read_but_not_close(client, entry, approver):
    client.force_login(approver)

    assert client.post(_url(entry), {"status": "fixed"}).status_code == 403
    assert SourceCorrection.objects.get(pk=entry.pk).status == "open"


def test_roles_clearance_and_csrf(client, entry, reviewer, make_user):
    client.force_login(reviewer)
    assert client.post(_url(entry), {"status": "fixed"}).status_code == 403

    client.force_login(make_user("pat", "curator", clearance="public"))
    assert client.post(_url(entry), {"status": "fixed"}).status_code == 404

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(entry.wrong_version.document.owner)
    assert strict.post(_url(entry), {"status": "fixed"}).status_code == 403
    assert SourceCorrection.objects.get(pk=entry.pk).status == "open"
