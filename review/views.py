from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from console import roles
from console.roles import role_required
from console.text import text_problem
from kb.selectors import get_version_for_user
from review import selectors, services
from review.forms import DecisionForm, QueueFilterForm
from review.models import Answer, AnswerStatus, Claim, ClaimReview, Decision, Risk

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
    form = QueueFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    answers = selectors.review_queue(user=request.user, **{k: v for k, v in filters.items() if v})
    page = Paginator(answers, 25).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "query": query.urlencode(), "now": timezone.now()}
    if request.htmx and request.htmx.target == "queue-rows":
        return render(request, "review/_queue_rows.html", context)
    return render(request, "review/queue.html", context)


@require_POST
@role_required(*REVIEWERS)
def review_next(request: HttpRequest) -> HttpResponse:
    answer = services.answer_lease_next(reviewer=request.user, queryset=selectors.answers_visible_to(request.user))
    if answer is None:
        messages.info(request, "Nothing is waiting for review. Well done.")
        return redirect("review:queue")
    return redirect(answer)


def _answer_page(request: HttpRequest, answer: Answer, *, form: DecisionForm | None = None,
                 status: int = 200) -> HttpResponse:
    claims = list(answer.claims.all())
    held_by_other = answer.lease_is_held_by_other(request.user)
    for_admin = not services.answer_may_decide(answer=answer, reviewer=request.user)
    return render(request, "review/answer_detail.html", {
        "answer": answer, "claims": claims, "segments": answer_segments(answer, claims),
        "held_by_other": held_by_other, "for_admin": for_admin,
        "can_decide": answer.status == AnswerStatus.PENDING_REVIEW and not held_by_other and not for_admin,
        "open_claims": [c for c in claims if c.review_state != ClaimReview.CONFIRMED],
        "form": form or DecisionForm(initial={"edited_text": answer.text}),
        "decisions": answer.decisions.select_related("reviewer"),
    }, status=status)


@require_GET
@role_required(*REVIEWERS)
def answer_detail(request: HttpRequest, answer_id: int) -> HttpResponse:
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    if answer.status == AnswerStatus.PENDING_REVIEW:
        try:
            leased = services.answer_lease_take(answer=answer, reviewer=request.user)
            answer.lease_holder, answer.lease_expires_at = leased.lease_holder, leased.lease_expires_at
        except services.LeaseHeld as exc:
            messages.warning(request, f"{exc} You can read it, but not decide.")
    return _answer_page(request, answer)


@require_POST
@role_required(*REVIEWERS)
def lease_renew(request: HttpRequest, answer_id: int) -> HttpResponse:
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    try:
        answer = services.answer_lease_take(answer=answer, reviewer=request.user)
    except services.LeaseHeld as exc:
        return render(request, "review/_lease.html", {"answer": answer, "error": str(exc)}, status=409)
    return render(request, "review/_lease.html", {"answer": answer})


@require_POST
@role_required(*REVIEWERS)
def lease_release(request: HttpRequest, answer_id: int) -> HttpResponse:
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    services.answer_lease_release(answer=answer, reviewer=request.user)
    messages.info(request, f"Released answer {answer.pk} back to the queue.")
    return redirect("review:queue")


@require_POST
@role_required(*REVIEWERS)
def claim_review(request: HttpRequest, claim_id: int) -> HttpResponse:
    claim = get_object_or_404(Claim.objects.select_related("answer"), pk=claim_id,
                              answer__in=selectors.answers_visible_to(request.user))
    state = request.POST.get("state", "")
    if state not in {ClaimReview.CONFIRMED, ClaimReview.REJECTED, ClaimReview.OPEN}:
        return HttpResponse("state must be confirmed, rejected or open", status=400)
    note = request.POST.get("note", "").strip()[:2000]
    if problem := text_problem(note):
        return HttpResponse(f"The note {problem}.", status=400)
    try:
        services.claim_review(claim=claim, reviewer=request.user, state=state, note=note)
    except services.DecisionConflict as exc:
        if request.htmx:
            return HttpResponse(f'<p class="msg msg-error">{exc}</p>', status=409)
        messages.error(request, str(exc))
        return redirect(claim.answer)
    if not request.htmx:
        return redirect(f"{claim.answer.get_absolute_url()}#claim-{claim.pk}")
    answer = selectors.get_answer_for_user(user=request.user, answer_id=claim.answer_id)
    claims = list(answer.claims.all())
    return render(request, "review/_claim_update.html", {
        "answer": answer, "claim": next(c for c in claims if c.pk == claim.pk), "claims": claims,
        "segments": answer_segments(answer, claims), "can_decide": True,
        "open_claims": [c for c in claims if c.review_state != ClaimReview.CONFIRMED],
        "form": DecisionForm(initial={"edited_text": answer.text}),
    })


@require_POST
@role_required(*REVIEWERS)
def answer_decide(request: HttpRequest, answer_id: int) -> HttpResponse:
    answer = selectors.get_answer_for_user(user=request.user, answer_id=answer_id)
    if not services.answer_may_decide(answer=answer, reviewer=request.user):  # before re-checking an edit
        raise PermissionDenied("This answer was escalated to an admin: only an admin can decide it.")
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return _answer_page(request, answer, form=form, status=400)
    action = form.cleaned_data["action"]
    edited_risk = None
    if action == Decision.Action.EDIT and form.cleaned_data["edited_text"].strip():
        try:
            data = services.answer_check_on_worker(answer_text=form.cleaned_data["edited_text"],
                                                   question=answer.question, clearance=answer.client.clearance)
        except services.CheckUnavailable:  # refuse rather than send unchecked text
            form.add_error(None, "The edited answer could not be re-checked (no worker answered). Try again.")
            return _answer_page(request, answer, form=form, status=503)
        edited_risk = data["risk"]
        if edited_risk == Risk.HIGH and not form.cleaned_data["reason"]:
            flagged = [c["text"] for c in data["claims"] if c["verdict"] != "supported"]
            form.add_error(None, "The edited answer is still high risk: " + "; ".join(data["reasons"])
                           + (" — flagged: " + " | ".join(flagged) if flagged else "")
                           + ". Fix it, or give a reason to send it anyway.")
            return _answer_page(request, answer, form=form, status=400)
    try:
        services.answer_decide(answer=answer, reviewer=request.user, action=action,
                               reason=form.cleaned_data["reason"], edited_text=form.cleaned_data["edited_text"],
                               edited_risk=edited_risk)
    except services.DecisionConflict as exc:
        return _conflict(request, answer, str(exc))
    except services.DecisionInvalid as exc:
        form.add_error(None, str(exc))
        return _answer_page(request, answer, form=form, status=400)
    verb = {"approve": "approved and sent", "edit": "edited and sent", "reject": "rejected",
            "escalate": "escalated to an admin"}[action]
    messages.success(request, f"Answer {answer.pk} {verb}.")
    if request.POST.get("then") == "next":
        return review_next(request)
    return redirect("review:queue")


def _conflict(request: HttpRequest, answer: Answer, detail: str) -> HttpResponse:
    answer.refresh_from_db()
    return render(request, "review/conflict.html", {"answer": answer, "detail": detail}, status=409)


@require_GET
@role_required(*REVIEWERS, roles.CURATOR, roles.APPROVER)
def claim_trace(request: HttpRequest, claim_id: int) -> HttpResponse:
    claim = get_object_or_404(selectors.claims_with_evidence().select_related("answer__client"), pk=claim_id,
                              answer__in=selectors.answers_visible_to(request.user))
    return render(request, "review/claim_trace.html", {"claim": claim, "answer": claim.answer})


@require_GET
@role_required(*REVIEWERS, roles.CURATOR, roles.APPROVER)
def version_citations(request: HttpRequest, key: str, number: int) -> HttpResponse:
    version = get_version_for_user(user=request.user, key=key, number=number)
    try:
        line = int(request.GET["line"]) if request.GET.get("line") else None
    except ValueError:
        line = None
    answers = selectors.answers_citing_version(viewer=request.user, version=version, line=line)
    page = Paginator(answers, 50).get_page(request.GET.get("page"))
    return render(request, "review/version_citations.html", {
        "version": version, "document": version.document, "line": line, "page": page,
        "query": f"line={line}" if line else "",
    })
