"""The numbers the fitted scoring model reads: the rules' findings counted by kind, and soft measures of support.

Everything here is general arithmetic over the claim's words and its chosen evidence's (the language layer's
words for a language written without spaces); nothing names a document. Which of these matter, and how much, is
fitted on labelled data (``training.py``), not set by hand.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from checking.findings import Finding, FindingKind
from checking.languages import detect_language, language_for
from checking.languages import zh as _chinese

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
# Words that carry the conversation, not a fact: a reply opening with "yes, ..." claims no more than without it.
_DISCOURSE = frozenset({"yes", "yeah", "yea", "yep", "no", "nope", "well", "sure", "so", "oh", "ok", "okay",
                        "actually", "also", "and", "but", "indeed", "right", *_chinese.DISCOURSE_WORDS})
# A pronoun the evidence never uses points at something the claim does not name: the claim cannot be
# checked on its own ("it was founded in 2019": what was?).
_PRONOUNS = frozenset({"it", "he", "she", "they", "his", "her", "its", "their", "them", "him", "this", "these",
                       "those", "it's", "they're", "he's", "she's", *_chinese.PRONOUNS})
# The speaker's own view or experience ("I love it", "you should") is never in a knowledge base.
_PERSONAL = frozenset({"i", "me", "my", "mine", "we", "our", "us", "you", "your", "i'm", "i've", "i'd", "we're",
                       "you're", "you'll", *_chinese.PERSONAL_WORDS})

# The built-in checker's own findings about a claim's facts; outside checkers' verdicts are combined after the
# model, and a claim about the sources is scored by what they state (checking.builtin), so neither is fed to it.
FINDING_FEATURES: dict[FindingKind, str] = {
    kind: f"n_{kind.value}" for kind in FindingKind
    if kind not in (FindingKind.EXTERNAL_SUPPORT, FindingKind.EXTERNAL_DOUBT, FindingKind.ABSENT_FROM_SOURCES,
                    FindingKind.STATED_IN_SOURCES)
}
SIGNAL_FEATURES = ("rule_score", "relevance", "coverage", "similarity", "subject_coverage", "novel_term_similarity")
TEXT_FEATURES = ("char_bigrams", "word_trigrams", "longest_run", "novel_share", "novel_words", "novel_pronouns",
                 "personal_words", "claim_words")
_BASE_FEATURES: tuple[str, ...] = (*SIGNAL_FEATURES, *FINDING_FEATURES.values(), *TEXT_FEATURES)
# Claims in a language other than English read otherwise (another segmenter, another embedding model): every
# measure has a weight of its own for them, fitted on those languages' rows, so English's need not bend to them.
LANGUAGE_FEATURES = ("not_english", *(f"{name}_not_english" for name in _BASE_FEATURES))
FEATURE_NAMES: tuple[str, ...] = (*_BASE_FEATURES, *LANGUAGE_FEATURES)


def _words(text: str) -> list[str]:
    """English: letters between spaces and marks. A language written without spaces: its segmenter's words (the
    regex would take a whole Chinese clause for one word)."""
    language = detect_language(text)
    if language != "en":
        return [w.key.lower() for w in language_for(language).words(text)]
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


def _char_bigrams(text: str) -> set[str]:
    folded = " ".join(text.lower().split())
    return {folded[i : i + 2] for i in range(len(folded) - 1)}


def _longest_run(words: list[str], evidence_words: list[str]) -> int:
    """The longest run of the claim's words that the evidence has word for word: how much was copied."""
    if not words or not evidence_words:
        return 0
    positions: dict[str, list[int]] = {}
    for k, word in enumerate(evidence_words):
        positions.setdefault(word, []).append(k)
    best = 0
    previous: dict[int, int] = {}  # evidence index -> length of the run ending there
    for word in words:
        current = {k: previous.get(k - 1, 0) + 1 for k in positions.get(word, ())}
        if current:
            best = max(best, max(current.values()))
        previous = current
    return best


def text_features(*, claim: str, evidence: str) -> dict[str, float]:
    words = [w for w in _words(claim) if w not in _DISCOURSE]
    evidence_words = _words(evidence)
    known = set(evidence_words)
    novel = [w for w in words if w not in known]
    claim_bigrams = _char_bigrams(claim)
    trigrams = {tuple(words[k : k + 3]) for k in range(len(words) - 2)}
    evidence_trigrams = {tuple(evidence_words[k : k + 3]) for k in range(len(evidence_words) - 2)}
    return {
        "char_bigrams": len(claim_bigrams & _char_bigrams(evidence)) / len(claim_bigrams) if claim_bigrams else 0.0,
        "word_trigrams": len(trigrams & evidence_trigrams) / len(trigrams) if trigrams else 0.0,
        "longest_run": _longest_run(words, evidence_words) / len(words) if words else 0.0,
        "novel_share": len(novel) / len(words) if words else 0.0,
        "novel_words": float(len(novel)),
        "novel_pronouns": float(sum(w in _PRONOUNS for w in novel)),
        "personal_words": float(sum(w in _PERSONAL for w in words)),
        "claim_words": float(len(words)),
    }


def claim_features(*, claim: str, evidence: str, findings: list[Finding], signals: Mapping[str, float],
                   rule_score: float) -> dict[str, float]:
    """One row for the model: ``evidence`` is the text of the candidate the checker chose."""
    counts = Counter(f.kind for f in findings)
    row = {name: float(counts.get(kind, 0)) for kind, name in FINDING_FEATURES.items()}
    row["rule_score"] = rule_score
    for name in SIGNAL_FEATURES[1:]:
        row[name] = float(signals.get(name, 0.0))
    if "similarity" not in signals:  # no embedder (the provider is down): word coverage is the nearest stand-in
        row["similarity"] = row["coverage"]
    if "novel_term_similarity" not in signals:  # not embedded: a word found nowhere counts as far from all
        row["novel_term_similarity"] = 0.0 if row[FINDING_FEATURES[FindingKind.UNSUPPORTED_TERM]] else 1.0
    row.update(text_features(claim=claim, evidence=evidence))
    other = float(detect_language(claim) != "en")
    row.update({f"{name}_not_english": other * row[name] for name in _BASE_FEATURES}, not_english=other)
    return row
