"""The built-in claim checker: offline, explainable, no model needed beyond an optional embedder.

A claim is compared with each evidence candidate (a KB chunk or a context string):

1. The candidate is cut into units (sentences, list items, table rows read with their
   header). The units sharing most with the claim seed windows of up to three nearby
   units; a window is what gets quoted.
2. Hard checks. Quantities (counts, money, percentages, durations, sizes, lengths,
   dates, times of day; scale words, "%"/"percent", "$1,200"/"1200 dollars", unit
   conversions) are bound to the like quantity of the candidate that sits in the most
   similar wording; a different value there is a contradiction, a value nowhere an
   unsupported addition. Directions (rose/fell, more/less, at least/at most), negation
   and antonyms, and names (absent, or in another name's place) are checked likewise. Members of a
   listed series bind by their own labels ("men (3.4 percent), women (3.1 percent)"), swapped pairs
   ("FileVault on Windows" against "BitLocker on Windows and FileVault on macOS") contradict, so does a word
   the evidence replaces between the same neighbours ("the company's arbitration procedure" against "the
   company's grievance procedure"), and an appended phrase or a superlative the evidence never states caps
   the score.
3. Soft evidence: the share of the claim's content words the window has (or paraphrases,
   judged by word embeddings), the claim-window embedding similarity, and a penalty
   per content word found nowhere.

Hard findings cap the score, so similarity alone never passes "4.5 percent" against
"3.5 percent". The best window of the best candidate is pinned as the quote. A claim
whose facts sit in two passages (a section split over two chunks) may be checked
against both, but only to fill a missing number or name.

This module picks and joins windows; the parsing lives in ``text``, ``quantities`` and ``analysis``, the
rules in ``rules/`` (listed in ``registry``), and the arithmetic in ``scoring``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice

import numpy
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from checking import scoring
from checking.analysis import MARKUP, Candidate, Claim, analyze_candidate, analyze_claim, clause_spans
from checking.base import CheckOutcome, Embedder, EvidenceCandidate, PartSupport
from checking.features import claim_features
from checking.findings import Finding, FindingKind
from checking.languages import reasons_in_language_of
from checking.model import ScoringModel, scoring_model
from checking.quantity_words import MONTHS, WEEKDAYS
from checking.registry import RULES
from checking.rules.additions import unsupported_degrees
from checking.rules.context import RuleContext
from checking.rules.quantities import value_also_stated
from checking.rules.rows import bound_row
from checking.rules.wording import SLOT_PARAPHRASE_AT, word_in_its_place
from checking.sources import sources_named
from checking.text import LIGHT_STEMS, absence_stated, is_content, stem_of, tokenize
from checking.windows import Window, candidate_windows, claim_coverage, stem_found, term_credit, window_relevance

_WORD_SIMILARITY_AT = 0.55  # word embeddings this close count as a paraphrase ("get" / "receive")
_WORD_CREDIT = 0.8
_MAX_VOCABULARY = 200
_MAX_EMBEDDED_WINDOWS = 12
# Picking the window: a score the default verdict bands call supported ends the search for better
# evidence. A property of the search, not a verdict band: those are in ``verdicts``.
_CONFIDENT_AT = 0.6
# A claim that the sources lack something: wrong only where a source plainly states it (a sentence of it copied
# scores 0.93-0.96; a passage that merely shares its words lacks the thing as often as not), and otherwise as
# supported as the absence of evidence can make it — supported, never released without a person.
_PLAINLY_STATED = 0.9
_NAMED_AT_MOST = 2  # words of a thing a source mentions by name (_named_in_one_sentence)
_ABSENCE_CONFIRMED = 0.8
_OVERRULING_MARGIN = 0.1
_JOIN_CANDIDATES = 6
_SYNTHESIS_SUBJECT_AT = 0.5  # of the claim's subject words, in a passage of another document (_about_one_subject)
_REFUTING_RELEVANCE = 0.5
_WHOLE_SENTENCE = 0.9  # of the claim's words in one sentence: that sentence states what the claim is about
# Contradictions that let a window overrule support (and keep it from being joined with another); a slot
# swap caps the score but is the least sure of them, so it never overrules.
_REFUTING = frozenset({FindingKind.QUANTITY_MISMATCH, FindingKind.DIRECTION, FindingKind.NEGATION,
                       FindingKind.ENTITY_SWAP, FindingKind.ROLE_SWAP})
_FILLED_BY_JOINING = frozenset({FindingKind.MISSING_QUANTITY, FindingKind.ENTITY_ELSEWHERE})


# Words that say when or how long, not what about: two statements sharing only these are not about the same
# subject ("Monday through Friday" in a support-hours answer and in a working-hours one).
_NOT_SUBJECT_STEMS = frozenset(stem_of(w) for w in (*MONTHS, *WEEKDAYS, "hour", "day", "week", "month", "year",
                                                   "minute", "time", "date", "am", "pm"))
_MIN_CLAUSE_SUBJECT = 3  # words: fewer do not say what a clause is about ("，每天一百元")


class BuiltinChecker:
    """The offline, explainable checker; ``embed`` (optional) adds semantic similarity and paraphrase credit.

    The rules pick the evidence window and find what agrees or differs; the fitted model (``model.json``)
    turns the findings and soft measures into the score, and a hard contradiction still caps it."""

    name = "builtin"

    def __init__(self, *, embed: Embedder | None = None, model: ScoringModel | None = None,
                 fitted: bool = True) -> None:
        self.embed = embed
        # fitted=False scores with the rules alone (the training command's baseline).
        self.model = (model or scoring_model()) if fitted else None

    def check(self, *, claim: str, candidates: Sequence[EvidenceCandidate]) -> CheckOutcome:
        with reasons_in_language_of(claim):
            lacked = absence_stated(claim)
            if lacked is not None and candidates:
                return self._absence_check(claim=claim, lacked=lacked, candidates=candidates)
            return self._check(claim=claim, candidates=candidates)

    def _absence_check(self, *, claim: str, lacked: tuple[int, int],
                       candidates: Sequence[EvidenceCandidate]) -> CheckOutcome:
        """"The passages do not mention X" is a claim about the sources: true when none states X ("Passage 3 does
        not mention X": when passage 3 does not; ``checking.sources``)."""
        start, end = lacked
        what = claim[start:end]
        named = sources_named(claim=claim, candidates=candidates)
        stated = self._check(claim=what, candidates=named.candidates if named else candidates)
        sources = pgettext("between list items", ", ").join(named.labels) if named else ""
        if stated.score >= _PLAINLY_STATED or _named_in_one_sentence(what, stated):
            message = (_("the claim says “%(what)s” is not in %(sources)s; it is") if named else
                       _("the claim says the sources lack “%(what)s”; the evidence states it"))
            finding = Finding(FindingKind.STATED_IN_SOURCES, message % {"what": what, "sources": sources},
                              claim_span=lacked, evidence_span=(stated.quote_start, stated.quote_end), subject=what)
            return replace(stated, score=1.0 - max(stated.score, _PLAINLY_STATED), findings=[finding])
        message = (_("“%(what)s” is not in %(sources)s, as the claim says") if named else
                   _("no source states “%(what)s”, as the claim says"))
        finding = Finding(FindingKind.ABSENT_FROM_SOURCES, message % {"what": what, "sources": sources},
                          claim_span=lacked, subject=what)
        return replace(stated, score=_ABSENCE_CONFIRMED, findings=[finding])

    def _check(self, *, claim: str, candidates: Sequence[EvidenceCandidate]) -> CheckOutcome:
        if not candidates:
            return CheckOutcome(score=0.0, findings=[], candidate_index=None, quote_start=0, quote_end=0)
        analyzed = [analyze_candidate(c.text, c.heading) for c in candidates]
        parsed = analyze_claim(claim, names=set().union(*(c.names for c in analyzed)))
        windows = [w for index, candidate in enumerate(analyzed) for w in candidate_windows(parsed, index, candidate)]
        if not windows:
            return CheckOutcome(score=0.0, findings=[], candidate_index=0, quote_start=0, quote_end=0)
        if self.embed is not None:
            _attach_embeddings(parsed, windows, self.embed)
        pool = _WindowPool(_Evidence(analyzed), parsed, windows)
        best = filled = _pick(pool.contenders())
        if best.score < _CONFIDENT_AT and not best.refutes:
            best = _joined(parsed, best, pool) or best
        candidate = analyzed[best.window.candidate]
        signals = {**best.signals, "rule_score": best.score,
                   "subject_coverage": _subject_coverage(parsed, best.window, candidate),
                   "contradicted_clause_coverage": _contradicted_clause_coverage(parsed, best, candidate)}
        features = claim_features(claim=claim, evidence=candidates[best.window.candidate].text,
                                  findings=best.findings, signals=signals, rule_score=best.score)
        quote_start, quote_end = _quoted(parsed, best.window, candidate)
        return CheckOutcome(score=scoring.fitted_score(model=self.model, features=features, findings=best.findings),
                            findings=best.findings, candidate_index=best.window.candidate,
                            quote_start=quote_start, quote_end=quote_end, signals=signals, features=features,
                            parts=_parts(best, filled))


def _named_in_one_sentence(what: str, stated: CheckOutcome) -> bool:
    """A thing said to be unmentioned that is one or two words ("brine", 腌鸡蛋) is mentioned where one sentence holds
    them all, though a single word scores too little to be "plainly stated"; a longer one must be stated, as its
    words may well be there while what it says is not ("the current forecast for Long Beach")."""
    tokens = [t for t in tokenize(what, 0, len(what), table=False) if t.kind in ("word", "num")]
    named = [t for t in tokens if is_content(t)]
    # "the HR portal", not "how to prevent bruising": a name is a short phrase, and has no number to compare
    return 0 < len(named) <= _NAMED_AT_MOST and len(tokens) <= _NAMED_AT_MOST + 1 \
        and not any(t.kind == "num" for t in tokens) and stated.signals.get("sentence_coverage", 0.0) >= 1.0


def _parts(best: _Scored, first: _Scored) -> list[PartSupport]:
    """The second passage of support joined from two candidates, with the span of the claim it fills in: the
    numbers and names the first lacked. Within one candidate the quote spans both already."""
    if best.window.joined_parts is None:
        return []
    _, second = best.window.joined_parts
    if second.candidate == best.window.candidate:
        return []
    spans = [f.claim_span for f in first.findings if f.kind in _FILLED_BY_JOINING and f.claim_span]
    return [PartSupport(candidate_index=second.candidate, quote_start=second.start, quote_end=second.end,
                        claim_start=min(a for a, _ in spans), claim_end=max(b for _, b in spans))] if spans else []


def _quoted(claim: Claim, window: Window, candidate: Candidate) -> tuple[int, int]:
    """What the quote spans: the window, or only the table row (list item) the claim's values bind to where the
    window holds its neighbours too — a highlight over the right row and the wrong one says both are meant."""
    row = None if window.joined else bound_row(claim, window, candidate.units)
    return (row.start, row.end) if row is not None else (window.start, window.end)


def check_claim(*, claim: str, candidates: Sequence[EvidenceCandidate], embed: Embedder | None,
                fitted: bool = True) -> CheckOutcome:
    return BuiltinChecker(embed=embed, fitted=fitted).check(claim=claim, candidates=candidates)


def differing_values(*, claim: str, candidate: EvidenceCandidate, outcome: CheckOutcome) -> list[Finding]:
    """The contradictions of ``outcome`` (a check against ``candidate`` alone) that show the candidate stating
    something else than the claim: what makes two approved sources a conflict. A number bound to another of the
    sentence's numbers while the sentence states the claim's own value too is no different value."""
    analyzed = analyze_candidate(candidate.text, candidate.heading)
    parsed = analyze_claim(claim, names=analyzed.names)
    return [f for f in outcome.findings if f.is_contradiction and not (
        f.kind is FindingKind.QUANTITY_MISMATCH and value_also_stated(claim=parsed, finding=f, candidate=analyzed))]


@dataclass
class _Scored:
    window: Window
    score: float
    findings: list[Finding]
    signals: dict[str, float]

    @property
    def relevance(self) -> float:
        return self.signals["relevance"]

    @property
    def refutes(self) -> bool:
        return any(f.kind in _REFUTING for f in self.findings)

    @property
    def lacks_a_fact_elsewhere(self) -> bool:
        return any(f.kind in _FILLED_BY_JOINING for f in self.findings)


class _Evidence:
    """All candidates of one check, for running the rules over a window of them."""

    def __init__(self, analyzed: list[Candidate]) -> None:
        self.analyzed = analyzed
        self.all_stems: set[str] = set().union(*(c.stems for c in analyzed))
        self.quoted_units = [frozenset(id(u) for u in c.units) for c in analyzed]

    def context(self, claim: Claim, window: Window, candidate: Candidate) -> RuleContext:
        credits = {stem: term_credit(stem, window, candidate) for stem in claim.weights}
        return RuleContext(claim=claim, window=window, candidate=candidate, all_stems=self.all_stems,
                           credits=credits, quoted_units=self.quoted_units[window.candidate])

    def score(self, claim: Claim, window: Window, candidate: Candidate) -> _Scored:
        ctx = self.context(claim, window, candidate)
        return self.judge(ctx, _signals(ctx))

    def judge(self, ctx: RuleContext, signals: dict[str, float]) -> _Scored:
        findings = [finding for rule in RULES for finding in rule(ctx)]
        return _Scored(window=ctx.window, score=scoring.score(findings=findings, signals=signals),
                       findings=findings, signals=signals)


class _WindowPool:
    """A check's windows, run through the rules only when they could change its outcome.

    The rules only lower a window's soft score (relevance less the words it lacks), but for a bonus of at most
    ``scoring.MAX_GAIN``; and only the most relevant refuting window can overrule support, if it is relevant
    enough (``_could_overrule``). Taken in order of relevance, a window that can be neither the best supported nor
    that refuting one is left unjudged: the check picks exactly what judging every window would."""

    def __init__(self, evidence: _Evidence, claim: Claim, windows: list[Window]) -> None:
        self.evidence = evidence
        self.contexts = [evidence.context(claim, w, evidence.analyzed[w.candidate]) for w in windows]
        self.signals = [_signals(ctx) for ctx in self.contexts]
        self.order = sorted(range(len(windows)), key=lambda i: -self.signals[i]["relevance"])
        self.judged: dict[int, _Scored] = {}

    def _judge(self, index: int) -> _Scored:
        if index not in self.judged:
            self.judged[index] = self.evidence.judge(self.contexts[index], self.signals[index])
        return self.judged[index]

    def contenders(self) -> list[_Scored]:
        """Every window that could be picked (as support, as the most relevant, or as overruling support), in
        the windows' own order."""
        best, refuter_found = 0.0, False
        top = self.signals[self.order[0]]["relevance"] if self.order else 0.0
        for index in self.order:
            signals = self.signals[index]
            # The margin keeps a rounded score's tie with the best from being left out.
            could_support = scoring.score(findings=[], signals=signals) + scoring.MAX_GAIN + 1e-4 >= best
            if not could_support and (refuter_found or not _could_overrule(signals["relevance"], top=top)):
                continue
            judged = self._judge(index)
            best, refuter_found = max(best, judged.score), refuter_found or judged.refutes
        return [self.judged[index] for index in sorted(self.judged)]

    def by_relevance(self) -> Iterator[_Scored]:
        for index in self.order:
            yield self._judge(index)


def _could_overrule(relevance: float, *, top: float) -> bool:
    """Whether a refuting window this relevant could be the one ``_pick`` lets overrule: close enough to the most
    relevant window, or clearly more relevant than any window confident support can have (its relevance is at
    least ``_CONFIDENT_AT`` less the bonuses)."""
    clearly_above_support = _CONFIDENT_AT - scoring.MAX_GAIN + _OVERRULING_MARGIN - 1e-4
    return relevance >= _REFUTING_RELEVANCE and (relevance >= top - _OVERRULING_MARGIN
                                                  or relevance > clearly_above_support)


def _signals(ctx: RuleContext) -> dict[str, float]:
    """The window's soft measures: word coverage, relevance, similarity, and how many claim words it lacks
    (a degree the evidence never states, "highest", counts as one)."""
    claim, window = ctx.claim, ctx.window
    total = sum(claim.weights.values())
    coverage = sum(claim.weights[s] * c for s, c in ctx.credits.items()) / total if total else 1.0
    unsupported = ctx.unsupported
    light = sum(1 for s in unsupported if s in LIGHT_STEMS)
    signals = {
        "coverage": coverage,
        "relevance": scoring.relevance(similarity=window.similarity, coverage=coverage),
        "unsupported_terms": float(len(unsupported) - light + len(unsupported_degrees(claim, window))),
        "light_terms": float(light),
    }
    # The most of the claim one sentence of the window states: words gathered from several sentences support
    # less than one sentence stating them all (see _pick).
    signals["sentence_coverage"] = max((claim_coverage(claim, unit.stems) for unit in window.units), default=0.0)
    if window.similarity is not None:
        signals["similarity"] = window.similarity
    if window.word_similarity:
        # How close the evidence comes to the claim's least supported word: near for a rewording, far for a fact
        # the evidence never mentions. 1.0 when every word is found.
        sims = [window.word_similarity.get(s, 0.0) for s in unsupported if s not in LIGHT_STEMS]
        signals["novel_term_similarity"] = min(sims, default=1.0)
    return signals


def _subject_coverage(claim: Claim, window: Window, candidate: Candidate, *, within: set[str] | None = None) -> float:
    """How much of what the claim (or the part of it whose stems are ``within``) is about — its content words,
    less numbers, dates and light words — the window or its heading names: a conflict needs two statements about
    the same thing."""
    subject = [s for s in claim.weights if s not in _NOT_SUBJECT_STEMS and s not in LIGHT_STEMS
               and (within is None or s in within)]
    if not subject or (within is not None and len(subject) < _MIN_CLAUSE_SUBJECT):
        return 0.0
    stems = window.stems | candidate.heading_stems
    return sum(stem_found(s, stems) for s in subject) / len(subject)


def _contradicted_clause_coverage(claim: Claim, best: _Scored, candidate: Candidate) -> float:
    """``_subject_coverage`` of the claim clause holding the first contradiction: a claim joining two provisions
    ("密码长度不得少于十二位，并且必须包含……至少三类") is about the first where a source states its value otherwise,
    though that source names nothing of the second. 0 without a contradiction, or for a clause of too few words to
    say what it is about."""
    at = next((f.claim_span[0] for f in best.findings if f.is_contradiction and f.claim_span), None)
    if at is None:
        return 0.0
    tokens = claim.unit.tokens
    clause = next(({t.stem for t in tokens[a:b]} for a, b in clause_spans(tokens)
                   if tokens[a].start <= at < tokens[b - 1].end), None)
    return 0.0 if clause is None else _subject_coverage(claim, best.window, candidate, within=clause)


def _attach_embeddings(claim: Claim, all_windows: list[Window], embed: Embedder) -> None:
    """One embed call: the claim and the words needed for word-level paraphrase credit (as queries), and the units
    of the lexically best windows (as passages). Windows left out score as dissimilar; they share too few words to
    matter.

    A window of several units is not embedded as one text: its vector is its units' vectors weighted by their
    length, the mean over tokens the model itself pools, so a check embeds no evidence that indexing stored
    (units are embedded when a version is indexed) however its windows combine them."""
    ranked = sorted(all_windows, key=lambda w: -window_relevance(claim, w.units))
    windows = ranked[:_MAX_EMBEDDED_WINDOWS]
    for window in ranked[_MAX_EMBEDDED_WINDOWS:]:
        window.similarity = 0.0
    unmatched = [w for w, s in claim.words.items() if any(not stem_found(s, win.stems) for win in windows)]
    vocabulary = sorted({w for win in windows for u in win.units for w in u.words} - set(claim.words))
    vocabulary = vocabulary[:_MAX_VOCABULARY] if unmatched else []
    unit_texts = list(dict.fromkeys(u.embed_text for win in windows for u in win.units))
    vectors, passages = embed([" ".join(MARKUP.sub("", claim.text).split())] + unmatched + vocabulary, unit_texts)
    # A model other than the one the thresholds were set on says how its cosines map onto that one's scale.
    comparable = getattr(embed, "comparable", lambda similarity: similarity)
    unit_vectors = dict(zip(unit_texts, passages))
    for window in windows:
        composed = sum(len(u.tokens) * unit_vectors[u.embed_text] for u in window.units)
        norm = float(numpy.linalg.norm(composed))
        window.similarity = float(comparable(float(composed @ vectors[0]) / norm)) if norm else 0.0
    if not unmatched or not vocabulary:
        return
    claim.word_vectors = dict(zip(unmatched + vocabulary, vectors[1:]))
    claim.word_similarity = lambda a, b: float(comparable(float(a @ b)))
    word_sims = comparable(vectors[1 : 1 + len(unmatched)] @ vectors[1 + len(unmatched) :].T)
    column = {w: k for k, w in enumerate(vocabulary)}
    for window in windows:
        columns = [column[w] for u in window.units for w in u.words if w in column]
        if not columns:
            continue
        best = word_sims[:, columns].max(axis=1)
        for word, sim in zip(unmatched, best):
            stem = claim.words[word]
            window.word_similarity[stem] = max(window.word_similarity.get(stem, 0.0), float(sim))
            if sim >= _WORD_SIMILARITY_AT and not stem_found(stem, window.stems):
                window.word_credit[stem] = max(window.word_credit.get(stem, 0.0), _WORD_CREDIT)
    row = {w: k for k, w in enumerate(unmatched)}
    for window in windows:
        _credit_rewordings_in_place(claim, window, lambda a, b: float(word_sims[row[a], column[b]])
                                    if a in row and b in column else None)


def _credit_rewordings_in_place(claim: Claim, window: Window, similarity) -> None:
    """A claim word the evidence words otherwise in the same place ("the jobless rate" / "the unemployment rate")
    earns the paraphrase credit at the looser likeness the wording rule allows there (``SLOT_PARAPHRASE_AT``): the
    shared neighbour says both words name the same thing, which a similar word anywhere in the window does not.
    Word vectors put near synonyms and near rivals ("car" / "taxi") alike, so the word stays a substitution
    (soft doubt, and a reason a person reads) rather than a word found."""
    for k, tok in enumerate(claim.unit.tokens):
        stem = claim.words.get(tok.lower)
        if stem is None or stem in window.word_credit or stem_found(stem, window.stems):
            continue
        rival = word_in_its_place(claim, window, k)
        likeness = similarity(tok.lower, rival[0].lower) if rival is not None else None
        if likeness is not None and likeness >= SLOT_PARAPHRASE_AT:
            window.word_credit[stem] = _WORD_CREDIT
            window.reworded_in_place.add(stem)


def _joined(claim: Claim, first: _Scored, pool: _WindowPool) -> _Scored | None:
    """Support split over two passages: the best one lacks a number or name of the claim that another
    has ("founded in 2010" in one chunk, "headquartered in San Francisco" in the next of the same section). Only
    such hard gaps are filled this way, and only from the same section, so a claim's extra words never find
    support in unrelated evidence."""
    if not first.lacks_a_fact_elsewhere:
        return None
    evidence = pool.evidence
    ranked = list(islice((s for s in pool.by_relevance() if not s.refutes), _JOIN_CANDIDATES))
    best: _Scored | None = None
    for second in ranked:
        if second is first or _overlapping(first.window, second.window) or not (_same_section(
                evidence.analyzed[first.window.candidate], evidence.analyzed[second.window.candidate])
                or _about_one_subject(claim, first, second, evidence)):
            continue
        candidate = _union(evidence.analyzed[first.window.candidate], evidence.analyzed[second.window.candidate])
        joined = evidence.score(claim, _join(first.window, second.window), candidate)
        if not joined.lacks_a_fact_elsewhere and joined.score >= _CONFIDENT_AT and (
                best is None or joined.score > best.score):
            best = joined
    return best


def _about_one_subject(claim: Claim, first: _Scored, second: _Scored, evidence: _Evidence) -> bool:
    """Passages of different documents may be put together (synthesis) when the second speaks of what the claim is
    about, naming a subject word the first names too ("Oracle … CEO" in both, Mark Hurd in one, Safra Catz in the
    other): the fact it fills in is then about the same thing, not a name borrowed from an unrelated passage."""
    subject = [s for s in claim.weights if s not in _NOT_SUBJECT_STEMS and s not in LIGHT_STEMS]
    first_stems = first.window.stems | evidence.analyzed[first.window.candidate].heading_stems
    second_stems = second.window.stems | evidence.analyzed[second.window.candidate].heading_stems
    shared = [s for s in subject if stem_found(s, first_stems) and stem_found(s, second_stems)]
    return bool(shared) and _subject_coverage(claim, second.window, evidence.analyzed[second.window.candidate]) \
        >= _SYNTHESIS_SUBJECT_AT


def _same_section(a: Candidate, b: Candidate) -> bool:
    """Passages one fact may be split over: one candidate, or two chunks of one section of one document. A
    passage from elsewhere would lend an invented clause its words ("..., which is covered by the travel
    insurance")."""
    return a is b or bool(a.section) and a.section == b.section


def _pick(scored: list[_Scored]) -> _Scored:
    """Support wins unless clearly more relevant evidence refutes the claim.

    Within one candidate quantities are already bound candidate-wide, so a supporting window there has
    survived its neighbours; another candidate must be clearly more on topic to overrule it.
    """
    supporting = max(scored, key=lambda s: (s.score, s.relevance))
    refuting = [s for s in scored if s.refutes and s.relevance >= _REFUTING_RELEVANCE]
    most_relevant = max(refuting, key=lambda s: s.relevance, default=None)
    if supporting.score < _CONFIDENT_AT:
        on_topic = max(scored, key=lambda s: s.relevance)
        if most_relevant is not None and most_relevant.relevance >= on_topic.relevance - _OVERRULING_MARGIN:
            return most_relevant
        return on_topic if on_topic.score >= supporting.score - _OVERRULING_MARGIN else supporting
    if most_relevant is not None and most_relevant.relevance > supporting.relevance + _OVERRULING_MARGIN:
        return most_relevant
    # One sentence with (nearly) all the claim's words that refutes it outweighs support gathered from several
    # sentences: "A approves B's trips" against "B approves A's trips" beside a list naming A and B apart.
    whole = [s for s in refuting if s.signals["sentence_coverage"] >= _WHOLE_SENTENCE
             and s.signals["sentence_coverage"] > supporting.signals["sentence_coverage"] + _OVERRULING_MARGIN]
    if whole:
        return max(whole, key=lambda s: s.relevance)
    return supporting


def _overlapping(a: Window, b: Window) -> bool:
    return a.candidate == b.candidate and a.start < b.end and b.start < a.end


def _join(first: Window, second: Window) -> Window:
    """Check against both; quote the first (both when they share a candidate)."""
    same = first.candidate == second.candidate
    return Window(
        candidate=first.candidate,
        units=first.units + second.units,
        start=min(first.start, second.start) if same else first.start,
        end=max(first.end, second.end) if same else first.end,
        stems=first.stems | second.stems,
        similarity=max(first.similarity or 0.0, second.similarity or 0.0) if first.similarity is not None else None,
        word_credit={**second.word_credit, **first.word_credit},
        word_similarity={**second.word_similarity, **first.word_similarity},
        reworded_in_place=first.reworded_in_place | second.reworded_in_place,
        joined_parts=(first, second),
    )


def _union(a: Candidate, b: Candidate) -> Candidate:
    if a is b:
        return a
    return Candidate(units=a.units + b.units, stems=a.stems | b.stems, names=a.names | b.names,
                      heading_stems=a.heading_stems | b.heading_stems)

