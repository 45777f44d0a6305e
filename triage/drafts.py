"""Drafts: what a reviewer typed on an answer's page and has not sent (a claim's note, the decision's reason, an
edit), saved as they type and given back when they return — on this tab, another tab or another device.

A draft is settled by what it was typed for: the reason and the edit by a decision on the answer (or its leaving
the queue), a claim's note by the claim's mark. A settled draft is never shown again and is deleted on the
reviewer's next save, so no decision path has to know about drafts."""

from __future__ import annotations

import re

from django.db.models import Max
from django.utils.translation import gettext as _

from console.input_text import text_problem
from review.models import Answer, AnswerStatus
from triage.models import Draft

DRAFT_MAX_CHARS = 20_000
DRAFT_FIELD = re.compile(r"reason|edit|note-\d{1,12}")


class DraftInvalid(ValueError):
    """A draft that cannot be kept: the message says why."""


def _settled(*, answer: Answer, drafts: list[Draft]) -> set[int]:
    """The ids of drafts overtaken by what they were for."""
    if answer.status != AnswerStatus.PENDING_REVIEW:
        return {draft.pk for draft in drafts}
    decided_at = answer.decisions.aggregate(last=Max("created_at"))["last"]
    marked = dict(answer.claims.filter(reviewed_at__isnull=False).values_list("pk", "reviewed_at"))
    settled = set()
    for draft in drafts:
        if draft.field.startswith("note-"):
            claim_marked = marked.get(int(draft.field.removeprefix("note-")))
            if claim_marked is not None and claim_marked >= draft.updated_at:
                settled.add(draft.pk)
        elif decided_at is not None and decided_at >= draft.updated_at:
            settled.add(draft.pk)
    return settled


def drafts_for(*, answer: Answer, author) -> dict[str, str]:
    """The reviewer's unsettled drafts on the answer: {field: text}."""
    drafts = list(Draft.objects.filter(answer=answer, author=author))
    settled = _settled(answer=answer, drafts=drafts)
    return {draft.field: draft.text for draft in drafts if draft.pk not in settled}


def draft_save(*, answer: Answer, author, field: str, text: str) -> Draft | None:
    """Keep what is in the box now; an empty box keeps nothing. Removes the reviewer's settled drafts on the answer."""
    if not DRAFT_FIELD.fullmatch(field):
        raise DraftInvalid(_("No such text box."))
    if len(text) > DRAFT_MAX_CHARS:
        raise DraftInvalid(_("A draft is at most %(limit)s characters.") % {"limit": DRAFT_MAX_CHARS})
    if problem := text_problem(text):
        raise DraftInvalid(_("The draft %(problem)s.") % {"problem": problem})
    drafts = list(Draft.objects.filter(answer=answer, author=author))
    stale = _settled(answer=answer, drafts=drafts)
    Draft.objects.filter(pk__in=stale).delete()
    if not text.strip():
        Draft.objects.filter(answer=answer, author=author, field=field).delete()
        return None
    draft, _created = Draft.objects.update_or_create(answer=answer, author=author, field=field,
                                                     defaults={"text": text})
    return draft
