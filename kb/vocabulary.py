"""The vocabulary: synonyms learned from reviews and kept by curators (README, "Vocabulary").

A reviewer who confirms a claim the checker held because the evidence words one of its words otherwise ("cab"
where the source says "taxi") shows a pair that may mean the same: review records it here as a candidate, with the
claim and quote as its example, once per confirmed claim. Curators accept or dismiss candidates, add pairs of their
own and remove accepted ones; KB_SYNONYM_AUTO_ACCEPT (0: off) accepts a candidate by itself once that many
confirmations by at least two reviewers stand behind it. Accepted pairs are what checking.vocabulary reads (the
source registered in kb/apps.py), in every process at its next check. Each decision is audited.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.contrib.postgres.aggregates import ArrayAgg
from django.db import transaction
from django.db.models import Count, Max, Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from checking.languages import LANGUAGE_CODES
from checking.vocabulary import VocabularyPair, VocabularySource, phrase_stems
from console.audit import audit_record
from console.input_text import text_problem
from console.models import SecurityLevel, User
from kb.models import SYNONYM_MAX_CHARS, Synonym, SynonymConfirmation

MAX_PHRASE_WORDS = 4  # a side longer than this is a sentence, not a name for one thing
EXAMPLES_SHOWN = 3
_AUTO_ACCEPTED_BY = "vocabulary auto-accept"  # the audit row's actor: no person accepted it


class VocabularyError(ValueError):
    """A pair or a change the vocabulary refuses, in words for the curator."""


def pair_key(*, words: str, other_words: str) -> str:
    """One pair, whichever way round and however inflected: both sides' stems, sides in order."""
    return " | ".join(sorted(" ".join(phrase_stems(side)) for side in (words, other_words)))


def _side_problem(words: str) -> str | None:
    if not words:
        return _("Write a word or a phrase.")
    if problem := text_problem(words):
        return _("The words %(problem)s.") % {"problem": problem}
    if len(words) > SYNONYM_MAX_CHARS:
        return _("Write at most %(count)s characters.") % {"count": SYNONYM_MAX_CHARS}
    stems = phrase_stems(words)
    if not stems:
        return _("“%(words)s” has no word the checker reads (only small words such as “the”).") % {"words": words}
    if len(stems) > MAX_PHRASE_WORDS:
        return _("Write at most %(count)s words: a pair names one thing.") % {"count": MAX_PHRASE_WORDS}
    return None


def synonym_pair_problems(*, language: str, words: str, other_words: str) -> dict[str, str]:
    """What is wrong with a pair a curator wrote, by field; empty when it can be added."""
    problems = {field: problem for field, side in (("words", words), ("other_words", other_words))
                if (problem := _side_problem(side))}
    if language not in LANGUAGE_CODES:
        problems["language"] = _("Choose a language.")
    if not problems and set(phrase_stems(words)) == set(phrase_stems(other_words)):
        problems["other_words"] = _("Both sides are the same words to the checker already.")
    return problems


def _decide(synonym: Synonym, *, state: str, verb: str, curator: User | None, note: str = "") -> Synonym:
    before = synonym.state
    synonym.state, synonym.decided_by, synonym.decided_at = state, curator, timezone.now()
    synonym.save(update_fields=["state", "decided_by", "decided_at", "updated_at"])
    audit_record(verb=verb, obj=synonym, actor=curator, actor_label="" if curator else _AUTO_ACCEPTED_BY,
                 before={"state": before}, after={"state": state}, note=note)
    return synonym


def _locked(synonym: Synonym) -> Synonym:
    return Synonym.objects.select_for_update().get(pk=synonym.pk)


@transaction.atomic
def synonym_accept(*, synonym: Synonym, curator: User) -> Synonym:
    """Accept a candidate (or a dismissed pair): the checker and the Ask gate credit it from their next check."""
    synonym = _locked(synonym)
    if synonym.state == Synonym.State.ACCEPTED:
        return synonym  # a second click changes nothing
    return _decide(synonym, state=Synonym.State.ACCEPTED, verb="synonym.accept", curator=curator)


@transaction.atomic
def synonym_dismiss(*, synonym: Synonym, curator: User) -> Synonym:
    """Not the same meaning: the candidate is no longer suggested, however often it is confirmed."""
    synonym = _locked(synonym)
    if synonym.state == Synonym.State.DISMISSED:
        return synonym
    if synonym.state == Synonym.State.ACCEPTED:
        raise VocabularyError(_("“%(pair)s” is accepted: remove it instead.") % {"pair": synonym})
    return _decide(synonym, state=Synonym.State.DISMISSED, verb="synonym.dismiss", curator=curator)


@transaction.atomic
def synonym_remove(*, synonym: Synonym, curator: User) -> Synonym:
    """Stop crediting an accepted pair; it is kept as dismissed, so reviews do not suggest it again."""
    synonym = _locked(synonym)
    if synonym.state != Synonym.State.ACCEPTED:
        raise VocabularyError(_("“%(pair)s” is not accepted (any more).") % {"pair": synonym})
    return _decide(synonym, state=Synonym.State.DISMISSED, verb="synonym.remove", curator=curator)


@transaction.atomic
def synonym_add(*, language: str, words: str, other_words: str, curator: User) -> Synonym:
    """A pair a curator writes, accepted at once; a pair already known (a candidate, a dismissed or removed one) is
    accepted as it stands, with its examples."""
    words, other_words = " ".join(words.split()), " ".join(other_words.split())
    if problems := synonym_pair_problems(language=language, words=words, other_words=other_words):
        raise VocabularyError(" ".join(problems.values()))
    synonym, created = Synonym.objects.select_for_update().get_or_create(
        language=language, key=pair_key(words=words, other_words=other_words),
        defaults={"words": words, "other_words": other_words, "state": Synonym.State.ACCEPTED,
                  "source": Synonym.Source.CURATOR, "decided_by": curator, "decided_at": timezone.now()})
    if created:
        audit_record(verb="synonym.add", obj=synonym, actor=curator, after={"state": synonym.state})
        return synonym
    if synonym.state == Synonym.State.ACCEPTED:
        raise VocabularyError(_("“%(pair)s” is accepted already.") % {"pair": synonym})
    return _decide(synonym, state=Synonym.State.ACCEPTED, verb="synonym.add", curator=curator)


def _higher(a: str, b: str) -> str:
    return max(a, b, key=SecurityLevel.rank)


@transaction.atomic
def synonym_candidates_record(
    *, language: str, pairs: Iterable[tuple[str, str]], reviewer: User, answer_id: int, claim_id: int,
    claim_text: str, evidence_text: str, security_level: str,
) -> list[Synonym]:
    """The (claim words, evidence words) pairs one confirmed claim showed, each counted once for the claim. A pair
    whose sides are the same words to the checker, or too long to be a name, is no candidate."""
    recorded = []
    for words, other_words in pairs:
        words, other_words = " ".join(words.split()), " ".join(other_words.split())
        if synonym_pair_problems(language=language, words=words, other_words=other_words):
            continue
        synonym, _created = Synonym.objects.get_or_create(
            language=language, key=pair_key(words=words, other_words=other_words),
            defaults={"words": words, "other_words": other_words, "source": Synonym.Source.REVIEW,
                      "security_level": security_level})
        synonym = _locked(synonym)
        _confirmation, added = SynonymConfirmation.objects.get_or_create(
            synonym=synonym, claim_id=claim_id,
            defaults={"reviewer": reviewer, "answer_id": answer_id, "claim_text": claim_text,
                      "evidence_text": evidence_text, "security_level": security_level})
        if not added:
            continue
        if (level := _higher(synonym.security_level, security_level)) != synonym.security_level:
            synonym.security_level = level
            synonym.save(update_fields=["security_level", "updated_at"])
        _auto_accept(synonym)
        recorded.append(synonym)
    return recorded


def _auto_accept(synonym: Synonym) -> None:
    """KB_SYNONYM_AUTO_ACCEPT confirmations by two reviewers or more accept a candidate nobody decided on."""
    needed = settings.KB_SYNONYM_AUTO_ACCEPT
    if not needed or synonym.state != Synonym.State.CANDIDATE:
        return
    counts = synonym.confirmations.aggregate(confirmations=Count("pk"), reviewers=Count("reviewer", distinct=True))
    if counts["confirmations"] >= needed and counts["reviewers"] >= 2:
        _decide(synonym, state=Synonym.State.ACCEPTED, verb="synonym.auto_accept", curator=None,
                note=_("%(confirmations)s confirmations by %(reviewers)s reviewers") % counts)


def synonym_confirmations_withdraw(*, answer_id: int) -> int:
    """An undone decision takes back what its confirmed claims showed; a pair it let be accepted stays so."""
    deleted, _by_model = SynonymConfirmation.objects.filter(answer_id=answer_id).delete()
    return deleted


def synonyms_visible_to(user: User) -> QuerySet[Synonym]:
    """Pairs learned only from texts above the user's clearance stay out of sight, as those texts do."""
    return Synonym.objects.filter(security_level__in=SecurityLevel.up_to(user.clearance))


def vocabulary_lists(*, user: User, language: str = "") -> tuple[QuerySet[Synonym], QuerySet[Synonym]]:
    """(candidates, most confirmed first; accepted pairs), each with its count, reviewers and the examples the
    user may read (newest first): three queries a list."""
    levels = SecurityLevel.up_to(user.clearance)
    synonyms = synonyms_visible_to(user).filter(language=language) if language else synonyms_visible_to(user)
    examples = SynonymConfirmation.objects.filter(security_level__in=levels).order_by("-created_at", "-pk")
    listed = synonyms.annotate(
        count=Count("confirmations", distinct=True),
        reviewer_names=ArrayAgg("confirmations__reviewer__username", distinct=True, default=[]),
    ).prefetch_related(Prefetch("confirmations", queryset=examples[:EXAMPLES_SHOWN], to_attr="examples"))
    candidates = listed.filter(state=Synonym.State.CANDIDATE).order_by("-count", "-updated_at", "pk")
    accepted = listed.filter(state=Synonym.State.ACCEPTED).select_related("decided_by").order_by("language", "words")
    return candidates, accepted


def _accepted_version() -> tuple[int, object]:
    """Changes whenever an accepted pair is added, removed or accepted again: their count and latest change."""
    found = Synonym.objects.filter(state=Synonym.State.ACCEPTED).aggregate(count=Count("pk"), latest=Max("updated_at"))
    return found["count"], found["latest"]


def _accepted_pairs() -> list[VocabularyPair]:
    return [VocabularyPair(words=words, other_words=other) for words, other in
            Synonym.objects.filter(state=Synonym.State.ACCEPTED).values_list("words", "other_words")]


VOCABULARY_SOURCE = VocabularySource(version=_accepted_version, pairs=_accepted_pairs)
