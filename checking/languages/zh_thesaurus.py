"""Chinese synonyms from a thesaurus, for the Ask gate and the antonym rule (``checking.text.synonym_in``).

HIT-SCIR's Tongyici Cilin (Extended), carried by the ``WordSimilarity`` package (Apache-2.0; only its data file is
read), codes each group of words in five levels ("Hj23B01=": H, j, 23, B, 01); "=" groups are words of one meaning
(返回 回来 归来), "#" groups only related (同姓 同乡 同行), "@" words stand alone. Words of the "=" groups of one
fourth-level class are synonyms here: the class holds the near synonyms a question and a policy choose between
(辞职 退职 of Hj23B01, 离职 去职 of Hj23B02), where the fifth level parts them. A word in several groups has several
meanings, so synonymy is a relation, not one canonical form. Only words of two characters or more take part
(single characters are too ambiguous: 过, 超, 报), and never a role (a different role is a different person), a
stop-word or a word that asks.

The third level is broader. For people and things (major classes A and B) it is a taxonomy: a small class holds
the kinds of one kind ("Ah08": spouses; "Ah02": grandparents), so it puts a word beside the more general or more
specific word a policy uses (老婆 / 配偶, 爷爷 / 祖父母), and beside its sisters too (丈夫 / 妻子). Those are
``kindred`` words: the Ask gate reads them to know what a question is about (the checker then weighs every claim
against the passage); nothing else does (a sister is no evidence of a claim). For features, actions and states
the third level gathers opposites (最高 / 最低, 增加 / 减少, 必须 / 不必), so those classes give no kindred words.
"""

from __future__ import annotations

import importlib.metadata
from functools import cache

from checking.languages.zh import RATE_WORDS, ROLE_ENDINGS, STOP_WORDS, asks, is_han_word
from checking.languages.zh_questions import LIGHT_WORDS

_CILIN_FILE = "data/cilin_ex.txt"
_CILIN_CLASS = 5  # characters of a code naming its fourth-level class
_CILIN_SMALL_CLASS = 4  # characters of a code naming its third-level class
_CILIN_KINDS = ("A", "B")  # people and things: the major classes whose small classes are kinds of one kind


@cache
def _class_table(code_length: int, major_classes: tuple[str, ...] = ()) -> dict[str, frozenset[str]]:
    """Each word with the other words of the "=" groups of its class (the code's first ``code_length``
    characters), of the given major classes only when any are given."""
    path = importlib.metadata.distribution("WordSimilarity").locate_file(_CILIN_FILE)
    classes: dict[str, set[str]] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        code, *words = line.split() or [""]
        if code.endswith("=") and code.startswith(major_classes or code[:1]):
            classes.setdefault(code[:code_length], set()).update(w for w in words if _synonym_candidate(w))
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
    return _class_table(_CILIN_CLASS).get(word, frozenset())


def kindred(word: str) -> frozenset[str]:
    """The words of the small class of ``word``, a person or a thing, in the thesaurus (老婆: 配偶, 妻子, 丈夫, …;
    its synonyms among them), or none."""
    return _class_table(_CILIN_SMALL_CLASS, _CILIN_KINDS).get(word, frozenset())
