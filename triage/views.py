from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from console import roles
from console.roles import role_required
from review import bulk
from review import selectors as review_selectors
from review.bulk_views import queue_back, skipped_report, ticked_ids
from review.forms import queue_query_clean
from review.views import answer_page, queue_page
from triage import drafts, guidelines, selectors, services
from triage.forms import CommentForm, GuidelineForm, QueueViewForm
from triage.models import QueueView

REVIEWERS = (roles.REVIEWER,)


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    """Back to the page the form was on (the queue with its filters, or the answer), never off the site."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return redirect(target)
    return redirect(fallback)


def _queue_url(query: str) -> str:
    return f"{reverse('review:queue')}?{query}" if query else reverse("review:queue")


def saved_view_open(request: HttpRequest) -> HttpResponse | None:
    """The queue opened from a saved view's link (?view=ID) opens with the view's whole query (a queue opener:
    review/queue_openers.py)."""
    view_id = request.GET.get("view", "")
    if not view_id:
        request.session.pop(guidelines.WORKING_VIEW, None)  # the queue without a view: its guidelines no longer apply
        return None
    view = selectors.get_queue_view_for_user(user=request.user, view_id=int(view_id)) if view_id.isdigit() else None
    if view is None:
        raise Http404(_("No such saved view (or it is not shared with you)."))
    request.session[guidelines.WORKING_VIEW] = view.pk  # its guidelines stay beside the answers opened from it
    if view.query and set(request.GET) <= {"view", "page"}:  # a view's link: open it with its whole query
        return redirect(f"{_queue_url(view.query)}&view={view.pk}")
    return None


@require_POST
@role_required(*REVIEWERS)
def queue_view_save(request: HttpRequest) -> HttpResponse:
    """Save the queue as set up now (filters, sort, columns) under a name, for oneself or shared."""
    form = QueueViewForm(request.POST)
    query = queue_query_clean(request.POST.get("query", ""))
    if form.is_valid():
        try:
            view = services.queue_view_save(owner=request.user, name=form.cleaned_data["name"], query=query,
                                            shared=form.cleaned_data["shared"])
        except services.TriageInvalid as exc:
            form.add_error("name", str(exc))
        else:
            messages.success(request, _("Saved the view “%(name)s”.") % {"name": view.name})
            return redirect(_queue_url(f"{query}&view={view.pk}" if query else f"view={view.pk}"))
    request.GET = QueryDict(query)  # the queue as it was, with the refusal beside the form
    return queue_page(request, extra_context={"view_form": form}, status=400)


@require_POST
@role_required(*REVIEWERS)
def queue_view_delete(request: HttpRequest, view_id: int) -> HttpResponse:
    view = get_object_or_404(QueueView, pk=view_id, owner=request.user)
    services.queue_view_delete(view=view, user=request.user)
    messages.info(request, _("Deleted the view “%(name)s”.") % {"name": view.name})
    return redirect("review:queue")


@require_POST
@role_required(*REVIEWERS)
def answer_assign(request: HttpRequest, answer_id: int) -> HttpResponse:
    """`assignee`: "me", a reviewer's id, or empty to unassign. A lease, not this, still decides who acts."""
    answer = review_selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    choice = request.POST.get("assignee", "")
    if choice == "me":
        assignee = request.user
    elif choice == "":
        assignee = None
    else:
        assignee = (selectors.reviewers_for_answer(answer=answer).filter(pk=int(choice)).first()
                    if choice.isdigit() else None)
        if assignee is None:
            return HttpResponse(_("Choose a reviewer who may review this answer."), status=400)
    try:
        assignment = services.answer_assign(answer=answer, assignee=assignee, assigned_by=request.user)
    except services.TriageInvalid as exc:
        return HttpResponse(str(exc), status=400)
    if assignment is None:
        messages.info(request, _("Answer %(number)s is unassigned.") % {"number": answer.pk})
    else:
        messages.success(request, _("Answer %(number)s is assigned to %(who)s.") % {
            "number": answer.pk, "who": assignment.assignee.username})
    return _back(request, answer.get_absolute_url())


@require_POST
@role_required(*REVIEWERS)
def comment_add(request: HttpRequest, answer_id: int) -> HttpResponse:
    answer = review_selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    form = CommentForm(request.POST)
    if form.is_valid():
        try:
            comment, not_notified = services.comment_add(answer=answer, author=request.user,
                                                         text=form.cleaned_data["text"])
        except services.TriageInvalid as exc:
            form.add_error("text", str(exc))
        else:
            if not_notified:
                messages.warning(request, _("Not notified (no such reviewer, or not cleared for this answer): "
                                            "%(names)s.") % {"names": ", ".join(f"@{n}" for n in not_notified)})
            return redirect(f"{answer.get_absolute_url()}#comment-{comment.pk}")
    return answer_page(request, answer, extra_context={"comment_form": form}, status=400)


@require_GET
@role_required(*roles.NOTIFIED)
def notification_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.notifications_for(user=request.user), 30).get_page(request.GET.get("page"))
    return render(request, "triage/notifications.html", {"page": page, "query": ""})


@require_POST
@role_required(*roles.NOTIFIED)
def notifications_read(request: HttpRequest) -> HttpResponse:
    services.notifications_mark_read(user=request.user)
    return redirect("triage:notifications")


@require_POST
@role_required(*REVIEWERS)
def answers_assign_bulk(request: HttpRequest) -> HttpResponse:
    """Assign every ticked row of the queue to one reviewer (or to nobody), with an undo window."""
    ids = ticked_ids(request)
    if not ids:
        messages.error(request, _("Tick the answers to assign first."))
        return queue_page(request, status=400)
    choice = request.POST.get("assignee", "")
    if choice == "me":
        assignee = request.user
    elif choice == "":
        assignee = None
    else:
        assignee = (selectors.reviewers_for_queue(viewer=request.user).filter(pk=int(choice)).first()
                    if choice.isdigit() else None)
        if assignee is None:
            messages.error(request, _("Choose a reviewer to assign the ticked answers to."))
            return queue_page(request, status=400)
    answers = bulk.bulk_answers(queryset=review_selectors.answers_visible_to(request.user), answer_ids=ids)
    previous = selectors.assignees_of(answer_ids=[answer.pk for answer in answers])
    outcome = services.answers_assign_bulk(answers=answers, assignee=assignee, assigned_by=request.user)
    if outcome.done:
        count = len(outcome.done)
        message = (ngettext("Assigned %(count)d answer to %(who)s.", "Assigned %(count)d answers to %(who)s.", count)
                   % {"count": count, "who": assignee.username} if assignee else
                   ngettext("Unassigned %(count)d answer.", "Unassigned %(count)d answers.", count) % {"count": count})
        bulk.bulk_undo_offer(request, kind="assign", answer_ids=[answer.pk for answer in outcome.done],
                             undo_url=reverse("triage:answers_assign_bulk_undo"), message=message,
                             previous={answer.pk: previous.get(answer.pk) for answer in outcome.done})
    skipped_report(request, outcome.skipped)
    return queue_back(request)


@require_POST
@role_required(*REVIEWERS)
def answers_assign_bulk_undo(request: HttpRequest) -> HttpResponse:
    offer = bulk.bulk_undo_taken(request, kind="assign")
    if offer is None:
        messages.error(request, _("Too late to undo that assignment: assign the answers again instead."))
        return queue_back(request)
    restored = services.answers_assign_restore(
        previous={int(pk): assignee for pk, assignee in offer["previous"].items()}, assigned_by=request.user)
    messages.success(request, ngettext("Assignment undone for %(count)d answer.",
                                       "Assignment undone for %(count)d answers.", restored) % {"count": restored})
    return queue_back(request)


# Who may read a view's guidelines: reviewers, and the leads who write them for shared views.
GUIDELINE_READERS = (roles.REVIEWER, roles.APPROVER, roles.ADMIN)


def _visible_view(request: HttpRequest, view_id: int) -> QueueView:
    view = selectors.get_queue_view_for_user(user=request.user, view_id=view_id)
    if view is None:
        raise Http404(_("No such saved view (or it is not shared with you)."))
    return view


@require_http_methods(["GET", "POST"])
@role_required(*GUIDELINE_READERS)
def view_guidelines(request: HttpRequest, view_id: int) -> HttpResponse:
    """A saved view's guidelines: the version in force (or one asked for), their history, and for those who may
    edit them (triage/guidelines.py) the form that saves a new version."""
    view = _visible_view(request, view_id)
    may_edit = guidelines.guideline_may_edit(user=request.user, view=view)
    history = guidelines.guideline_history(view=view)
    form = GuidelineForm(request.POST or None, initial={"text": history[0].text if history else ""})
    if request.method == "POST":
        if not may_edit:
            raise PermissionDenied(_("Only the view's owner, or an approver or admin on a shared view, can edit its "
                                     "guidelines."))
        if form.is_valid():
            try:
                guideline = guidelines.guideline_save(view=view, author=request.user, text=form.cleaned_data["text"])
            except guidelines.GuidelineInvalid as exc:
                form.add_error("text", str(exc))
            else:
                messages.success(request, _("Saved version %(number)s of the guidelines.") % {
                    "number": guideline.number})
                return redirect("triage:view_guidelines", view_id=view.pk)
    number = request.GET.get("version", "")
    shown = next((g for g in history if str(g.number) == number), None) if number else (history[0] if history
                                                                                          else None)
    return render(request, "triage/view_guidelines.html", {
        "view": view, "history": history, "shown": shown, "current": history[0] if history else None,
        "shown_html": guidelines.guideline_html(shown) if shown else "", "may_edit": may_edit, "form": form,
    }, status=400 if form.errors else 200)


@require_POST
@role_required(*REVIEWERS)
def draft_save(request: HttpRequest, answer_id: int) -> HttpResponse:
    """Keep what the reviewer is typing (sent as they type, debounced, and on leaving the box): 204, or 400 naming
    what is wrong."""
    answer = review_selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    try:
        drafts.draft_save(answer=answer, author=request.user, field=request.POST.get("field", ""),
                          text=request.POST.get("text", ""))
    except drafts.DraftInvalid as exc:
        return HttpResponse(str(exc), status=400)
    return HttpResponse(status=204)
