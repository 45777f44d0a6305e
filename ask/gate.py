"""The evidence gate: may the question be answered from what retrieval found?

Retrieval scoring well is not evidence that the question can be answered ("Can the knowledge base be downloaded
publicly?" finds "the knowledge base is not public", which answers nothing about *downloading*). The gate keeps the
hits that qualify as evidence (cosine similarity at least ASK_GATE_MIN_SIMILARITY, or a full-text match when vector
search is unavailable) and asks whether they cover the question's key terms: its content words (entities, actions,
qualifiers), less stop-words, question words and light verbs. A term is covered by the same word family (the
checker's stemming, synonyms and related stems; the synonyms curators accepted, as the caller last refreshed them,
checking.vocabulary; for Chinese, the thesaurus's synonyms and, for people and things, the words of their small
class: 老婆 by 配偶) and, when ASK_GATE_TERM_SIMILARITY is above 0, by an evidence word whose embedding is that
close (indexed word vectors, review.pipeline's embedder): a synonym or an inflection the
stems miss ("biggest" / "larger", "mileage" / "mile").
Such a word must stand in a passage that covers the rest of the term's phrase, and is never a known opposite; only
terms of the languages the embedding model reads (ASK_GATE_TERM_SIMILARITY_LANGUAGES) are compared so. Fewer covered
than ASK_GATE_MIN_TERM_COVERAGE of the required terms: `insufficient_evidence`, with those missing, as the question wrote
them.

Each word is read by its language (TextLanguage's question hooks; Chinese: checking.languages.zh_questions). Chinese
is segmented: its question words, light verbs and the measure a question word asks for (多少天, 什么时候) are no key
terms; words that frame the question (the asker's time and person, a rate, a bound, a modal, a function word:
下个月, 每顿, 最多, 才能, 因为) and one-character verbs (开车, 交证明) are key terms that rank sentences but need not
be covered. Since Chinese writes a compound as one word, a term is also covered by its parts (住宿费 by 住宿 and
费用) and a passage's word brings its parts (出差 in 国际出差).

The question's dates, numbers and names are constraints (ask/constraints.py): their words rank sentences but are
not covered by word family or vectors; each must be written, as the checker reads it, by a passage that answers
(one covering most of the required key terms), or the question is refused naming it. A closed compound is covered by
its parts written apart (the language's found_by_parts: "healthcare" by "health care"), and two words side by side
by a passage's compound of them ("health care" by "healthcare").

Conflicts are the third outcome, decided on the composed answer by the checker itself (ask/services.py): two
effective sources stating different values about the same subject are what review.pipeline already detects.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field, replace

import numpy as np
from django.conf import settings
from django.utils.translation import gettext

from ask.constraints import Constraint, constraint_met, passage_facts, question_constraints
from checking.languages import detect_language, language_of_word
from checking.text import (
    ANTONYMS,
    LIGHT_STEMS,
    asks,
    ideographs,
    is_content,
    kindred_in,
    prefix_negates,
    synonym_in,
    tokenize,
)
from checking.windows import stem_found
from kb.embeddings import EmbeddingError, Role
from kb.search import SearchHit

logger = logging.getLogger(__name__)

@dataclass(frozen=True)
class KeyTerm:
    word: str  # as the question wrote it (lower-case)
    stem: str
    phrase: int = 0  # key terms written side by side ("chief executive officer") share a phrase number
    # A term that only frames the question (Chinese 下个月, 每顿, 最多, or a one-character verb beside longer words)
    # ranks the sentences that answer, but the gate does not ask a passage to write it.
    required: bool = True


@dataclass
class GateDecision:
    status: str  # "answered" (the evidence covers the question) or "insufficient_evidence"
    qualified: list[SearchHit]
    key_terms: list[KeyTerm]
    missing_terms: list[str]
    warnings: list[str] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    missing_constraints: list[str] = field(default_factory=list)  # as the question wrote them: "April 2023"

    @property
    def coverage(self) -> float:
        """The share of the required key terms and the constraints the evidence covers."""
        required = sum(term.required for term in self.key_terms) + len(self.constraints)
        if not required:
            return 0.0
        return 1 - len(self.missing) / required

    @property
    def missing(self) -> list[str]:
        """What the evidence lacks, as the question wrote it: key terms, then constraints."""
        return [*self.missing_terms, *self.missing_constraints]

    @property
    def reasons(self) -> list[str]:
        """Why the question is refused, a sentence per missing constraint, in the asker's language."""
        return [gettext("The sources do not mention %(constraint)s.") % {"constraint": constraint}
                for constraint in self.missing_constraints]


def key_terms(question: str) -> list[KeyTerm]:
    """The question's content words, one per word family, in the order asked; adjacent ones form a phrase. The
    language of each word says which part of it names what is asked (能休 is 休) and whether a passage must write
    it: a word that only frames the question (Chinese 下个月, 最多) sits in its phrase without counting, and a word
    the question speaks with (Chinese 开 of 开车) is required only where the question names nothing else."""
    terms: dict[str, KeyTerm] = {}
    phrase, previous_key, previous = 0, False, ""
    for token in tokenize(question, 0, len(question), table=False):
        key = is_content(token) and not asks(token.lower) and token.stem not in LIGHT_STEMS
        read = language_of_word(token.lower).question_term(token.lower, previous) if key else None
        key = read is not None
        previous = token.lower
        framing = key and not read.required
        if key and not framing and not previous_key:
            phrase += 1
        previous_key = previous_key if framing else key
        if key:
            whole = (read.start, read.end) == (0, len(token.lower))
            stem = token.stem if whole else token.lower[read.start:read.end]
            word = token.text[read.start:read.end].lower()  # as written: 員工, where its stem is 员工
            terms.setdefault(stem, KeyTerm(word=word, stem=stem, phrase=phrase, required=read.required))
    if any(term.required and not _spoken_light(term) for term in terms.values()):
        return [replace(term, required=False) if _spoken_light(term) else term for term in terms.values()]
    return list(terms.values())


def _spoken_light(term: KeyTerm) -> bool:
    return language_of_word(term.stem).spoken_light(term.stem)


def term_found(stem: str, words: Collection[str]) -> float:
    """How far a key term (its stem) is among a passage's words (stems): its word family, a word of its small class
    (Chinese, by the thesaurus: 回来 / 返回, and the more general word a policy writes, 老婆 / 配偶), or, in a language
    that writes compounds as one word, its parts (住宿费 where 住宿 is and a word with 费 in it). A passage's words
    bring their parts with them (evidence_words: 出差 is found in 国际出差)."""
    found = stem_found(stem, words) or float(_named(stem, words))
    if found:
        return found
    return float(language_of_word(stem).found_by_parts(stem, words, covers=lambda part: _named(part, words)))


def _named(stem: str, words: Collection[str]) -> bool:
    return stem in words or synonym_in(stem, words) or kindred_in(stem, words)


def qualified_hits(hits: list[SearchHit], *, min_similarity: float) -> list[SearchHit]:
    """Hits close enough to count as evidence. Without vectors (the embedding worker is down) every full-text
    match qualifies: the term rule alone then decides."""
    if hits and all(hit.similarity is None for hit in hits):
        return [hit for hit in hits if hit.fulltext_rank]
    return [hit for hit in hits if hit.similarity is not None and hit.similarity >= min_similarity]


def evidence_words(hits: list[SearchHit]) -> list[dict[str, str]]:
    """Per qualified passage (its text and heading path): stem -> a word of it."""
    passages = []
    for hit in hits:
        words: dict[str, str] = {}
        chunk = hit.chunk
        for text, table in ((chunk.text, True), (chunk.heading_path, False)):
            for token in tokenize(text, 0, len(text), table=table):
                if token.kind == "word":
                    words.setdefault(token.stem, token.lower)
                    for part in compound_parts(token.lower):
                        words.setdefault(part, part)
        passages.append(words)
    return passages


def compound_parts(word: str) -> tuple[str, ...]:
    """A word's parts of two characters or more, where its language writes compounds as one word (Chinese 国际出差:
    国际, 出差): what else it says."""
    return tuple(part for part in language_of_word(word).word_parts(word) if len(part) > 1 and part != word)


def _uncovered(terms: list[KeyTerm], passages: list[dict[str, str]]) -> list[tuple[KeyTerm, list[dict[str, str]]]]:
    """Terms no passage covers, each with the passages it may still be found in by meaning; a phrase's words
    count only where one passage covers several of them (the passages covering most of the phrase): "chief ...
    officer" here and "executives" elsewhere is not a chief executive officer."""
    missing = []
    for phrase in sorted({term.phrase for term in terms}):
        words = [term for term in terms if term.phrase == phrase]
        covered = [sum(t.required and term_found(t.stem, words_of.keys()) > 0 for t in words) for words_of in passages]
        most = max(covered, default=0)
        best = [words_of for words_of, count in zip(passages, covered, strict=True) if count == most]
        missing += [(term, best) for term in words if not term_found(term.stem, best[0].keys() if best else set())]
    return missing


def _paraphrased(missing: list[tuple[KeyTerm, list[dict[str, str]]]], *, at: float, language: str) -> set[str]:
    """Stems of missing terms that a word of their passages paraphrases (cosine of word embeddings >= `at`):
    "biggest" by "larger", "mileage" by "mile". A known opposite ("highest" / "lowest") never does, however
    close its vector."""
    from kb.vectors import CachedEmbedder

    embed = CachedEmbedder(language=language)
    paraphrased = set()
    for term, passages in missing:
        if language_of_word(term.stem).code not in settings.ASK_GATE_TERM_SIMILARITY_LANGUAGES:
            continue  # the model does not tell this language's words apart: their vectors say nothing
        vocabulary = sorted({word for words in passages for stem, word in words.items()
                             if (len(word) > 2 or len(word) == 2 and ideographs(word[:1])) and stem not in LIGHT_STEMS
                             and not _opposite(term, stem, word)})
        if not vocabulary:
            continue
        vectors = embed.vectors_for([term.word, *vocabulary], role=Role.QUERY)  # words against words
        if float(np.max(vectors[1:] @ vectors[0])) >= at:
            paraphrased.add(term.stem)
    return paraphrased


def _opposite(term: KeyTerm, stem: str, word: str) -> bool:
    return stem in ANTONYMS.get(term.stem, ()) or prefix_negates(word, term.word) or prefix_negates(term.word, word)


def gate_decide(
    *, question: str, hits: list[SearchHit], min_similarity: float | None = None,
    min_coverage: float | None = None, term_similarity: float | None = None,
) -> GateDecision:
    """answered or insufficient_evidence (with the key terms no qualified passage covers)."""
    min_similarity = settings.ASK_GATE_MIN_SIMILARITY if min_similarity is None else min_similarity
    min_coverage = settings.ASK_GATE_MIN_TERM_COVERAGE if min_coverage is None else min_coverage
    term_similarity = settings.ASK_GATE_TERM_SIMILARITY if term_similarity is None else term_similarity
    constraints = question_constraints(question=question)
    constrained = {stem for constraint in constraints for stem in constraint.stems}
    # a constraint's words still rank the sentences that answer, but are checked as it is (March is not April)
    terms = [replace(term, required=False) if term.stem in constrained else term for term in key_terms(question)]
    qualified = qualified_hits(hits, min_similarity=min_similarity)
    words_by_passage = _with_joined_pairs(terms, evidence_words(qualified))
    missing = _uncovered(terms, words_by_passage)
    warnings: list[str] = []
    if missing and qualified and term_similarity > 0:
        try:
            paraphrased = _paraphrased(missing, at=term_similarity, language=detect_language(question))
            missing = [(term, passages) for term, passages in missing if term.stem not in paraphrased]
        except EmbeddingError as exc:
            logger.warning("gate: word similarity unavailable: %s", exc)
            warnings.append(gettext("word similarity unavailable (%(error)s); key terms matched by word family only")
                            % {"error": exc})
    missing = [(term, passages) for term, passages in missing if term.required]
    answering = [passage_facts(hit=hit, stems=words.keys())
                 for hit, words in _answering(qualified, words_by_passage, terms)]
    unmet = [constraint.surface for constraint in constraints
             if not any(constraint_met(constraint=constraint, passage=passage) for passage in answering)]
    decision = GateDecision(status="answered", qualified=qualified, key_terms=terms,
                            missing_terms=[term.word for term, _ in missing], warnings=warnings,
                            constraints=constraints, missing_constraints=unmet)
    if (not terms and not constraints) or not qualified or unmet or decision.coverage < min_coverage:
        decision.status = "insufficient_evidence"
    return decision


def _answering(hits: list[SearchHit], passages: list[dict[str, str]],
               terms: list[KeyTerm]) -> list[tuple[SearchHit, dict[str, str]]]:
    """The passages an answer comes from: those covering the most of the question's required key terms (all of
    them when none covers any). A date written in a passage about something else ("the April report is released
    on May 5") is no date of what is asked."""
    covered = [sum(term.required and term_found(term.stem, words.keys()) > 0 for term in terms) for words in passages]
    most = max(covered, default=0)
    return [(hit, words) for hit, words, count in zip(hits, passages, covered, strict=True) if count == most]


def _with_joined_pairs(terms: list[KeyTerm], passages: list[dict[str, str]]) -> list[dict[str, str]]:
    """A passage writing two adjacent words of the question as one ("healthcare" for "health care") writes both."""
    pairs = []
    for first, second in zip(terms, terms[1:], strict=False):
        if first.phrase == second.phrase:
            joined = tokenize(first.word + second.word, 0, len(first.word + second.word), table=False)
            if len(joined) == 1:
                pairs.append((joined[0].stem, first, second))
    if not pairs:
        return passages
    extended = []
    for words in passages:
        words = dict(words)
        for stem, first, second in pairs:
            if stem_found(stem, words.keys()):
                words.setdefault(first.stem, first.word)
                words.setdefault(second.stem, second.word)
        extended.append(words)
    return extended
