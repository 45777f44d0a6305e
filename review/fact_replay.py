"""`evaluate --reviewed-facts FILE`: does a reviewer's approval count for the same facts in other words, and never for
a changed one?

Each group of the file (eval/README.md) is an answer and its variants: paraphrases stating the same facts, and
answers with one fact changed (a number, unit, date, name, negation or direction). The answer is sent, held for a
reviewer (as if no threshold released it) and approved with every claim confirmed; then each variant is sent and
scored as an API answer would be. Reported per language: how many paraphrases went out, how many on the reviewed
facts, and how many changed variants went out — with and without reviewed facts (the checker alone), so the
memory's own effect shows. Everything runs in one transaction that is rolled back: the deployment keeps no answer,
decision or fact of it.
"""

from __future__ import annotations

import json
import secrets
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth.models import Group
from django.db import transaction
from django.test.utils import override_settings

from console import roles
from console.models import SecurityLevel, User
from console.work_claims import work_claim_take
from review import services
from review.leases import answer_lease_take
from review.models import Answer, AnswerStatus, ApiClient, ClaimReview, Risk
from review.pipeline import answer_check


class ReplayError(ValueError):
    """The file cannot be replayed as it is."""


@dataclass
class ReplayFigures:
    groups: int = 0
    approved: int = 0  # first answers a reviewer could approve
    repeats_released: int = 0  # the approved answer sent again as it was
    paraphrases: int = 0
    paraphrases_released: int = 0
    paraphrases_by_review: int = 0  # every claim supported by a reviewed fact
    paraphrases_released_alone: int = 0  # the checker alone, no reviewed facts
    changed: int = 0
    changed_released: int = 0
    changed_released_alone: int = 0
    changed_by_review: Counter = field(default_factory=Counter)  # kind -> variants every claim of which matched
    released_changed: list[str] = field(default_factory=list)  # "id: text" of each changed variant sent


def groups_load(path: Path) -> list[dict]:
    try:
        groups = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError) as exc:
        raise ReplayError(f"{path}: {exc}") from None
    for group in groups:
        if not {"id", "answer", "paraphrases", "changed"} <= set(group):
            raise ReplayError(f"{path}: group {group.get('id', '?')} needs id, answer, paraphrases and changed")
    return groups


def _scored(*, client: ApiClient, question: str, text: str) -> Answer:
    answer, _ = services.answer_create(client=client, question=question, text=text)
    work_claim_take(kind=services.ANSWER_SCORING, pk=answer.pk)
    return services.answer_score_run(answer_id=answer.pk)


def _approve(answer: Answer, reviewer: User) -> bool:
    """Confirm every claim (with a note where the checker disagrees: the reviewer knows better) and approve."""
    if answer.status != AnswerStatus.PENDING_REVIEW:
        return False
    answer = answer_lease_take(answer=answer, reviewer=reviewer)
    for claim in answer.claims.filter(from_edit=False):
        services.claim_review(claim=claim, reviewer=reviewer, state=ClaimReview.CONFIRMED,
                              note="the document says so (replay)" if claim.correct_needs_note else "")
    for claim in answer.claims.filter(from_edit=False):
        for pair in claim.conflict_pairs:
            if not pair.right:
                return False  # two sources disagree: a person must say which; the replay does not guess
    services.answer_decide(answer=answer, reviewer=reviewer, action="approve")
    return True


def _all_by_review(answer: Answer) -> bool:
    """Every claim supported by a fact a reviewer confirmed: what the memory alone would let out."""
    claims = list(answer.claims.select_related("reviewed_fact"))
    return bool(claims) and all(c.reviewed_fact is not None and c.reviewed_fact.outcome == "confirmed" for c in claims)


def _released_alone(*, client: ApiClient, question: str, text: str) -> bool:
    report = answer_check(question=question, answer_text=text, clearance=client.clearance, reviewed_facts=False)
    return report.risk == Risk.LOW


def _replay_group(group: dict, *, client: ApiClient, reviewer: User, figures: ReplayFigures) -> None:
    question = group.get("question", "")
    figures.groups += 1
    # The first answer waits for the reviewer, whatever it scores (a released one as an audit sample): the replay
    # is about what the approval does.
    with override_settings(REVIEW_AUDIT_SAMPLE_RATE=1.0):
        first = _scored(client=client, question=question, text=group["answer"])
    if not _approve(first, reviewer):
        return
    figures.approved += 1
    repeat = _scored(client=client, question=question, text=group["answer"])
    figures.repeats_released += repeat.status == AnswerStatus.RELEASED
    for text in group["paraphrases"]:
        answer = _scored(client=client, question=question, text=text)
        figures.paraphrases += 1
        figures.paraphrases_released += answer.status == AnswerStatus.RELEASED
        figures.paraphrases_by_review += _all_by_review(answer)
        figures.paraphrases_released_alone += _released_alone(client=client, question=question, text=text)
    for variant in group["changed"]:
        answer = _scored(client=client, question=question, text=variant["answer"])
        figures.changed += 1
        if answer.status == AnswerStatus.RELEASED:
            figures.changed_released += 1
            figures.released_changed.append(f"{group['id']} [{variant.get('changed', '?')}]: {variant['answer']}")
        figures.changed_released_alone += _released_alone(client=client, question=question, text=variant["answer"])
        if _all_by_review(answer):
            figures.changed_by_review[variant.get("changed", "?")] += 1


def reviewed_facts_replay(*, groups: list[dict], clearance: str = SecurityLevel.RESTRICTED) -> dict[str, ReplayFigures]:
    """The figures per language; nothing the replay sent or decided is kept."""
    by_language: dict[str, ReplayFigures] = defaultdict(ReplayFigures)
    with transaction.atomic():
        client = ApiClient.objects.create(name=f"replay-{secrets.token_hex(4)}", clearance=clearance,
                                          token_hash=ApiClient.hash_token(secrets.token_urlsafe(32)),
                                          token_prefix="-", is_active=False)
        reviewer = User.objects.create_user(username=f"replay-{secrets.token_hex(4)}", clearance=clearance)
        reviewer.groups.add(Group.objects.get_or_create(name=roles.REVIEWER)[0])
        for group in groups:
            _replay_group(group, client=client, reviewer=reviewer, figures=by_language[group.get("language", "en")])
        transaction.set_rollback(True)
    return dict(by_language)


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "-"


def replay_lines(by_language: dict[str, ReplayFigures]) -> list[str]:
    lines = []
    for language, f in sorted(by_language.items()):
        lines += [
            f"{language}: {f.groups} groups, {f.approved} first answers approved",
            f"  the approved answer sent again:    {_share(f.repeats_released, f.approved)} released",
            f"  paraphrases released:              {_share(f.paraphrases_released, f.paraphrases)}"
            f"   (checker alone {_share(f.paraphrases_released_alone, f.paraphrases)})",
            f"  paraphrases supported by review:   {_share(f.paraphrases_by_review, f.paraphrases)}",
            f"  changed variants released:         {_share(f.changed_released, f.changed)}"
            f"   (checker alone {_share(f.changed_released_alone, f.changed)})",
            f"  changed variants supported by review:      {sum(f.changed_by_review.values())}"
            + (f" ({', '.join(f'{k} {n}' for k, n in sorted(f.changed_by_review.items()))})"
               if f.changed_by_review else ""),
            *(f"    released: {line}" for line in f.released_changed),
        ]
    return lines
