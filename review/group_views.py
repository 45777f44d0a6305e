"""Groups of pending answers that state the same facts (review/groups.py): their page, and one decision for
every member."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from console.roles import role_required
from review import groups, selectors, services
from review.models import ClaimReview, ErrorKind
from review.views import REVIEWERS


def _group_or_404(request: HttpRequest, key: str):
    group = groups.answer_group_get(pending=selectors.answers_visible_to(request.user), key=key)
    if group is None:
        raise Http404(_("No such group: its answers were decided, or no longer state the same facts."))
    return group


@require_GET
@role_required(*REVIEWERS)
def answer_group(request: HttpRequest, key: str) -> HttpResponse:
    """A group's distinct claims, each marked once, and one decision for every member."""
    group = _group_or_404(request, key)
    members = list(selectors.answers_visible_to(request.user).filter(pk__in=group.answer_ids)
                   .select_related("client", "lease_holder").order_by("pk"))
    # The member checked last shows the claims: its evidence is the knowledge base as it stands now.
    shown = max(members, key=lambda member: (member.scored_at is not None, member.scored_at, member.pk))
    claims = list(selectors.claims_with_evidence().filter(answer=shown, from_edit=False))
    return render(request, "review/answer_group.html", {
        "group": group, "members": members, "claims": claims, "now": timezone.now(), "error_kinds": ErrorKind.choices})


@require_POST
@role_required(*REVIEWERS)
def answer_group_decide(request: HttpRequest, key: str) -> HttpResponse:
    group = _group_or_404(request, key)
    marks = {}
    for fact_key in request.POST.getlist("fact_key"):
        state = request.POST.get(f"state-{fact_key}", "")
        kind = request.POST.get(f"kind-{fact_key}", "") if state == ClaimReview.REJECTED else ""
        if problem := services.error_kind_problem(kind):
            messages.error(request, problem)
            return redirect("review:answer_group", key=key)
        if state in (ClaimReview.CONFIRMED, ClaimReview.REJECTED):
            marks[fact_key] = groups.ClaimMark(state=state, note=request.POST.get(f"note-{fact_key}", "").strip(),
                                               kind=kind)
    try:
        outcome = groups.answer_group_decide(group=group, reviewer=request.user, marks=marks,
                                             action=request.POST.get("action", ""),
                                             reason=request.POST.get("reason", "").strip())
    except services.DecisionInvalid as exc:
        messages.error(request, str(exc))
        return redirect("review:answer_group", key=key)
    if outcome.decided:
        messages.success(request, ngettext("Decided %(count)d answer of the group.",
                                           "Decided %(count)d answers of the group.", len(outcome.decided))
                         % {"count": len(outcome.decided)})
    for answer, why in outcome.left:
        messages.warning(request, _("Answer %(number)s left as it was: %(why)s") % {"number": answer.pk, "why": why})
    return redirect("review:queue")
