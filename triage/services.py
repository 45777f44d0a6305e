"""Writes for team work on the queue: saved views, assignment, comments with mentions, notifications."""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from console.audit import audit_record
from console.dispatch import enqueue_on_commit
from console.input_text import text_problem
from review.bulk import BulkOutcome, bulk_skip_reason
from review.models import Answer, AnswerStatus
from triage.models import Assignment, Comment, Notification, QueueView
from triage.selectors import may_review

COMMENT_MAX_CHARS = 4000
# Django usernames: letters, digits and @ . + - _; a mention ends before trailing punctuation ("@rob, see…").
MENTIONS_MAX = 20  # people notified by one comment
MENTION = re.compile(r"(?<![\w@])@([\w.@+-]+)")


class TriageInvalid(ValueError):
    """Bad input for a triage action: the message says what to fix."""


def queue_view_save(*, owner, name: str, query: str, shared: bool) -> QueueView:
    """Save the queue as it is set up now under a name; the same name again replaces the owner's earlier view."""
    name = name.strip()
    if not name:
        raise TriageInvalid(_("Give the view a name."))
    if len(name) > 80:
        raise TriageInvalid(_("A view's name is at most 80 characters."))
    if len(query) > 2000:
        raise TriageInvalid(_("This view has too many filters to save."))
    view, _created = QueueView.objects.update_or_create(
        owner=owner, name=name, defaults={"query": query, "shared": shared})
    return view


def queue_view_delete(*, view: QueueView, user) -> None:
    if view.owner_id != user.pk:
        raise TriageInvalid(_("Only the person who saved a view can delete it."))
    view.delete()


def _notify(*, recipient, kind: str, answer: Answer, actor, comment: Comment | None = None) -> Notification:
    notification = Notification.objects.create(recipient=recipient, kind=kind, answer=answer, actor=actor,
                                               comment=comment)
    if settings.NOTIFY_BY_EMAIL and recipient.email:
        from triage.tasks import notification_email

        enqueue_on_commit(notification_email, notification.pk)
    return notification


@transaction.atomic
def answer_assign(*, answer: Answer, assignee, assigned_by) -> Assignment | None:
    """Assign the answer to `assignee` (None: unassign). Only a reviewer cleared for the answer can be assigned;
    the assignee is notified unless they assigned it to themselves."""
    locked = Answer.objects.select_for_update().get(pk=answer.pk)
    current = Assignment.objects.filter(answer=locked).select_related("assignee").first()
    before = {"assignee": current.assignee.username if current else None}
    if assignee is None:
        if current is None:
            return None
        current.delete()
        audit_record(verb="answer.unassign", obj=locked, actor=assigned_by, before=before, after={"assignee": None})
        return None
    if locked.status != AnswerStatus.PENDING_REVIEW:
        raise TriageInvalid(_("Only an answer waiting for review can be assigned."))
    if not may_review(user=assignee, answer=locked):
        raise TriageInvalid(_("%(who)s cannot review this answer (needs the reviewer role and clearance for its "
                              "sources).") % {"who": assignee.username})
    if current is not None and current.assignee_id == assignee.pk:
        return current  # nothing changed: no audit line, no second notification
    assignment, _created = Assignment.objects.update_or_create(
        answer=locked, defaults={"assignee": assignee, "assigned_by": assigned_by})
    audit_record(verb="answer.assign", obj=locked, actor=assigned_by, before=before,
                 after={"assignee": assignee.username})
    if assignee.pk != assigned_by.pk:
        _notify(recipient=assignee, kind=Notification.Kind.ASSIGNMENT, answer=locked, actor=assigned_by)
    return assignment


def mentioned_names(text: str) -> list[str]:
    """The usernames a comment mentions, in order, once each (a trailing full stop is punctuation)."""
    names = []
    for match in MENTION.finditer(text):
        name = match.group(1).rstrip(".")
        if name and name.lower() not in (n.lower() for n in names):
            names.append(name)
    return names


@transaction.atomic
def comment_add(*, answer: Answer, author, text: str) -> tuple[Comment, list[str]]:
    """Comment on an answer; every person it mentions who may review the answer is notified. Returns the comment
    and the mentioned names nobody was notified for (no such person, or not cleared: they learn nothing)."""
    text = text.strip()
    if not text:
        raise TriageInvalid(_("The comment is empty."))
    if len(text) > COMMENT_MAX_CHARS:
        raise TriageInvalid(_("A comment is at most %(limit)s characters.") % {"limit": COMMENT_MAX_CHARS})
    if problem := text_problem(text):
        raise TriageInvalid(_("The comment %(problem)s.") % {"problem": problem})
    comment = Comment.objects.create(answer=answer, author=author, text=text)
    notified, not_notified = [], []
    for name in mentioned_names(text)[:MENTIONS_MAX]:
        person = get_user_model().objects.filter(username__iexact=name).first()
        if person is None or not may_review(user=person, answer=answer):
            not_notified.append(name)
        else:
            notified.append(person)
    comment.mentioned.set(notified)
    audit_record(verb="answer.comment", obj=answer, actor=author, note=text,
                 after={"comment": comment.pk, "mentioned": [p.username for p in notified]})
    for person in notified:
        if person.pk != author.pk:
            _notify(recipient=person, kind=Notification.Kind.MENTION, answer=answer, actor=author, comment=comment)
    return comment, not_notified


def notifications_mark_read(*, user, answer: Answer | None = None) -> int:
    """Mark the user's notifications read: all of them, or those about `answer` (they opened it)."""
    unread = Notification.objects.filter(recipient=user, read_at__isnull=True)
    if answer is not None:
        unread = unread.filter(answer=answer)
    return unread.update(read_at=timezone.now())


def answer_viewed_receiver(sender, *, answer: Answer, viewer, **kwargs) -> None:
    """review.signals.answer_viewed: the reviewer has seen what they were told about the answer."""
    notifications_mark_read(user=viewer, answer=answer)


def notification_email_take(*, notification_id: int) -> Notification | None:
    """Take a notification's e-mail for sending; None when it was taken already (a redelivered task)."""
    claimed = Notification.objects.filter(pk=notification_id, emailed_at__isnull=True).update(
        emailed_at=timezone.now())
    if not claimed:
        return None
    return Notification.objects.select_related("recipient", "actor", "answer", "comment", "version__document").get(
        pk=notification_id)


def notification_email_send(*, notification: Notification) -> None:
    """One plain e-mail: who did what, on which answer, and the link; a mention quotes the comment (the recipient
    is cleared for the answer, or they would not have been notified)."""
    recipient = notification.recipient
    if not may_review(user=recipient, answer=notification.answer):
        return  # their clearance or role changed since: the answer is no longer theirs to read about
    url = settings.CONSOLE_BASE_URL.rstrip("/") + reverse("review:answer_detail", args=[notification.answer_id])
    with translation.override(recipient.language or settings.LANGUAGE_CODE):  # in the recipient's language
        subject = _("%(who)s: %(what)s (answer %(number)s)") % {
            "who": notification.actor.username, "what": notification.get_kind_display().lower(),
            "number": notification.answer_id}
    body = f"{subject}\n\n{notification.comment.text if notification.comment else ''}\n\n{url}\n"
    send_mail(subject, body, None, [recipient.email])


def answers_assign_bulk(*, answers: list[Answer], assignee, assigned_by) -> BulkOutcome:
    """Assign each ticked answer (review.bulk: the same lease rules as a bulk reject — an answer someone else is
    reviewing is left as it is and named); each assignment is audited and notified on its own."""
    outcome = BulkOutcome()
    for answer in answers:
        if why := bulk_skip_reason(answer=answer, actor=assigned_by):
            outcome.skipped.append((answer, why))
            continue
        try:
            answer_assign(answer=answer, assignee=assignee, assigned_by=assigned_by)
        except TriageInvalid as exc:
            outcome.skipped.append((answer, str(exc)))
        else:
            outcome.done.append(answer)
    return outcome


def answers_assign_restore(*, previous: dict[int, int | None], assigned_by) -> int:
    """Undo a bulk assign: each answer back to whoever it was assigned to before (or nobody); how many were."""
    people = get_user_model().objects.in_bulk([pk for pk in previous.values() if pk])
    restored = 0
    for answer in Answer.objects.filter(pk__in=list(previous), status=AnswerStatus.PENDING_REVIEW):
        before = previous[answer.pk]
        try:
            answer_assign(answer=answer, assignee=people.get(before) if before else None, assigned_by=assigned_by)
        except TriageInvalid:
            continue  # the one it was assigned to may no longer review it: it stays as the bulk assign left it
        restored += 1
    return restored
