"""Comments on an answer with @-mentions: a cleared reviewer is notified (in the console, by e-mail when a mail
server is configured); someone without clearance is not, and learns nothing; comments show on the answer page and
in the trace, and are audited."""

import time

import pytest
from django.core import mail

from console.models import AuditEvent
from review.models import Claim
from triage.models import Comment, Notification

pytestmark = pytest.mark.django_db


def _comment(client, answer, text):
    return client.post(f"/triage/answers/{answer.pk}/comments/", {"text": text})


def test_a_mention_notifies_the_colleague_and_the_comment_shows_on_the_answer(
        client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)

    response = _comment(client, answer, "@rob, is 14 days right? The FAQ says 30.")

    comment = Comment.objects.get()
    assert response.status_code == 302 and response["Location"] == f"{answer.get_absolute_url()}#comment-{comment.pk}"
    assert list(comment.mentioned.all()) == [second_reviewer]
    notification = Notification.objects.get()
    assert (notification.recipient, notification.kind, notification.comment) == (second_reviewer, "mention", comment)
    page = client.get(answer.get_absolute_url()).content.decode()
    assert f'id="comment-{comment.pk}"' in page and "is 14 days right? The FAQ says 30." in page
    assert '<a href="#comments" id="comments-link">1 comment</a>' in page  # the toolbar's link counts it
    event = AuditEvent.objects.get(verb="answer.comment")
    assert event.note == "@rob, is 14 days right? The FAQ says 30." and event.after["mentioned"] == ["rob"]


def test_the_mentioned_reviewer_sees_it_in_notifications_and_opening_the_answer_reads_it(
        client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)
    _comment(client, answer, "@rob please look")
    client.force_login(second_reviewer)

    listing = client.get("/triage/notifications/").content.decode()
    assert "rita mentioned you on answer" in listing and "please look" in listing
    assert 'data-unread>1<' in listing

    client.get(answer.get_absolute_url())

    assert Notification.objects.get().read_at is not None
    assert "data-unread" not in client.get("/triage/notifications/").content.decode()


def test_mentioning_someone_without_clearance_notifies_nobody_and_tells_the_author(
        client, make_user, make_answer):
    author = make_user("cleo", "reviewer", clearance="confidential")
    make_user("ivan", "reviewer", clearance="internal")
    make_user("cora2", "curator", clearance="restricted")
    answer = make_answer(question="Confidential salary bands?", evidence_level="confidential")
    client.force_login(author)

    response = _comment(client, answer, "@ivan @cora2 @nobody see the bands")

    assert not Notification.objects.exists()
    assert list(Comment.objects.get().mentioned.all()) == []
    followed = client.get(response["Location"]).content.decode()
    assert "Not notified" in followed and "@ivan, @cora2, @nobody" in followed


def test_a_reviewer_never_sees_a_notification_about_an_answer_above_their_clearance(
        client, make_user, make_answer):
    author = make_user("cleo", "reviewer", clearance="confidential")
    lowered = make_user("ivan", "reviewer", clearance="confidential")
    answer = make_answer(question="Confidential salary bands?", evidence_level="confidential")
    client.force_login(author)
    _comment(client, answer, "@ivan look")
    lowered.clearance = "internal"  # cleared when mentioned, not any more
    lowered.save(update_fields=["clearance"])
    client.force_login(lowered)

    listing = client.get("/triage/notifications/").content.decode()

    assert "salary" not in listing and "look" not in listing
    assert "data-unread" not in listing


def test_the_mention_list_offers_only_reviewers_cleared_for_the_answer(client, make_user, make_answer):
    author = make_user("cleo", "reviewer", clearance="confidential")
    make_user("dana", "reviewer", clearance="restricted")
    make_user("ivan", "reviewer", clearance="internal")
    answer = make_answer(evidence_level="confidential")
    client.force_login(author)

    page = client.get(answer.get_absolute_url()).content.decode()

    assert 'data-mention="dana"' in page
    assert 'data-mention="ivan"' not in page


def test_comments_show_in_the_claim_trace(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)
    _comment(client, answer, "Checked with the policy owner.")
    claim = Claim.objects.get(answer=answer)

    page = client.get(f"/review/claims/{claim.pk}/trace/").content.decode()

    assert 'id="trace-comments"' in page and "Checked with the policy owner." in page


def test_an_empty_or_unstorable_comment_is_refused_and_the_text_kept(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)

    empty = _comment(client, answer, "   ")
    control = _comment(client, answer, "fine\x07text")

    assert empty.status_code == 400 and control.status_code == 400
    assert "control character" in control.content.decode()
    assert "fine" in control.content.decode()  # what they typed is still in the box
    assert not Comment.objects.exists()


def test_a_comment_above_the_authors_clearance_is_a_404(client, reviewer, make_answer):
    answer = make_answer(evidence_level="confidential")
    client.force_login(reviewer)

    assert _comment(client, answer, "hello").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_mention_is_emailed_by_the_worker_when_mail_is_configured(
        client, celery_worker, settings, reviewer, second_reviewer, make_answer):
    settings.NOTIFY_BY_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.CONSOLE_BASE_URL = "https://console.example"
    second_reviewer.email = "rob@example.org"
    second_reviewer.save(update_fields=["email"])
    answer = make_answer()
    client.force_login(reviewer)

    _comment(client, answer, "@rob please look at the refund window")

    deadline = time.monotonic() + 30
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["rob@example.org"]
    assert "please look at the refund window" in message.body
    assert f"https://console.example/review/answers/{answer.pk}/" in message.body
    assert Notification.objects.get().emailed_at is not None
