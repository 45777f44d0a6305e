from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from console import roles
from console.roles import role_required
from console.input_text import text_problem
from kb.selectors import get_version_for_user
from review import (
    citations, corrections, gold, groups, leases, live, presence, refusals, reviewed_facts, selectors, services,
    undo,
)
from review.bulk import bulk_undo_toast
from review.forms import DecisionForm, EditedTextForm, QueueFilterForm
from review.models import (
    Answer, AnswerStatus, Claim, ClaimReview, Decision, ErrorKind, GoldItem, ReviewedFact, Risk,
)
from review.queue_openers import queue_opened
from review.signals import answer_viewed

REVIEWERS = (roles.REVIEWER,)


def answer_segments(answer: Answer, claims: list[Claim]) -> list[tuple[str, Claim | None]]:
    """The answer text cut into (text, claim) pieces so each claim can be highlighted in place."""
    segments, position = [], 0
    for claim in sorted(claims, key=lambda c: c.start):
        if claim.start > position:
            segments.append((answer.text[position:claim.start], None))
        segments.append((answer.text[claim.start:claim.end], claim))
        position = max(position, claim.end)
    if position < len(answer.text):
        segments.append((answer.text[position:], None))
    return segments


@require_GET
@role_required(*REVIEWERS)
def queue(request: HttpRequest) -> HttpResponse:
    return queue_opened(request) or queue_page(request)


# Column -> the sort its header applies (age toggles between oldest and newest first).
SORTABLE_COLUMNS = {"risk": "risk", "probability": "likely", "age": "oldest", "client": "client",
                    "assignee": "assignee"}


def _sort_urls(query: QueryDict, current: str) -> dict[str, str]:
    """Each sortable column header's link: the queue as filtered now, sorted by that column."""
    base = query.copy()
    base.pop("sort", None)
    urls = {}
    for column, sort in SORTABLE_COLUMNS.items():
        if column == "age" and current == "oldest":
            sort = "newest"
        base["sort"] = sort
        urls[column] = f"?{base.urlencode()}"
    return urls


def queue_page(request: HttpRequest, *, extra_context: dict | None = None, status: int = 200) -> HttpResponse:
    """The queue as filtered; `extra_context`: what a higher app's form posted back with (triage's saved views)."""
    form = QueueFilterForm(request.GET or None, user=request.user)
    answers = selectors.review_queue(user=request.user, **form.selector_filters())
    page = Paginator(answers, 25).get_page(request.GET.get("page"))
    query = request.GET.copy()
    for not_a_filter in ("page", "seen"):
        query.pop(not_a_filter, None)
    current_sort = form.cleaned_data.get("sort") if form.is_valid() else ""
    refreshing = request.htmx and request.htmx.target == "queue-rows"
    shown = list(page)
    presence_by_answer = presence.answers_presence(answer_ids=[a.pk for a in shown], viewer=request.user)
    fingerprint = live.queue_fingerprint(rows=shown, count=page.paginator.count, extra=presence_by_answer)
    if refreshing and request.GET.get("seen") == fingerprint:
        return HttpResponse(status=204)  # the live queue's question "changed?": no, and htmx leaves the rows be
    for answer in page:
        answer.looking = presence_by_answer.get(answer.pk, [])
    context = {
        "form": form, "page": page, "query": query.urlencode(), "now": timezone.now(),
        "columns": form.columns(), "current_sort": current_sort or "risk",
        "sort_urls": _sort_urls(query, current_sort or "risk"), "live_fingerprint": fingerprint,
        "live_poll_seconds": settings.REVIEW_LIVE_POLL_SECONDS, **(extra_context or {}),
    }
    if refreshing:
        return render(request, "review/_queue_rows.html", context)
    context["answer_groups"] = _answer_groups_shown(request)
    context["bulk_undo"] = bulk_undo_toast(request)
    return render(request, "review/queue.html", context, status=status)


def _answer_groups_shown(request: HttpRequest) -> list[tuple[groups.AnswerGroup, Answer]]:
    """The largest groups of pending answers stating the same facts, each with its oldest answer."""
    found = groups.answer_groups(pending=selectors.answers_visible_to(request.user))[:5]
    first = Answer.objects.in_bulk([group.answer_ids[0] for group in found])
    return [(group, first[group.answer_ids[0]]) for group in found]


SKIPPED = "review_skipped"  # session key: answers this reviewer skipped, passed over by "next"


NEXT_FILTERS = "review_next_filters"  # session key: the queue filters "next" was last pressed under


def _next_candidates(request: HttpRequest) -> tuple:
    """What "next" may hand out, and in which order: the queue as the reviewer filtered and sorted it (by hand or
    by a saved view) when pressing "next" there (kept for the "then next" of the decisions that follow), else
    everything visible to them in the queue's order."""
    if "queue" in request.GET:  # pressed on the queue page: its filters as they are now (none, too)
        filters = request.GET.copy()
        filters.pop("queue")
        request.session[NEXT_FILTERS] = filters.urlencode()
    form = QueueFilterForm(QueryDict(request.session.get(NEXT_FILTERS, "")), user=request.user)
    filters = form.selector_filters()
    order = selectors.QUEUE_SORTS.get(filters.get("sort", ""), leases.QUEUE_ORDER)
    if not filters:
        return selectors.answers_visible_to(request.user), order
    return selectors.review_queue(user=request.user, **filters), order


def _lease_next_or_queue(request: HttpRequest) -> HttpResponse:
    skipped = frozenset(request.session.get(SKIPPED, []))
    candidates, order = _next_candidates(request)
    answer = leases.answer_lease_next(reviewer=request.user, queryset=candidates, skipped=skipped, order=order)
    if answer is not None:
        return redirect(answer)
    if skipped:
        request.session[SKIPPED] = []  # they come round again next time
        messages.info(request, _("Nothing else is waiting apart from the %(count)s you skipped.") % {
            "count": len(skipped)})
        return redirect("review:queue")
    filters = request.session.get(NEXT_FILTERS, "")
    if not filters:
        messages.info(request, _("Nothing is waiting for review. Well done."))
        return redirect("review:queue")
    # The list the reviewer was working through is done, not the queue: stay on it, and say what waits elsewhere.
    elsewhere = selectors.answers_visible_to(request.user).filter(status=AnswerStatus.PENDING_REVIEW).count()
    messages.info(request, ngettext("Nothing left in this list; %(count)d answer is waiting elsewhere.",
                                    "Nothing left in this list; %(count)d answers are waiting elsewhere.", elsewhere)
                  % {"count": elsewhere} if elsewhere else _("Nothing left in this list, nor anywhere else. Well done."))
    return redirect(f"{reverse('review:queue')}?{filters}")


@require_POST
@role_required(*REVIEWERS)
def review_next(request: HttpRequest) -> HttpResponse:
    return _lease_next_or_queue(request)


def _decision_context(request: HttpRequest, answer: Answer, claims: list[Claim]) -> dict:
    """What the claim cards and the decision panel need to know about the reviewer's hold on the answer."""
    holds_lease = (answer.status == AnswerStatus.PENDING_REVIEW and answer.lease_holder_id == request.user.pk
                   and answer.lease_expires_at is not None and answer.lease_expires_at > timezone.now())
    return {
        "answer": answer, "claims": claims, "segments": answer_segments(answer, claims), "can_decide": holds_lease,
        "approve_blocker": services.decision_blockers(answer=answer, claims=claims, action=Decision.Action.APPROVE),
        "edit_blocker": services.decision_blockers(answer=answer, claims=claims, action=Decision.Action.EDIT),
        # The checker supports these: one key agrees with all of them, and attention goes to the flagged ones.
        "supported_open": sum(not c.is_flagged and c.review_state == ClaimReview.OPEN for c in claims),
        "error_kinds": ErrorKind.choices,  # what a claim marked wrong asks: why
    }


def answer_page(request: HttpRequest, answer: Answer, *, form: DecisionForm | None = None,
                extra_context: dict | None = None, status: int = 200) -> HttpResponse:
    """`extra_context`: what a higher app's form posted back with (triage's comment form and its errors)."""
    claims = list(answer.claims.all())
    held_by_other = answer.lease_is_held_by_other(request.user)
    for_admin = not leases.answer_may_decide(answer=answer, reviewer=request.user)
    context = _decision_context(request, answer, claims)
    decided_by_edit = answer.status == AnswerStatus.APPROVED and bool(answer.edited_text)
    return render(request, "review/answer_detail.html", {
        **context, "held_by_other": held_by_other, "for_admin": for_admin,
        "can_start": (answer.status == AnswerStatus.PENDING_REVIEW and not held_by_other and not for_admin
                      and not context["can_decide"] and answer.first_approved_by_id != request.user.pk
                      and request.user.has_role(*REVIEWERS)),
        **_gold_context(request, answer),
        "form": form or DecisionForm(initial={"edited_text": answer.text}),
        "decisions": answer.decisions.select_related("reviewer"),
        "marked_claims": [c for c in claims if c.review_state != ClaimReview.OPEN],
        "settled_conflicts": [(c, pair) for c in claims for pair in c.conflict_pairs if pair.recorded],
        "edited_claims": selectors.edited_claims(answer=answer) if decided_by_edit else [],
        "position": selectors.queue_position(user=request.user, answer=answer),
        "looking": presence.answer_presence_touch(answer_id=answer.pk, viewer=request.user),
        "live_fingerprint": live.answer_fingerprint(answer_id=answer.pk),
        "live_poll_seconds": settings.REVIEW_LIVE_POLL_SECONDS, **(extra_context or {}),
    }, status=status)


def _gold_context(request: HttpRequest, answer: Answer) -> dict:
    """Leads (approvers, admins) see whether an answer is gold, or a gold item's copy; nobody else is told."""
    if not request.user.has_role(roles.APPROVER):
        return {"is_lead": False}
    return {"is_lead": True, "gold_item": GoldItem.objects.filter(answer=answer, retired_at__isnull=True).first(),
            "gold_verdict": gold.gold_verdict_of(answer)}


@require_GET
@role_required(*REVIEWERS, roles.APPROVER)  # approvers read it to make it a gold item; deciding is reviewers'
def answer_detail(request: HttpRequest, answer_id: int) -> HttpResponse:
    """Read-only: looking at an answer takes no lease (Start review does). A refused decision redirected here is
    shown once, what the reviewer typed back in its boxes."""
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    answer_viewed.send(sender=Answer, answer=answer, viewer=request.user)
    refusal = refusals.refusal_pop(request, answer_id=answer.pk)
    if refusal is None:
        return answer_page(request, answer)
    # Bound to what was posted: its own field errors come back as they were, beside their fields.
    form = DecisionForm(refusal.typed) if refusal.typed else None
    return answer_page(request, answer, form=form, extra_context={"refused": refusal.messages})


@require_POST
@role_required(*REVIEWERS)
def review_start(request: HttpRequest, answer_id: int) -> HttpResponse:
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    with suppress(leases.LeaseHeld):  # the page says who holds it, once (#lease-notice), and follows the lease live
        leases.answer_lease_take(answer=answer, reviewer=request.user)
    return redirect(answer)


@require_GET
@role_required(*REVIEWERS)
def answer_live(request: HttpRequest, answer_id: int) -> JsonResponse:
    """The open answer page's question every few seconds: who else is looking, and the fingerprint of what the
    page shows — when it changed, the page fetches itself and swaps in the parts that changed (static/js/live.js)."""
    answer = get_object_or_404(selectors.answers_visible_to(request.user).only("pk"), pk=answer_id)  # no claims
    looking = presence.answer_presence_touch(answer_id=answer.pk, viewer=request.user)
    return JsonResponse({
        "fingerprint": live.answer_fingerprint(answer_id=answer.pk),
        "presence": render_to_string("review/_presence.html", {"looking": looking}, request=request),
    })


@require_POST
@role_required(*REVIEWERS)
def lease_renew(request: HttpRequest, answer_id: int) -> HttpResponse:
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    try:
        answer = leases.answer_lease_take(answer=answer, reviewer=request.user)
    except leases.LeaseHeld as exc:
        return render(request, "review/_lease.html", {"answer": answer, "error": str(exc)}, status=409)
    return render(request, "review/_lease.html", {"answer": answer})


@require_POST
@role_required(*REVIEWERS)
def lease_release(request: HttpRequest, answer_id: int) -> HttpResponse:
    """Release to the queue; `quiet` is the page's beacon when it closes: nothing to show anyone."""
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    leases.answer_lease_release(answer=answer, reviewer=request.user)
    if request.POST.get("quiet"):
        return HttpResponse(status=204)
    messages.info(request, _("Released answer %(number)s back to the queue.") % {"number": answer.pk})
    return redirect("review:queue")


@require_POST
@role_required(*REVIEWERS)
def answer_skip(request: HttpRequest, answer_id: int) -> HttpResponse:
    """Put the answer back for someone else and take the next one; it does not come back until the rest are done."""
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    leases.answer_lease_release(answer=answer, reviewer=request.user)
    request.session[SKIPPED] = [*request.session.get(SKIPPED, []), answer.pk][-500:]
    messages.info(request, _("Skipped answer %(number)s.") % {"number": answer.pk})
    return _lease_next_or_queue(request)


def _claim_card(request: HttpRequest, claim: Claim, *, error: str = "", status: int = 200) -> HttpResponse:
    answer = selectors.get_answer_for_user(user=request.user, answer_id=claim.answer_id)
    claims = list(answer.claims.all())
    return render(request, "review/_claim_update.html", {
        **_decision_context(request, answer, claims), "claim": next(c for c in claims if c.pk == claim.pk),
        "claim_error": error,
    }, status=status)


def _get_claim_for_user(*, user, claim_id: int) -> Claim:
    return get_object_or_404(Claim.objects.select_related("answer"), pk=claim_id, from_edit=False,
                             answer__in=selectors.answers_visible_to(user))


def _claim_acted(request: HttpRequest, claim: Claim, act: Callable[[], object]) -> HttpResponse:
    """Run a reviewer's action on a claim; answer with its card (htmx) or the review page, naming a refusal."""
    try:
        act()
    except (leases.DecisionConflict, services.DecisionInvalid) as exc:
        if request.htmx:
            status = 409 if isinstance(exc, leases.DecisionConflict) else 400
            return _claim_card(request, claim, error=str(exc), status=status)
        messages.error(request, str(exc))
    if not request.htmx:
        return redirect(f"{claim.answer.get_absolute_url()}#claim-{claim.pk}")
    return _claim_card(request, claim)


@require_POST
@role_required(*REVIEWERS)
def claim_review(request: HttpRequest, claim_id: int) -> HttpResponse:
    claim = _get_claim_for_user(user=request.user, claim_id=claim_id)
    kind = request.POST.get("kind", "")
    # A kind's button says the claim is wrong and why (the card's "Why is it wrong?" row).
    state = request.POST.get("state", "") or (ClaimReview.REJECTED if kind else "")
    if state not in ClaimReview.values:
        return HttpResponse("state must be confirmed, rejected or open", status=400)
    if problem := services.error_kind_problem(kind):
        return HttpResponse(problem, status=400)
    note = request.POST.get("note", "").strip()[:2000]
    if problem := text_problem(note):
        return HttpResponse(_("The note %(problem)s.") % {"problem": problem}, status=400)
    return _claim_acted(request, claim, lambda: services.claim_review(
        claim=claim, reviewer=request.user, state=state, note=note,
        kind=kind if state == ClaimReview.REJECTED else ""))


@require_POST
@role_required(*REVIEWERS)
def claims_confirm_supported(request: HttpRequest, answer_id: int) -> HttpResponse:
    """Agree with every claim the checker supports that nobody has marked yet, in one step."""
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    try:
        confirmed = services.claims_confirm_supported(answer=answer, reviewer=request.user)
    except leases.DecisionConflict as exc:
        messages.error(request, str(exc))
        return redirect(answer)
    messages.success(request, ngettext("Marked %(count)d supported claim correct.",
                                       "Marked %(count)d supported claims correct.", confirmed) % {"count": confirmed})
    return redirect(f"{answer.get_absolute_url()}#decision")


@require_POST
@role_required(*REVIEWERS)
def claim_conflict_settle(request: HttpRequest, claim_id: int) -> HttpResponse:
    """Which of two conflicting approved sources is right (or neither): the wrong one goes to its owner's list."""
    claim = _get_claim_for_user(user=request.user, claim_id=claim_id)
    conflicting_id = request.POST.get("conflicting", "")
    conflicting = claim.evidence.select_related("chunk__version").filter(
        pk=int(conflicting_id) if conflicting_id.isdigit() else None).first()
    if conflicting is None:
        return HttpResponse("conflicting must name a conflicting source of this claim", status=400)
    note = request.POST.get("note", "").strip()[:2000]
    if problem := text_problem(note):
        return HttpResponse(_("The note %(problem)s.") % {"problem": problem}, status=400)
    return _claim_acted(request, claim, lambda: corrections.source_conflict_settle(
        claim=claim, reviewer=request.user, conflicting=conflicting, right=request.POST.get("right", ""), note=note))


def _recheck(answer: Answer, text: str) -> dict:
    return services.answer_check_on_worker(answer_text=text, question=answer.question,
                                           clearance=answer.client.clearance)


@require_POST
@role_required(*REVIEWERS)
def answer_recheck(request: HttpRequest, answer_id: int) -> HttpResponse:
    """Check the edited text and show each claim's verdict and source before anything is sent (htmx partial)."""
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    form = EditedTextForm(request.POST)
    if not form.is_valid() or not form.cleaned_data["edited_text"].strip():
        error = " ".join(form.errors.get("edited_text", [])) or _("The edited answer is empty.")
        return render(request, "review/_recheck.html", {"error": error}, status=400)
    try:
        check = _recheck(answer, form.cleaned_data["edited_text"])
    except services.CheckUnavailable:
        return render(request, "review/_recheck.html",
                      {"error": _("The edited answer could not be re-checked (no worker answered). Try again.")},
                      status=503)
    return render(request, "review/_recheck.html", {"check": selectors.recheck_rows(check=check)})


@require_POST
@role_required(*REVIEWERS)
def answer_decide(request: HttpRequest, answer_id: int) -> HttpResponse:
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    if not leases.answer_may_decide(answer=answer, reviewer=request.user):  # before re-checking an edit
        raise PermissionDenied(_("This answer was escalated to an admin: only an admin can decide it."))
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return _decision_refused(request, answer, form, status=400)
    action = form.cleaned_data["action"]
    edited_check = None
    if action == Decision.Action.EDIT and form.cleaned_data["edited_text"].strip():
        if blocker := services.decision_blockers(answer=answer, claims=list(answer.claims.all()), action=action):
            form.add_error(None, blocker)  # before spending a re-check on it
            return _decision_refused(request, answer, form, status=400)
        try:
            edited_check = _recheck(answer, form.cleaned_data["edited_text"])
        except services.CheckUnavailable:  # refuse rather than send unchecked text
            form.add_error(None, _("The edited answer could not be re-checked (no worker answered). Try again."))
            return _decision_refused(request, answer, form, status=503)
        if edited_check["risk"] == Risk.HIGH and not form.cleaned_data["reason"]:
            rows = selectors.recheck_rows(check=edited_check)
            flagged = [f"{row.text} ({row.verdict_label}{'; ' + row.source if row.source else ''})"
                       for row in rows.claims if row.verdict != "supported"]
            reasons = "; ".join(edited_check["reasons"])
            form.add_error(None, (
                _("The edited answer is still high risk: %(reasons)s — flagged: %(flagged)s. Fix it, or give a reason "
                  "to send it anyway.") if flagged else
                _("The edited answer is still high risk: %(reasons)s. Fix it, or give a reason to send it anyway.")
            ) % {"reasons": reasons, "flagged": " | ".join(flagged)})
            return _decision_refused(request, answer, form, status=400)
    try:
        services.answer_decide(answer=answer, reviewer=request.user, action=action,
                               reason=form.cleaned_data["reason"], edited_text=form.cleaned_data["edited_text"],
                               edited_check=edited_check)
    except leases.DecisionConflict as exc:
        if request.htmx:
            return _conflict(request, answer, str(exc))
        form.add_error(None, _("Your decision was not recorded: %(reason)s") % {"reason": exc})
        return _decision_refused(request, answer, form, status=409)
    except services.DecisionInvalid as exc:
        form.add_error(None, str(exc))
        return _decision_refused(request, answer, form, status=400)
    if action == Decision.Action.REJECT:
        answer.refresh_from_db()
        undo.undo_offer(request, answer)  # the toast says it, with its Undo button
    elif action == Decision.Action.APPROVE and Answer.objects.get(pk=answer.pk).needs_second_reviewer:
        messages.success(request, _("First approval given: answer %(number)s waits for a second reviewer and is "
                                    "not sent yet.") % {"number": answer.pk})
    else:
        done = {"approve": _("Answer %(number)s approved and sent."), "edit": _("Answer %(number)s edited and sent."),
                "escalate": _("Answer %(number)s escalated to an admin.")}
        messages.success(request, done[action] % {"number": answer.pk})
    if request.POST.get("then") == "next":
        return review_next(request)
    return redirect("review:queue")


@require_POST
@role_required(*REVIEWERS)
def answer_reject_undo(request: HttpRequest, answer_id: int) -> HttpResponse:
    """The toast's Undo: the rejected answer comes back to the reviewer; `leaving`, the answer whose page the toast
    was on (the "then next" one), goes back to the queue."""
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    try:
        undo.answer_reject_undo(answer=answer, reviewer=request.user)
    except undo.UndoTooLate as exc:
        request.session.pop(undo.UNDO_SESSION_KEY, None)
        if request.htmx:
            return _conflict(request, answer, str(exc), title=_("The reject was not undone"))
        refusals.refusal_store(request, answer_id=answer.pk,
                               messages=[_("The reject was not undone: %(reason)s") % {"reason": exc}])
        return _SeeOther(answer.get_absolute_url())
    request.session.pop(undo.UNDO_SESSION_KEY, None)
    leaving = request.POST.get("leaving", "")
    if leaving.isdigit() and int(leaving) != answer.pk:
        leases.answer_lease_release(answer=Answer(pk=int(leaving)), reviewer=request.user)
    messages.success(request, _("Reject undone: answer %(number)s is back with you.") % {"number": answer.pk})
    return redirect(answer)


@require_POST
@role_required(*REVIEWERS)
def audit_samples_approve(request: HttpRequest) -> HttpResponse:
    """Bulk approve for low-risk answers sampled for audit (the queue's checkboxes)."""
    ids = [int(value) for value in request.POST.getlist("answers") if value.isdigit()]
    if not ids:
        messages.error(request, _("Tick the audit samples to approve first."))
        return queue_page(request, status=400)
    approved, left = services.answers_approve_audit_samples(
        answer_ids=ids, reviewer=request.user, queryset=selectors.answers_visible_to(request.user))
    sent = _("Approved and sent %(count)s audit sample(s).") % {"count": approved}
    if left:
        sent += " " + _("%(count)s left for one-by-one review (not a waiting low-risk sample, or someone "
                        "holds it).") % {"count": left}
    messages.success(request, sent)
    return redirect(f"{reverse('review:queue')}?{request.POST.get('query', '')}")


class _SeeOther(HttpResponseRedirect):
    """303: the browser reads the page with a GET, and no POST is left in its history to send again."""

    status_code = 303


def _decision_refused(request: HttpRequest, answer: Answer, form: DecisionForm, *, status: int) -> HttpResponse:
    """A plain form goes to the answer's own page (post/redirect/get), the refusal and what was typed with it, so
    a reload there sends nothing; htmx does not navigate, so it gets the page with the refusal at once."""
    if request.htmx:
        return answer_page(request, answer, form=form, status=status)
    refusals.refusal_store(request, answer_id=answer.pk, messages=form.non_field_errors(),
                           typed={name: request.POST[name] for name in form.fields if name in request.POST})
    return _SeeOther(answer.get_absolute_url())


def _conflict(request: HttpRequest, answer: Answer, detail: str, *, title: str = "") -> HttpResponse:
    answer.refresh_from_db()
    return render(request, "review/conflict.html", {"answer": answer, "detail": detail, "title": title},
                  status=409)


@require_GET
@role_required(*REVIEWERS, roles.CURATOR, roles.APPROVER)
def claim_trace(request: HttpRequest, claim_id: int) -> HttpResponse:
    claim = get_object_or_404(selectors.claims_with_evidence().select_related("answer__client"), pk=claim_id,
                              answer__in=selectors.answers_visible_to(request.user))
    decisions = claim.answer.decisions.select_related("reviewer").order_by("created_at")
    return render(request, "review/claim_trace.html", {
        "claim": claim, "answer": claim.answer, "decisions": decisions})


@require_GET
@role_required(*citations.CITATION_READERS)
def version_citations(request: HttpRequest, key: str, number: int) -> HttpResponse:
    version = get_version_for_user(user=request.user, key=key, number=number)
    try:
        line = int(request.GET["line"]) if request.GET.get("line") else None
    except ValueError:
        line = None
    answers = citations.answers_citing_version(viewer=request.user, version=version, line=line)
    page = Paginator(answers, 50).get_page(request.GET.get("page"))
    claims = citations.citing_claims(version=version, answer_ids=[answer.pk for answer in page])
    for answer in page:
        answer.citing_claim_id = claims.get(answer.pk)
    return render(request, "review/version_citations.html", {
        "version": version, "document": version.document, "line": line, "page": page,
        "query": f"line={line}" if line else "",
    })


@require_POST
@role_required(roles.APPROVER)
def reviewed_fact_revoke(request: HttpRequest, fact_id: int) -> HttpResponse:
    """An approver takes back a reviewed fact from its version's page: later claims stating it wait again."""
    fact = get_object_or_404(ReviewedFact.objects.select_related("version__document"), pk=fact_id,
                             version__isnull=False)
    version = get_version_for_user(user=request.user, key=fact.version.document.key, number=fact.version.number)
    reviewed_facts.reviewed_fact_revoke(fact=fact, approver=request.user)
    messages.success(request, _("Revoked: later claims stating “%(claim)s” wait for a reviewer again.")
                     % {"claim": fact.claim_text[:120]})
    return redirect(f"{version.get_absolute_url()}#reviewed-facts")


@require_POST
@role_required(roles.APPROVER)
def answer_gold(request: HttpRequest, answer_id: int) -> HttpResponse:
    """A lead makes a decided answer a gold item (`gold=1`) or retires it (`gold=0`)."""
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    if request.POST.get("gold") == "0":
        item = GoldItem.objects.filter(answer=answer).first()
        if item is not None:
            gold.gold_item_retire(item=item, lead=request.user)
        messages.success(request, _("Answer %(number)s is no longer a gold item.") % {"number": answer.pk})
        return redirect(answer)
    try:
        item = gold.gold_item_mark(answer=answer, lead=request.user)
    except gold.GoldRefused as exc:
        messages.error(request, str(exc))
        return redirect(answer)
    messages.success(request, _("Answer %(number)s is a gold item (%(verdict)s): reviewers get copies of it "
                                "unannounced.") % {"number": answer.pk, "verdict": item.get_verdict_display()})
    return redirect(answer)
