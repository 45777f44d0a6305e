"""Back-references: a claim opening by leaning on the one before ("These symptoms usually start around six weeks
after the last period.", "It costs $40.", 它不能拆分。) names what it is about only in that claim, so checked alone its
subject is missing from any evidence. The text checked for it takes the previous claim's subject in place of the
back-reference word ("Morning sickness symptoms usually start …"); what a person reads — the claim, its span, its
quote — stays its own (``checking.claims.ClaimSpan``).

Only the subject's words are carried: never a number, date, negation or direction word of the previous claim, so a
claim is never supported (or contradicted) by another claim's facts. The words are each language's
(``checking.languages``: its back-reference words and how a statement's subject ends).
"""

from __future__ import annotations

from checking.languages import detect_language, language_for
from checking.text import is_content, tokenize


def leading_reference(text: str) -> tuple[int, int] | None:
    """Where the back-reference word ``text`` opens with is ("These", "It", 它, 这些), or None. The segmenter may
    join it to the word after it (它须, 该期限): then it is the first of that word's parts. A demonstrative that is
    the statement's whole subject ("This is because …", 这是……) points at the statement before, not at its
    subject: None."""
    language = language_for(detect_language(text))
    words = language.words(text)
    if not words:
        return None
    first = words[0]
    opening = next((part for part in (language.fold(first.text), *language.word_parts(first.text)[:1])
                    if part in language.cues.back_references), None)
    if opening is None:
        return None
    if opening in language.cues.demonstratives and language.leading_subject(text) == [first] \
            and len(opening) == len(first.text):
        return None
    return first.start, first.start + len(opening)


def carried_subject(text: str) -> str:
    """The subject of the statement ``text`` as a later claim's back-reference may take it: its opening phrase
    without negation, direction or back-reference words; "" where none names anything, or where a number is part
    of it ("Tier 4 emission standards"): the number may not be carried, and the phrase without it names something
    else."""
    language = language_for(detect_language(text))
    phrase = language.leading_subject(text)
    held = [(q.start, q.end) for q in language.quantities(text)]
    if any(start < word.end and word.start < end for word in phrase for start, end in held) \
            or any(char.isdigit() for word in phrase for char in word.text):
        return ""
    dropped = language.negation_cues | language.direction_pairs.keys() | language.cues.back_references
    kept = [word.text for word in phrase if language.fold(word.text) not in dropped]
    subject = language.word_separator.join(kept)
    return subject if any(is_content(t) for t in tokenize(subject, 0, len(subject), table=False)) else ""
