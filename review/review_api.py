"""The review API for people (README "Review API"): the queue, an answer, its lease, a decision with its claim
marks, and undoing a reject, under the pages' rules — roles, clearance, leases, notes on overrides, the undo
window. Every route authenticates a person's token (review/people_bearer.py) and needs the reviewer role.

Comments and assignment are triage's (triage/api.py); both routers are mounted in config/api.py."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.exceptions import PermissionDenied
from django.core.paginator import EmptyPage, Paginator
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, QueryDict
from ninja import Query, Router, Status
from ninja.errors import HttpError

from console.api import errors_documented
from review import leases, marked_decisions, selectors, undo
from review.forms import QueueFilterForm
from review.models import Answer, AnswerStatus, Claim, Decision, Evidence
from review.people_bearer import reviewer_bearer
from review.review_api_hooks import answer_comment_count, saved_view_query
from review.review_api_schemas import (
    DecidedOut, DecisionIn, LeaseOut, QueuePageOut, QueuePageQuery, QueueQuery, ReviewAnswerOut,
    queue_answer_to_dict, review_answer_to_dict,
)
from review.services import DecisionInvalid, error_kind_problem
from review.signals import answer_viewed

router = Router(tags=["review"], auth=reviewer_bearer)

# 411 and 413 come from RequestBodyLimitMiddleware before a route runs.
READ_ERRORS = errors_documented(400, 401, 403, 404, 429)
WRITE_ERRORS = errors_documented(400, 401, 403, 404, 409, 411, 413, 429)


@contextmanager
def refusals_as_http() -> Iterator[None]:
    """The pages' refusals in the API's words: a lost race or someone else's lease 409, a rule 400, a role 403."""
    try:
        yield
    except (leases.LeaseHeld, leases.DecisionConflict) as exc:
        raise HttpError(409, str(exc)) from None
    except DecisionInvalid as exc:
        raise HttpError(400, str(exc)) from None
    except PermissionDenied as exc:
        raise HttpError(403, str(exc) or "not allowed") from None


def _claims_prefetch() -> Prefetch:
    """Claims with what the API shows of them, in two queries whatever the number of answers (no N+1)."""
    evidence = Evidence.objects.order_by("rank").select_related("chunk__version__document")
    return Prefetch("claims", queryset=Claim.objects.order_by("ordinal").select_related("reviewed_by")
                    .prefetch_related(Prefetch("evidence", queryset=evidence)))


def _visible(user) -> QuerySet[Answer]:
    return selectors.answers_visible_to(user).select_related("client", "lease_holder", "decided_by",
                                                              "first_approved_by")


def _found(answers: QuerySet[Answer], answer_id: int) -> Answer:
    answer = answers.filter(pk=answer_id).first()
    if answer is None:  # above the user's clearance or not there at all: the same words
        raise Http404(f"no answer {answer_id}")
    return answer


def visible_answer(*, user, answer_id: int) -> Answer:
    """The answer if it is within the user's clearance; 404 otherwise."""
    return _found(_visible(user), answer_id)


def reviewable_answer(*, user, answer_id: int) -> Answer:
    """visible_answer with everything the API shows of it: claims, evidence, decisions, assignee."""
    decisions = Prefetch("decisions", queryset=Decision.objects.select_related("reviewer"))
    return _found(_visible(user).select_related("assignment__assignee").prefetch_related(_claims_prefetch(),
                                                                                          decisions), answer_id)


def _queue_filters(user, query: QueueQuery) -> dict:
    """The filters as review.selectors.review_queue takes them, cleaned by the queue page's own form; a saved view
    gives the filters it keeps, and a filter given beside it wins."""
    data = QueryDict(mutable=True)
    if query.view is not None:
        saved = saved_view_query(user=user, view_id=query.view)
        if saved is None:
            raise Http404(f"no saved view {query.view} (or it is not shared with you)")
        data = QueryDict(saved, mutable=True)
        data.pop("cols", None)  # the page's columns: the API has no columns
    for key, value in query.model_dump(exclude={"view", "page", "page_size"}, exclude_none=True).items():
        if value is not False:
            data[key] = str(value)
    form = QueueFilterForm(data, user=user)
    if not form.is_valid():
        raise HttpError(400, "; ".join(f"{field}: {' '.join(errors)}" for field, errors in form.errors.items()))
    return form.selector_filters()


@router.get("/review/queue", response={200: QueuePageOut, **READ_ERRORS}, summary="The review queue, as the page")
def review_queue(request: HttpRequest, query: Query[QueuePageQuery]):
    """The queue page's list with its filters, sort and saved views, one page at a time, each answer with its
    claims and their evidence."""
    answers = selectors.review_queue(user=request.auth, **_queue_filters(request.auth, query))
    paginator = Paginator(answers.prefetch_related(_claims_prefetch()), query.page_size)
    try:
        page = paginator.page(query.page)
    except EmptyPage:
        raise Http404(f"no page {query.page}: the queue has {paginator.num_pages}") from None
    return {"count": paginator.count, "page": page.number, "pages": paginator.num_pages,
            "page_size": query.page_size, "results": [queue_answer_to_dict(answer) for answer in page]}


def _answer_out(answer: Answer) -> dict:
    return review_answer_to_dict(answer, comments=answer_comment_count(answer=answer))


@router.post("/review/next", response={200: ReviewAnswerOut, **WRITE_ERRORS},
             summary="Take the next answer: lease the first one the queue's filters hand out")
def review_next(request: HttpRequest, query: Query[QueueQuery]):
    """As the page's Review next: your assigned answers first, then unassigned ones, never one assigned to someone
    else or leased by them; 404 when nothing is waiting."""
    reviewer = request.auth
    filters = _queue_filters(reviewer, query)
    candidates = selectors.review_queue(user=reviewer, **filters) if filters else selectors.answers_visible_to(reviewer)
    order = selectors.QUEUE_SORTS.get(filters.get("sort", ""), leases.QUEUE_ORDER)
    answer = leases.answer_lease_next(reviewer=reviewer, queryset=candidates, order=order)
    if answer is None:
        raise Http404("nothing is waiting for review under these filters")
    return _answer_out(reviewable_answer(user=reviewer, answer_id=answer.pk))


@router.get("/review/answers/{answer_id}", response={200: ReviewAnswerOut, **READ_ERRORS},
            summary="An answer in review: claims, evidence, decisions, comments")
def review_answer(request: HttpRequest, answer_id: int):
    answer = reviewable_answer(user=request.auth, answer_id=answer_id)
    answer_viewed.send(sender=Answer, answer=answer, viewer=request.auth)  # as opening its page
    return _answer_out(answer)


@router.post("/review/answers/{answer_id}/lease", response={200: LeaseOut, **WRITE_ERRORS},
             summary="Take (or renew) the lease on an answer")
def lease_take(request: HttpRequest, answer_id: int):
    """409 naming the holder when another reviewer holds it; 409 too when the answer was decided."""
    reviewer = request.auth
    answer = visible_answer(user=reviewer, answer_id=answer_id)
    with refusals_as_http():
        answer = leases.answer_lease_take(answer=answer, reviewer=reviewer)
        if answer.lease_holder_id != reviewer.pk:  # not leased: decided, or escalated past the reviewer
            leases.answer_require_lease(answer, reviewer)
    return {"id": answer.pk, "lease_expires_at": answer.lease_expires_at}


def _lease_released(request: HttpRequest, answer_id: int) -> Status:
    reviewer = request.auth
    answer = visible_answer(user=reviewer, answer_id=answer_id)
    if answer.lease_is_held_by_other(reviewer):
        raise HttpError(409, f"{answer.lease_holder} holds the lease on this answer")
    leases.answer_lease_release(answer=answer, reviewer=reviewer)
    return Status(204, None)


@router.delete("/review/answers/{answer_id}/lease", response={204: None, **WRITE_ERRORS},
               summary="Release your lease on an answer")
def lease_release(request: HttpRequest, answer_id: int):
    """Back to the queue for anyone; 409 naming the holder when the lease is someone else's."""
    return _lease_released(request, answer_id)


@router.post("/review/answers/{answer_id}/lease/release", response={204: None, **WRITE_ERRORS},
             summary="Release your lease on an answer (for tools that cannot send DELETE)")
def lease_release_by_post(request: HttpRequest, answer_id: int):
    return _lease_released(request, answer_id)


@router.post("/review/answers/{answer_id}/decision", response={200: DecidedOut, **WRITE_ERRORS,
                                                                **errors_documented(503)},
             summary="Mark claims and decide: approve, reject, edit or escalate")
def answer_decision(request: HttpRequest, answer_id: int, body: DecisionIn):
    """The claim marks first, then the decision, in one transaction: a refused decision leaves no mark. An edit is
    re-checked on a worker before it is sent (503 when none answers)."""
    reviewer = request.auth
    answer = reviewable_answer(user=reviewer, answer_id=answer_id)
    marks = _claim_marks(answer, body)
    with refusals_as_http():
        edited_check = (marked_decisions.answer_edit_recheck(answer=answer, reviewer=reviewer, marks=marks,
                                                             text=body.text, reason=body.reason)
                        if body.action == Decision.Action.EDIT else None)
        answer = marked_decisions.answer_decide_with_marks(
            answer=answer, reviewer=reviewer, marks=marks, action=body.action, reason=body.reason,
            edited_text=body.text if body.action == Decision.Action.EDIT else "", edited_check=edited_check)
    return _decided(answer)


def _claim_marks(answer: Answer, body: DecisionIn) -> list[marked_decisions.ClaimMark]:
    claims = {claim.ordinal: claim for claim in answer.claims.all() if not claim.from_edit}
    indexes = [mark.index for mark in body.claims]
    if unknown := sorted({i for i in indexes if i not in claims}):
        has = f"its claims are 0 to {len(claims) - 1}" if claims else "it has no claims"
        raise HttpError(400, f"claims: answer {answer.pk} has no claim with index {', '.join(map(str, unknown))} "
                             f"({has})")
    if len(set(indexes)) != len(indexes):
        raise HttpError(400, "claims: each claim may be marked once per decision")
    for position, mark in enumerate(body.claims):
        if problem := error_kind_problem(mark.kind or ""):
            raise HttpError(400, f"claims.{position}.kind: {problem}")
        if mark.kind and mark.state != "rejected":
            raise HttpError(400, f"claims.{position}.kind: only a claim marked rejected has a kind of error")
    return [marked_decisions.ClaimMark(claim=claims[mark.index], state=mark.state, note=mark.note.strip(),
                                       kind=mark.kind or "") for mark in body.claims]


def _decided(answer: Answer) -> dict:
    rejected = answer.status == AnswerStatus.REJECTED
    return {"id": answer.pk, "status": answer.status, "escalated": answer.escalated,
            "decided_by": answer.decided_by.username if answer.decided_by_id else None,
            "decided_at": answer.decided_at, "released_text": answer.released_text if answer.released_at else None,
            "undo_until": undo.undo_window_ends(answer) if rejected else None,
            "needs_second_reviewer": answer.needs_second_reviewer}


@router.post("/review/answers/{answer_id}/undo", response={200: LeaseOut, **WRITE_ERRORS},
             summary="Undo your reject, within the undo window")
def answer_reject_undo(request: HttpRequest, answer_id: int):
    """The answer comes back to review, leased to you; 409 once the window has passed (REVIEW_UNDO_SECONDS)."""
    reviewer = request.auth
    answer = visible_answer(user=reviewer, answer_id=answer_id)
    with refusals_as_http():
        answer = undo.answer_reject_undo(answer=answer, reviewer=reviewer)
    return {"id": answer.pk, "lease_expires_at": answer.lease_expires_at}
