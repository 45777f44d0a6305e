"""The queue's bulk actions on ticked rows: reject (with one reason) and its undo. Bulk assign is triage's."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from console import roles
from console.roles import role_required
from review import bulk, selectors
from review.forms import BulkRejectForm, queue_query_clean
from review.services import DecisionInvalid
from review.views import queue_page

REVIEWERS = (roles.REVIEWER,)


def ticked_ids(request: HttpRequest) -> list[int]:
    return [int(value) for value in request.POST.getlist("answers") if value.isdigit()]


def queue_back(request: HttpRequest) -> HttpResponse:
    """Back to the queue as it was filtered when the action was taken."""
    query = queue_query_clean(request.POST.get("query", ""))
    return redirect(f"{reverse('review:queue')}?{query}" if query else reverse("review:queue"))


def skipped_report(request: HttpRequest, skipped: list) -> None:
    """Each answer a bulk action left as it was, and why (someone else is reviewing it, it was decided meanwhile)."""
    if skipped:
        messages.warning(request, _("Left as they were: %(answers)s.") % {"answers": "; ".join(
            _("answer %(number)s (%(why)s)") % {"number": answer.pk, "why": why} for answer, why in skipped)})


@require_POST
@role_required(*REVIEWERS)
def answers_reject_bulk(request: HttpRequest) -> HttpResponse:
    ids = ticked_ids(request)
    form = BulkRejectForm(request.POST)
    if not ids:
        messages.error(request, _("Tick the answers to reject first."))
        return queue_page(request, status=400)
    if not form.is_valid():
        messages.error(request, _("Say why these answers are rejected: the reason goes with each decision."))
        return queue_page(request, status=400)
    answers = bulk.bulk_answers(queryset=selectors.answers_visible_to(request.user), answer_ids=ids)
    try:
        outcome = bulk.answers_reject_bulk(answers=answers, reviewer=request.user, reason=form.cleaned_data["reason"])
    except DecisionInvalid as exc:
        messages.error(request, str(exc))
        return queue_page(request, status=400)
    if outcome.done:
        count = len(outcome.done)
        bulk.bulk_undo_offer(request, kind="reject", answer_ids=[answer.pk for answer in outcome.done],
                             undo_url=reverse("review:answers_reject_bulk_undo"),
                             message=ngettext("Rejected %(count)d answer.", "Rejected %(count)d answers.", count)
                             % {"count": count})
    skipped_report(request, outcome.skipped)
    return queue_back(request)


@require_POST
@role_required(*REVIEWERS)
def answers_reject_bulk_undo(request: HttpRequest) -> HttpResponse:
    """The bulk toast's Undo: every answer of the lot whose reject can still be undone goes back to the queue."""
    offer = bulk.bulk_undo_taken(request, kind="reject")
    if offer is None:
        messages.error(request, _("Too late to undo: those rejections are final."))
        return queue_back(request)
    answers = bulk.bulk_answers(queryset=selectors.answers_visible_to(request.user), answer_ids=offer["answers"])
    outcome = bulk.answers_reject_undo_bulk(answers=answers, reviewer=request.user)
    if outcome.done:
        messages.success(request, ngettext("Reject undone: %(count)d answer is back in the queue.",
                                           "Reject undone: %(count)d answers are back in the queue.",
                                           len(outcome.done)) % {"count": len(outcome.done)})
    skipped_report(request, outcome.skipped)
    return queue_back(request)
