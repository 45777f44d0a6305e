import pytest

pytestmark = pytest.mark.django_db


def test_dashboard_shows_queue_depth_and_expiring_sources(client, reviewer, make_answer, publish):
    from datetime import timedelta

    from django.utils import timezone

    make_answer(risk="high")
    make_answer(risk="high")
    make_answer(risk="medium")
    publish("# Policy\n\n## Part\n\nText.\n", key="policy", expires_at=timezone.now() + timedelta(days=10))
    client.force_login(reviewer)

    page = client.get("/").content.decode()

    assert 'aria-label="Queue depth by risk: high 2, medium 1, low 0"' in page
    assert "Policy v1</a> — expires" in page
    assert "Answers received per day" in page


def test_dashboard_with_nothing_happening_has_clear_empty_states(client, reviewer):
    client.force_login(reviewer)

    page = client.get("/").content.decode()

    assert "No approved source expires in the next 30 days." in page
    assert "every version is indexed" in page


def test_dashboard_index_jobs_show_only_documents_within_the_viewers_clearance(client, reviewer, admin_user):
    from kb import services

    for key, title, level in (("handbook", "Staff handbook", "internal"), ("merger", "Merger plan", "restricted")):
        document = services.document_create(key=key, title=title, owner=admin_user, security_level=level,
                                             created_by=admin_user)
        services.version_upload(document=document, raw=b"# T\n\ntext\n", filename="t.md", uploaded_by=admin_user)

    client.force_login(reviewer)
    page = client.get("/").content.decode()
    client.force_login(admin_user)
    admin_page = client.get("/").content.decode()

    assert "Staff handbook v1" in page  # still queued: no commit in this test, so no worker picked it up
    assert "Merger plan" not in page
    assert "Merger plan v1" in admin_page


def _decide(answer, reviewer, action, reason=""):
    from review import leases, services

    leases.answer_lease_take(answer=answer, reviewer=reviewer)
    return services.answer_decide(answer=answer, reviewer=reviewer, action=action, reason=reason)


def _figure(page: str, element_id: str) -> str:
    import re

    match = re.search(rf'id="{element_id}">(.*?)</', page, re.S)
    assert match, element_id
    return match.group(1).strip()


def test_released_fallback_and_rejected_are_counted_apart(client, admin_user, reviewer, make_answer, settings):
    from review import services

    _decide(make_answer(claims=[("Refunds take 14 days.", "supported", 0.9)]), reviewer, "approve")
    _decide(make_answer(claims=[("Refunds take 14 days.", "supported", 0.9)]), reviewer, "reject",
            reason="the tone is wrong for this client")
    settings.REVIEW_SEND_FALLBACK_ON_REJECT = False
    _decide(make_answer(claims=[("Refunds take 14 days.", "supported", 0.9)]), reviewer, "reject",
            reason="duplicate question")
    low = make_answer(risk="low", status="scoring")
    services.answer_release(answer=low, text=low.text, actor_label="auto-release (low risk)")
    client.force_login(admin_user)

    page = client.get("/").content.decode()

    assert _figure(page, "released-today") == "2"  # the approved one and the automatic one
    assert _figure(page, "fallback-today") == "1"
    assert _figure(page, "rejected-today") == "1"
    assert "1 automatically (low risk), 1 approved by reviewers" in page
    # Rejecting an answer every claim of which the checker supported goes against the checker: 2 of 3 decisions.
    assert _figure(page, "override-rate") == "67% (2 of 3)"
    assert '<tr><td>rita</td><td class="num">3</td><td class="num">2</td>' in page


def test_agreement_counts_how_often_reviewers_overrule_each_verdict(client, admin_user, reviewer, make_answer):
    from review import leases, services
    from review.models import ClaimReview

    answer = make_answer(claims=[("Refunds take 14 days.", "supported", 0.9),
                                 ("Refunds need a receipt.", "contradicted", 0.1),
                                 ("Refunds go to the card.", "supported", 0.9)])
    leases.answer_lease_take(answer=answer, reviewer=reviewer)
    wrong, right, agreed = answer.claims.order_by("ordinal")
    services.claim_review(claim=wrong, reviewer=reviewer, state=ClaimReview.REJECTED, note="policy says 30 days")
    services.claim_review(claim=right, reviewer=reviewer, state=ClaimReview.CONFIRMED, note="receipt rule changed")
    services.claim_review(claim=agreed, reviewer=reviewer, state=ClaimReview.CONFIRMED, note="")
    client.force_login(admin_user)

    page = client.get("/").content.decode()

    supported = page.split('id="agreement-supported">')[1].split("</tr>")[0]
    contradicted = page.split('id="agreement-contradicted">')[1].split("</tr>")[0]
    uncertain = page.split('id="agreement-uncertain">')[1].split("</tr>")[0]
    assert '<td class="num">2</td><td class="num">1</td><td class="num">1</td>' in supported
    assert "50% (1)" in supported
    assert "100% (1)" in contradicted
    assert '<td class="num">0</td>' in uncertain and "—" in uncertain


def test_webhook_failures_and_pending_approvals_are_shown(client, admin_user, curator, make_answer):
    from kb import services as kb_services
    from review.models import Answer, WebhookState

    failed = make_answer(status="released")
    Answer.objects.filter(pk=failed.pk).update(webhook_state=WebhookState.FAILED)  # the sender gave up
    document = kb_services.document_create(key="guide", title="Guide", owner=curator, security_level="internal",
                                           created_by=curator)
    kb_services.version_upload(document=document, raw=b"# Guide\n\nText.\n", filename="g.md", uploaded_by=curator)
    client.force_login(admin_user)

    page = client.get("/").content.decode()

    assert '<span class="badge failed">1 failed</span>' in _figure(page, "webhook-failed") + "</span>"
    assert _figure(page, "pending-approvals") == "1"


def test_approver_sees_what_awaits_their_approval_on_the_dashboard_and_in_the_nav(
    client, approver, reviewer, curator,
):
    from kb import services as kb_services

    document = kb_services.document_create(key="guide", title="Guide", owner=curator, security_level="internal",
                                           created_by=curator)
    kb_services.version_upload(document=document, raw=b"# Guide\n\nText.\n", filename="g.md", uploaded_by=curator,
                               note="First draft")
    client.force_login(approver)

    page = client.get("/").content.decode()
    elsewhere = client.get("/kb/").content.decode()
    client.force_login(reviewer)
    reviewers_page = client.get("/").content.decode()

    assert 'id="awaiting-approval"' in page
    assert '<a href="/kb/guide/v1/">Guide v1</a>' in page and "First draft" in page
    assert 'title="Versions waiting for your approval">To approve <span class="badge warn">1</span>' in elsewhere
    assert "awaiting-approval" not in reviewers_page and "To approve" not in reviewers_page


def test_chart_has_labelled_axes_and_dates(client, reviewer, make_answer):
    from django.utils import timezone

    make_answer(risk="high")
    client.force_login(reviewer)

    page = client.get("/").content.decode()

    today = timezone.localdate()
    assert f"{today:%d %b %Y}</h2>" in page
    assert ">day received</text>" in page and ">answers</text>" in page
    assert f">{today:%d %b}</text>" in page  # the newest day always carries its date
