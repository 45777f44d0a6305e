"""Reads for team work on the queue. Everything about an answer is filtered by the viewer's clearance here."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Max, Q, QuerySet
from django.http import QueryDict

from console import roles
from console.models import SecurityLevel
from kb.models import Document
from kb.selectors import documents_visible_to
from review.models import Answer
from review.selectors import answers_visible_to
from triage.forms import CommentForm
from triage.models import Assignment, Comment, Notification, QueueView


def queue_views_for(*, user) -> list[QueueView]:
    """The user's own views and those others shared, own first. A shared view filtering by a document above the
    user's clearance is left out: its link would name the document."""
    views = list(QueueView.objects.filter(Q(owner=user) | Q(shared=True)).select_related("owner")
                 .order_by("-shared", "name", "pk"))
    named = {key for view in views if view.owner_id != user.pk for key in QueryDict(view.query).getlist("document")}
    readable = set(Document.objects.filter(key__in=named, security_level__in=SecurityLevel.up_to(user.clearance))
                   .values_list("key", flat=True)) if named else set()
    return [view for view in views
            if view.owner_id == user.pk or set(QueryDict(view.query).getlist("document")) <= readable]


def get_queue_view_for_user(*, user, view_id: int) -> QueueView | None:
    return next((view for view in queue_views_for(user=user) if view.pk == view_id), None)


def queue_view_query(*, user, view_id: int) -> str | None:
    """A saved view's query string, if the user may see the view (review.review_api_hooks)."""
    view = get_queue_view_for_user(user=user, view_id=view_id)
    return view.query if view is not None else None


def people_with_role(role: str) -> QuerySet:
    """Active people holding `role` (admins and superusers hold every role)."""
    holding = Q(groups__name__in=[role, roles.ADMIN]) | Q(is_superuser=True)
    return get_user_model().objects.filter(holding, is_active=True).distinct()


def _reviewers() -> QuerySet:
    return people_with_role(roles.REVIEWER)


def cleared_for(level: str) -> list[str]:
    """Clearances that may read something at `level`: that level and every level above it."""
    return list(SecurityLevel.values)[SecurityLevel.rank(level):]


def may_review(*, user, answer: Answer) -> bool:
    """May this person open the answer in review: the reviewer role and clearance for its evidence."""
    return (user.is_active and user.has_role(roles.REVIEWER)
            and user.clearance in cleared_for(answer.evidence_level))


def reviewers_for_answer(*, answer: Answer) -> QuerySet:
    """Who an answer may be assigned to or who may be mentioned on it: reviewers cleared for its evidence. Naming
    anyone else would tell them about an answer they may not read."""
    return _reviewers().filter(clearance__in=cleared_for(answer.evidence_level)).order_by("username")


def reviewers_for_queue(*, viewer) -> QuerySet:
    """The people a queue filter may name: reviewers (their names are no secret among reviewers)."""
    return _reviewers().order_by("username")


def comments_for(*, answer: Answer) -> QuerySet[Comment]:
    return answer.comments.select_related("author").prefetch_related("mentioned").order_by("created_at", "pk")


def answer_comment_count(*, answer: Answer) -> int:
    return Comment.objects.filter(answer=answer).count()


def notifications_for(*, user) -> QuerySet[Notification]:
    """The user's notifications about answers and versions they may still read (clearance is checked now, not
    when sent)."""
    readable = Q(answer__in=answers_visible_to(user)) | Q(version__document__in=documents_visible_to(user))
    return (Notification.objects.filter(readable, recipient=user)
            .select_related("actor", "answer", "comment", "version__document").order_by("-created_at", "-pk"))


def notifications_unread_count(*, user) -> int:
    return notifications_for(user=user).filter(read_at__isnull=True).count()


def answer_teamwork(*, answer: Answer, comment_form: CommentForm) -> dict:
    """What the answer page shows of team work: who it is assigned to, to whom it may be assigned (and who may be
    mentioned), and the comments."""
    assignment = Assignment.objects.filter(answer=answer).select_related("assignee", "assigned_by").first()
    return {
        "assignment": assignment, "reviewers_for_answer": list(reviewers_for_answer(answer=answer)),
        "comments": list(comments_for(answer=answer)), "comment_form": comment_form,
    }


def answers_teamwork_state(answer_ids: list[int]) -> dict[int, str]:
    """What the live pages follow of team work (review.live): each answer's comments and assignee."""
    comments = dict(Comment.objects.filter(answer_id__in=answer_ids).values("answer_id").order_by()
                    .annotate(last=Max("pk")).values_list("answer_id", "last"))
    assigned = dict(Assignment.objects.filter(answer_id__in=answer_ids).values_list("answer_id", "assignee_id"))
    return {answer_id: f"{comments.get(answer_id)}:{assigned.get(answer_id)}" for answer_id in answer_ids}


def assignees_of(*, answer_ids: list[int]) -> dict[int, int]:
    """Whom each of these answers is assigned to now (unassigned ones are left out)."""
    return dict(Assignment.objects.filter(answer_id__in=answer_ids).values_list("answer_id", "assignee_id"))
