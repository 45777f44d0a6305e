"""Comments and assignment on the review API (README "Review API"): triage's part of it, mounted beside review's
routes in config/api.py, with the same people's tokens, the reviewer role and the answer pages' rules (mentions
notify only reviewers cleared for the answer; only such a reviewer can be assigned)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Literal

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status
from ninja.errors import HttpError
from pydantic import ConfigDict, StrictInt

from console.api import Text, errors_documented
from review.people_bearer import reviewer_bearer
from review.review_api import visible_answer
from triage import selectors, services

router = Router(tags=["review"], auth=reviewer_bearer)

READ_ERRORS = errors_documented(400, 401, 403, 404, 429)
WRITE_ERRORS = errors_documented(400, 401, 403, 404, 409, 411, 413, 429)


class CommentOut(Schema):
    id: int
    author: str
    text: str
    mentioned: list[str]  # the reviewers it notified
    created_at: datetime


class CommentIn(Schema):
    model_config = ConfigDict(extra="forbid")

    text: Text = Field(min_length=1, max_length=services.COMMENT_MAX_CHARS,
                       description="may mention @username: each reviewer cleared for the answer is notified")


class CommentAddedOut(CommentOut):
    not_notified: list[str]  # names mentioned that are no reviewer cleared for the answer


class AssignmentIn(Schema):
    model_config = ConfigDict(extra="forbid")

    assignee: Literal["me"] | StrictInt | None = Field(description='"me", a reviewer\'s user id, or null to unassign')


class AssignmentOut(Schema):
    id: int
    assignee: str | None


def _comment_to_dict(comment) -> dict:
    return {"id": comment.pk, "author": comment.author.username, "text": comment.text,
            "mentioned": [person.username for person in comment.mentioned.all()], "created_at": comment.created_at}


@router.get("/review/answers/{answer_id}/comments", response={200: list[CommentOut], **READ_ERRORS},
            summary="An answer's comments, oldest first")
def comment_list(request: HttpRequest, answer_id: int):
    answer = visible_answer(user=request.auth, answer_id=answer_id)
    return [_comment_to_dict(comment) for comment in selectors.comments_for(answer=answer)]


@router.post("/review/answers/{answer_id}/comments", response={201: CommentAddedOut, **WRITE_ERRORS},
             summary="Comment on an answer; mentions notify as on the page")
def comment_add(request: HttpRequest, answer_id: int, body: CommentIn):
    answer = visible_answer(user=request.auth, answer_id=answer_id)
    with _triage_refusals():
        comment, not_notified = services.comment_add(answer=answer, author=request.auth, text=body.text)
    return Status(201, {**_comment_to_dict(comment), "not_notified": not_notified})


@router.post("/review/answers/{answer_id}/assignment", response={200: AssignmentOut, **WRITE_ERRORS},
             summary="Assign an answer to yourself or a cleared reviewer, or unassign it")
def answer_assign(request: HttpRequest, answer_id: int, body: AssignmentIn):
    """Assignment says whose an answer is; the lease still decides who may act on it."""
    answer = visible_answer(user=request.auth, answer_id=answer_id)
    assignee = _assignee(answer, body.assignee, me=request.auth)
    with _triage_refusals():
        assignment = services.answer_assign(answer=answer, assignee=assignee, assigned_by=request.auth)
    return {"id": answer.pk, "assignee": assignment.assignee.username if assignment else None}


def _assignee(answer, choice: int | str | None, *, me):
    if choice is None:
        return None
    if choice == "me":
        return me
    assignee = selectors.reviewers_for_answer(answer=answer).filter(pk=choice).first()
    if assignee is None:
        raise HttpError(400, f"assignee: user {choice} is no reviewer cleared for this answer")
    return assignee


@contextmanager
def _triage_refusals() -> Iterator[None]:
    try:
        yield
    except services.TriageInvalid as exc:
        raise HttpError(400, str(exc)) from None
