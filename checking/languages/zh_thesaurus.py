"""Chinese synonyms from a thesaurus, for the Ask gate and the antonym rule (``checking.text.synonym_in``).

HIT-SCIR's Tongyici Cilin (Extended), carried by the ``WordSimilarity`` package (Apache-2.0; only its data file is
read), codes each group of words in five levels ("Hj23B01=": H, j, 23, B, 01); "=" groups are words of one meaning
(返回 回来 归来), "#" groups only related (同姓 同乡 同行), "@" words stand alone. Words of the "=" groups of one
fourth-level class are synonyms here: the class holds the near synonyms a question and a policy choose between
(辞职 退职 of Hj23B01, 离职 去职 of Hj23B02), where the fifth level parts them. A word in several groups has several
meanings, so synonymy is a relation, not one canonical form. Only words of two characters or more take part
(single characters are too ambiguous: 过, 超, 报), and never a role (a different role is a different person), a
stop-word or a word that asks.
"""

from __future__ import annotations

import importlib.metadata
from functools import cache

from checking.languages.zh import LIGHT_WORDS, RATE_WORDS, ROLE_ENDINGS, STOP_WORDS, asks, is_han_word

_CILIN_FILE = "data/cilin_ex.txt"
_CILIN_CLASS = 5  # characters of a code naming its fourth-level class


@cache
def _synonym_table() -> dict[str, frozenset[str]]:
    path = importlib.metadata.distribution("WordSimilarity").locate_file(_CILIN_FILE)
    classes: dict[str, set[str]] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        code, *words = line.split() or [""]
        if code.endswith("="):
            classes.setdefault(code[:_CILIN_CLASS], set()).update(w for w in words if _synonym_candidate(w))
    table: dict[str, set[str]] = {}
    for members in classes.values():
        for word in members:
            table.setdefault(word, set()).update(members - {word})
    return {word: frozenset(others) for word, others in table.items() if others}


def _synonym_candidate(word: str) -> bool:
    return (len(word) > 1 and is_han_word(word) and word not in STOP_WORDS and word not in LIGHT_WORDS
            and not asks(word) and not word.endswith(ROLE_ENDINGS) and word not in RATE_WORDS)


def synonyms(word: str) -> frozenset[str]:
    """The words of the same meaning as ``word`` in the thesaurus (回来: 返回, 归来, …), or none."""
    return _synonym_table().get(word, frozenset())
