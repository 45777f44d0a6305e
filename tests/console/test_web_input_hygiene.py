"""Hostile input to the web forms: chunked and oversized bodies, NUL characters. A clear 4xx or a message, never
a 500, and nothing changes."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from kb import services
from kb.models import Document, DocumentVersion, VersionStatus
from review.models import ClaimReview

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(curator):
    return services.document_create(key="guide", title="Guide", owner=curator, security_level="internal",
                                    created_by=curator)


@pytest.fixture
def pending_version(document, curator):
    return services.version_upload(document=document, raw=b"# Guide\n\nRefunds take 14 days.\n", filename="g.md",
                                   uploaded_by=curator)


def test_chunked_upload_without_length_is_411_not_an_empty_form(client, curator, document):
    client.force_login(curator)

    response = client.generic("POST", f"/kb/{document.key}/upload/", b"",
                              content_type="multipart/form-data; boundary=x", headers={"Transfer-Encoding": "chunked"})

    assert response.status_code == 411
    assert "sent the form in chunks" in response.content.decode()
    assert not DocumentVersion.objects.exists()


def test_oversized_form_post_is_413_and_decides_nothing(client, reviewer, make_answer, settings):
    answer = make_answer()
    client.force_login(reviewer)
    body = "action=approve&reason=" + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)

    response = client.post(f"/review/answers/{answer.pk}/decide/", data=body,
                           content_type="application/x-www-form-urlencoded")

    assert response.status_code == 413
    assert "Nothing was stored" in response.content.decode()
    answer.refresh_from_db()
    assert answer.status == "pending_review"


def test_nul_in_upload_file_is_a_form_error(client, curator, document):
    client.force_login(curator)

    response = client.post(f"/kb/{document.key}/upload/",
                           {"file": SimpleUploadedFile("guide.md", b"# Guide\x00\n"), "submit_for_approval": "on"})

    assert response.status_code == 400
    assert "looks like a binary file" in response.content.decode()
    assert not DocumentVersion.objects.exists()


def test_nul_in_new_document_title_is_a_form_error(client, curator):
    client.force_login(curator)

    response = client.post("/kb/new/", {"key": "faq", "title": "F\x00AQ", "owner": curator.pk,
                                        "security_level": "internal",
                                        "file": SimpleUploadedFile("faq.md", b"# FAQ\n\nText.\n")})

    assert response.status_code == 400
    assert "Null characters are not allowed" in response.content.decode()
    assert not Document.objects.filter(key="faq").exists()


def test_nul_in_version_reject_reason_is_refused_with_a_message(client, approver, pending_version):
    client.force_login(approver)

    response = client.post(f"/kb/{pending_version.document.key}/v{pending_version.number}/reject/",
                           {"reason": "wrong\x00"}, follow=True)

    assert response.status_code == 200
    assert "The reason was not taken: Null characters are not allowed." in response.content.decode()
    pending_version.refresh_from_db()
    assert pending_version.status == VersionStatus.PENDING_APPROVAL


@pytest.mark.parametrize("field", ["reason", "edited_text"])
def test_nul_in_answer_decision_is_refused(client, reviewer, make_answer, field):
    answer = make_answer(claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    client.force_login(reviewer)
    client.get(answer.get_absolute_url())  # take the lease

    response = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "edit", field: "Fourteen\x00 days."},
                           follow=True)

    assert response.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "Null characters are not allowed." in response.content.decode()
    answer.refresh_from_db()
    assert answer.status == "pending_review"


def test_nul_in_claim_note_is_400(client, reviewer, make_answer):
    answer = make_answer()
    claim = answer.claims.get()
    client.force_login(reviewer)
    client.get(answer.get_absolute_url())

    response = client.post(f"/review/claims/{claim.pk}/review/", {"state": "confirmed", "note": "ok\x00"})

    assert response.status_code == 400
    assert "U+0000" in response.content.decode()
    claim.refresh_from_db()
    assert claim.review_state == ClaimReview.OPEN


@pytest.mark.parametrize("path", ["/kb/search/?q=refund%00s", "/kb/?q=gu%00ide", "/review/?status=%00",
                                  "/audit/?actor=%00&verb=%01"])
def test_nul_in_search_boxes_is_no_error(client, admin_user, document, path):
    client.force_login(admin_user)

    response = client.get(path)

    assert response.status_code == 200


def test_edited_answer_over_the_claim_cap_is_refused_before_the_worker(client, reviewer, make_answer, settings):
    settings.API_MAX_CLAIMS = 3
    answer = make_answer(claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    client.force_login(reviewer)
    client.get(answer.get_absolute_url())
    edited = " ".join(f"Rule {n} allows refunds after {n} days." for n in range(4))

    response = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "edit", "edited_text": edited},
                           follow=True)

    assert response.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "The edited answer has 4 claims; the limit is 3." in response.content.decode()
    answer.refresh_from_db()
    assert answer.status == "pending_review"
