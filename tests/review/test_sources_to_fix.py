"""GET /review/sources-to-fix/: versions a reviewer marked wrong, for their owners; clearance and roles apply."""

import pytest

from kb.models import Document
from review import corrections
from review.models import Answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def marked_wrong(conflicting_answer, reviewer, make_user):
    """The refund policy marked wrong (the FAQ is right); the policy is owned by Olive, who holds no role."""
    owner = make_user("olive")
    Document.objects.filter(key="refund-policy").update(owner=owner)
    claim = conflicting_answer.claims.get()
    [entry] = corrections.source_conflict_settle(claim=claim, reviewer=reviewer,
                                                 conflicting=claim.evidence.get(rank=2), right="supporting",
                                                 note="the contract says 30")
    return entry


def test_the_owner_sees_the_entry_with_both_sources_and_links(client, marked_wrong):
    client.force_login(marked_wrong.wrong_version.document.owner)

    page = client.get("/review/sources-to-fix/?mine=1").content.decode()

    entry = page[page.index(f'id="correction-{marked_wrong.pk}"'):]
    assert '<a href="/kb/refund-policy/v1/">Refund policy</a>' in entry
    assert "olive (you)" in entry and "marked wrong by <strong>rita</strong>" in entry
    assert "<q>Annual subscriptions can be refunded within 30 days of purchase.</q>" in entry
    assert '<mark class="differs">45</mark>' in entry and '<mark class="differs">30</mark>' in entry
    assert "Product FAQ v1</a> says" in entry and "right, says the reviewer" in entry
    assert "“the contract says 30”" in entry
    assert f'href="/review/claims/{marked_wrong.claim_id}/trace/"' in entry
    assert "Mark fixed" in entry  # the owner may close it
    assert "Upload a new version" not in entry  # uploading is for curators


def test_a_curator_sees_every_entry_and_the_upload_link_but_not_under_my_documents(client, curator, marked_wrong):
    client.force_login(curator)

    every = client.get("/review/sources-to-fix/").content.decode()
    mine = client.get("/review/sources-to-fix/?mine=1").content.decode()

    assert f'id="correction-{marked_wrong.pk}"' in every
    assert 'href="/kb/refund-policy/upload/">Upload a new version' in every
    assert f'id="correction-{marked_wrong.pk}"' not in mine and "Nothing to fix in your documents" in mine


def test_the_nav_counts_open_entries_on_the_users_own_documents(client, curator, marked_wrong):
    client.force_login(marked_wrong.wrong_version.document.owner)
    owner_page = client.get("/").content.decode()
    client.force_login(curator)
    curator_page = client.get("/").content.decode()

    assert 'href="/review/sources-to-fix/?mine=1"' in owner_page
    assert 'Sources to fix <span class="badge bad">1</span>' in owner_page
    assert "Sources to fix <span" not in curator_page  # the curator owns the FAQ, which nobody marked wrong


def test_entries_above_the_users_clearance_are_left_out(client, make_user, marked_wrong):
    public_curator = make_user("pat", "curator", clearance="public")
    client.force_login(public_curator)
    assert f'id="correction-{marked_wrong.pk}"' not in client.get("/review/sources-to-fix/").content.decode()

    Document.objects.filter(key="product-faq").update(security_level="confidential")
    Answer.objects.filter(pk=marked_wrong.answer_id).update(evidence_level="internal")
    client.force_login(marked_wrong.wrong_version.document.owner)  # internal: the other source is above it
    page = client.get("/review/sources-to-fix/").content.decode()
    assert f'id="correction-{marked_wrong.pk}"' not in page
    assert "30 days" not in page


def test_closed_entries_show_under_fixed_or_dismissed(client, curator, marked_wrong):
    corrections.source_correction_resolve(correction=marked_wrong, user=curator, status="fixed", note="v2 says 30")
    client.force_login(curator)

    open_page = client.get("/review/sources-to-fix/").content.decode()
    closed_page = client.get("/review/sources-to-fix/?status=closed").content.decode()

    assert f'id="correction-{marked_wrong.pk}"' not in open_page
    assert "Fixed by cora" in closed_page and "“v2 says 30”" in closed_page


def test_people_with_no_curation_role_and_no_document_are_refused(client, reviewer, viewer_user, outsider,
                                                                  approver, marked_wrong):
    for user in (reviewer, viewer_user, outsider):
        client.force_login(user)
        assert client.get("/review/sources-to-fix/").status_code == 403, user
    client.force_login(approver)
    assert client.get("/review/sources-to-fix/").status_code == 200


def test_the_nav_marks_sources_to_fix_as_the_current_page_not_the_review_queue(client, admin_user, marked_wrong):
    Document.objects.filter(key="refund-policy").update(owner=admin_user)  # an admin holds every role
    client.force_login(admin_user)

    page = client.get("/review/sources-to-fix/").content.decode()

    assert 'class="nav-count" aria-current="page"' in page
    assert '<a href="/review/" aria-current="page">Review queue' not in page
    assert '<a href="/review/" >Review queue' in page
